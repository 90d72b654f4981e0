import { GRID_DIGITS, keepsItsDigits } from "../format.js";
import type { SchedulerChoice } from "../schedulers.js";
import { UsageError } from "../usage-error.js";
import type { Experiment } from "./experiment.js";
import {
  findParameter,
  type GridAxis,
  isValidValue,
  type ParameterSpec,
  type Params,
  type ParamValue,
  paramText,
  schedulerParameters,
} from "./parameters.js";

/** The parameters' values before any is set: each one's default (its `quick` one with `--quick`). */
export function defaultParams(experiment: Experiment, quick: boolean): Record<string, ParamValue> {
  const out: Record<string, ParamValue> = {};
  for (const p of experiment.parameters) {
    const value = quick && p.quick !== undefined ? p.quick : p.default;
    if (value !== undefined) out[p.name] = value;
  }
  return out;
}

/**
 * Every parameter `--set` and `--vary` accept for `experiment`: its own, then each of its
 * schedulers' options as `LABEL.key`.
 */
export function allParameters(experiment: Experiment, quick: boolean): ParameterSpec[] {
  return [
    ...experiment.parameters,
    ...schedulerParameters(experiment.schedulers(defaultParams(experiment, quick))),
  ];
}

/** What a user asked of an experiment's parameters (`--set`, `--vary`, or a file's `set`/`grid`). */
export interface ParameterRequest {
  /** Values to fix, by name, already typed. */
  readonly set: ReadonlyMap<string, ParamValue>;
  /** Values to sweep, by name, in order: a new grid axis, or new values of a default one. */
  readonly vary: ReadonlyMap<string, readonly ParamValue[]>;
}

/** The grid and fixed values of a registry experiment, as a sweep plan records them. */
export interface ResolvedParameters {
  /** The grid axes, first outermost: the default grid, changed and extended by the request. */
  readonly axes: readonly GridAxis[];
  /**
   * The value of every parameter that is not an axis (defaults and set values), and of every
   * scheduler option that was set (`LABEL.key`).
   */
  readonly fixed: Readonly<Record<string, ParamValue>>;
}

/**
 * Apply `request` to `experiment`'s defaults and grid. `set` on an axis keeps it as an axis of
 * that one value (so `results.csv` keeps its columns); `vary` on an axis replaces its values, on
 * another parameter adds an axis after the default ones (in the order given).
 *
 * @throws UsageError when a name is set and varied at once, or a varied list repeats a value.
 */
export function resolveParameters(
  experiment: Experiment,
  quick: boolean,
  request: ParameterRequest,
  command: string,
): ResolvedParameters {
  for (const name of request.set.keys()) {
    if (request.vary.has(name)) {
      throw new UsageError(`${command}: parameter '${name}' is both set and varied`, command);
    }
  }
  for (const [name, values] of request.vary) {
    if (values.length === 0 || new Set(values).size !== values.length) {
      throw new UsageError(
        `${command}: --vary ${name}: expected distinct values, got ${values.map(paramText).join(",")}`,
        command,
      );
    }
  }
  const axes: GridAxis[] = experiment.grid(quick).map((axis) => {
    const set = request.set.get(axis.name);
    if (set !== undefined) return { name: axis.name, values: [set] };
    return { name: axis.name, values: request.vary.get(axis.name) ?? axis.values };
  });
  for (const [name, values] of request.vary) {
    if (!axes.some((a) => a.name === name)) axes.push({ name, values });
  }
  // a run is found again by the axis values its file holds, written with 6 decimals
  for (const { name, values } of axes) {
    const bad = values.find((v) => typeof v === "number" && !keepsItsDigits(v));
    if (bad !== undefined) {
      throw new UsageError(
        `${command}: parameter '${name}' (a grid axis): expected ${GRID_DIGITS}, got ${paramText(bad)}`,
        command,
      );
    }
  }
  const fixed: Record<string, ParamValue> = {};
  const onAxis = new Set(axes.map((a) => a.name));
  for (const [name, value] of Object.entries(defaultParams(experiment, quick))) {
    if (!onAxis.has(name)) fixed[name] = value;
  }
  for (const [name, value] of request.set) if (!onAxis.has(name)) fixed[name] = value;
  return { axes, fixed };
}

/**
 * The scheduler labelled `label` at parameter values `params`: the experiment's choice, with
 * every option set as `LABEL.key` in `params` put over its options (the label is kept).
 *
 * @throws Error when the experiment has no such policy (a plan of another version).
 */
export function experimentScheduler(
  experiment: Experiment,
  params: Params,
  label: string,
): SchedulerChoice {
  const base = experiment.schedulers(params).find((c) => c.label === label);
  if (base === undefined) {
    throw new Error(`experiment '${experiment.name}' has no policy '${label}'`);
  }
  const prefix = `${label}.`;
  const overrides = Object.entries(params).filter(([k]) => k.startsWith(prefix));
  if (overrides.length === 0) return base;
  const options = { ...base.options };
  for (const [k, v] of overrides) options[k.slice(prefix.length)] = v;
  return { ...base, options };
}

/**
 * Check an experiment's declarations (a test calls it for every registry experiment): names
 * unique, defaults valid, grid axes are parameters with at least one value, all valid and distinct,
 * scheduler labels independent of the parameters.
 *
 * @returns the problems found, empty when none.
 */
export function checkExperiment(experiment: Experiment): string[] {
  const problems: string[] = [];
  const names = new Set<string>();
  for (const p of experiment.parameters) {
    if (names.has(p.name)) problems.push(`parameter '${p.name}' declared twice`);
    names.add(p.name);
    if (p.default === undefined) problems.push(`parameter '${p.name}' has no default`);
    for (const v of [p.default, p.quick]) {
      if (v !== undefined && !isValidValue(p, v)) {
        problems.push(`parameter '${p.name}': default ${paramText(v)} is not a valid value`);
      }
    }
    if (p.meaning.trim() === "" || p.source.trim() === "") {
      problems.push(`parameter '${p.name}' lacks a meaning or a source`);
    }
  }
  for (const quick of [false, true]) {
    const labels = experiment.schedulers(defaultParams(experiment, quick)).map((c) => c.label);
    if (new Set(labels).size !== labels.length) problems.push("scheduler labels repeat");
    for (const axis of experiment.grid(quick)) {
      const spec = experiment.parameters.find((p) => p.name === axis.name);
      if (spec === undefined) {
        problems.push(`grid axis '${axis.name}' is not a parameter`);
        continue;
      }
      if (axis.values.length === 0) problems.push(`grid axis '${axis.name}' has no value`);
      if (new Set(axis.values).size !== axis.values.length) {
        problems.push(`grid axis '${axis.name}' repeats a value`);
      }
      for (const v of axis.values) {
        if (!isValidValue(spec, v)) problems.push(`grid axis '${axis.name}': bad value ${v}`);
        const params = { ...defaultParams(experiment, quick), [axis.name]: v };
        const at = experiment.schedulers(params).map((c) => c.label);
        if (at.join("\n") !== labels.join("\n")) {
          problems.push(`scheduler labels change with '${axis.name}'`);
        }
      }
    }
  }
  return problems;
}

/** {@link findParameter} over {@link allParameters}: the spec of a name given on the command line. */
export function experimentParameter(
  experiment: Experiment,
  quick: boolean,
  name: string,
  where: string,
  command: string,
): ParameterSpec {
  return findParameter(allParameters(experiment, quick), name, where, command);
}
