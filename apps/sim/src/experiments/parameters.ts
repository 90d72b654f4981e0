import { integerText, realText, suggest } from "../args.js";
import { hanging } from "../format.js";
import type { SchedulerOptionSpec } from "../scheduler-options.js";
import type { SchedulerChoice } from "../schedulers.js";
import { UsageError } from "../usage-error.js";

/** The value of an experiment parameter: numbers, switches and named choices. */
export type ParamValue = number | string | boolean;

/** Parameter values by name. */
export type Params = Readonly<Record<string, ParamValue>>;

/**
 * One knob of an experiment: a heuristic constant, a workload parameter the paper fixes, a
 * solver budget, or an interpretation switch (a reading of the paper that the text leaves
 * open). Every one is shown by `reproduce EXP --params`, changed by `--set name=value`, swept
 * by `--vary name=a,b,…`, and recorded in the results directory.
 */
export interface ParameterSpec {
  /** Its name on the command line and in `results.csv` (camelCase, e.g. `antiAging`). */
  readonly name: string;
  /** How its text is read: a number, an integer, `true`/`false`, one of `choices`, or any text. */
  readonly type: "number" | "integer" | "boolean" | "choice" | "string";
  /**
   * Its value when not set: the paper's value, or the documented reading where it is silent.
   * Absent only for a scheduler's option exposed as `LABEL.key` (unset: the experiment's or the
   * scheduler's own default applies).
   */
  readonly default?: ParamValue;
  /** Its value with `--quick` when that differs (a smaller workload, say). @defaultValue `default` */
  readonly quick?: ParamValue;
  /** The values a `choice` takes. */
  readonly choices?: readonly string[];
  /** Smallest value of a number or integer (inclusive). @defaultValue none */
  readonly min?: number;
  /** Largest value of a number or integer (inclusive). @defaultValue none */
  readonly max?: number;
  /** Whether `min` itself is excluded (`> 0` rather than `>= 0`). @defaultValue false */
  readonly minExclusive?: boolean;
  /** One line: what it means, with its unit. */
  readonly meaning: string;
  /**
   * Where it comes from: the paper's section, table or equation (`"§6"`), or the README
   * Interpretation entry that documents the reading (`"convergent README, Interpretation 16"`).
   */
  readonly source: string;
}

/** A `number` parameter's spec: `name`, its default, meaning and source, then any other field. */
export function numberSpec(
  name: string,
  value: number,
  meaning: string,
  source: string,
  extra: Partial<ParameterSpec> = {},
): ParameterSpec {
  return { name, type: "number", default: value, meaning, source, ...extra };
}

/** A swept parameter of a grid and its values, in order. */
export interface GridAxis {
  readonly name: string;
  readonly values: readonly ParamValue[];
}

/** A parameter's value as the command line writes it. */
export function paramText(value: ParamValue): string {
  if (value === Number.POSITIVE_INFINITY) return "inf";
  return String(value);
}

/** The expected-value phrase of a spec, for messages: `a number > 0`, `true or false`, … */
export function expectedText(spec: ParameterSpec): string {
  switch (spec.type) {
    case "boolean":
      return "true or false";
    case "choice":
      return `one of ${(spec.choices ?? []).join(", ")}`;
    case "string":
      return "a non-empty text";
    default: {
      const what = spec.type === "integer" ? "an integer" : "a number";
      const lo =
        spec.min === undefined ? "" : ` ${spec.minExclusive === true ? ">" : ">="} ${spec.min}`;
      const hi = spec.max === undefined ? "" : `${lo ? " and" : ""} <= ${spec.max}`;
      return `${what}${lo}${hi}`;
    }
  }
}

/** Whether `value` is a valid value of `spec` (type, range, choices). */
export function isValidValue(spec: ParameterSpec, value: ParamValue): boolean {
  switch (spec.type) {
    case "boolean":
      return typeof value === "boolean";
    case "choice":
      return typeof value === "string" && (spec.choices ?? []).includes(value);
    case "string":
      return typeof value === "string" && value.length > 0;
    default: {
      if (typeof value !== "number" || Number.isNaN(value)) return false;
      if (spec.type === "integer" && !Number.isSafeInteger(value)) return false;
      if (spec.type === "number" && !Number.isFinite(value)) return false;
      if (spec.min !== undefined && (spec.minExclusive ? value <= spec.min : value < spec.min)) {
        return false;
      }
      return spec.max === undefined || value <= spec.max;
    }
  }
}

/**
 * Read the text of a value of `spec` (`--set k=TEXT`, one item of `--vary k=A,B`), or throw a
 * {@link UsageError} `<where>: expected …, got 'TEXT'`.
 */
export function parseParamValue(
  spec: ParameterSpec,
  text: string,
  where: string,
  command: string,
): ParamValue {
  let value: ParamValue = text;
  if (spec.type === "boolean") {
    value = text === "true" ? true : text === "false" ? false : text;
  } else if (spec.type === "integer") {
    value = integerText(text);
  } else if (spec.type === "number") {
    value = realText(text);
  }
  if (!isValidValue(spec, value)) {
    throw new UsageError(`${where}: expected ${expectedText(spec)}, got '${text}'`, command);
  }
  return value;
}

/** The value of a JSON value for `spec` (an experiment file's `set` or `grid`), or a UsageError. */
export function jsonParamValue(
  spec: ParameterSpec,
  value: unknown,
  where: string,
  command: string,
): ParamValue {
  if (
    (typeof value === "number" || typeof value === "string" || typeof value === "boolean") &&
    isValidValue(spec, value)
  ) {
    return value;
  }
  const shown = (JSON.stringify(value) ?? String(value)).slice(0, 60);
  throw new UsageError(`${where}: expected ${expectedText(spec)}, got ${shown}`, command);
}

/**
 * The parameters of a scheduler's options, as an experiment exposes them: `LABEL.key` for each
 * option of each of its policies (`easy.machineOrder`), typed from the option's spec, unset by
 * default (the experiment's or the scheduler's own default applies).
 */
export function schedulerParameters(choices: readonly SchedulerChoice[]): ParameterSpec[] {
  return choices.flatMap((c) =>
    c.entry.options.map(
      (o): ParameterSpec => ({
        name: `${c.label}.${o.key}`,
        type: optionType(o),
        ...(c.options[o.key] === undefined ? {} : { default: c.options[o.key] as ParamValue }),
        ...(o.choices === undefined ? {} : { choices: o.choices }),
        ...(o.min === undefined ? {} : { min: o.min }),
        // the description's "(default X)" is the scheduler's own; the experiment may give another
        meaning:
          c.options[o.key] === undefined
            ? o.description
            : o.description.replaceAll("(default ", "(scheduler default "),
        source: `option '${o.key}' of scheduler '${c.entry.name}'`,
      }),
    ),
  );
}

function optionType(o: SchedulerOptionSpec): ParameterSpec["type"] {
  if (o.type === "string") return o.choices === undefined ? "string" : "choice";
  return o.type;
}

/** The spec named `name` among `specs`, or a UsageError listing the valid names. */
export function findParameter(
  specs: readonly ParameterSpec[],
  name: string,
  where: string,
  command: string,
): ParameterSpec {
  const spec = specs.find((s) => s.name === name);
  if (spec !== undefined) return spec;
  const names = specs.map((s) => s.name);
  const hint = suggest(name, names);
  throw new UsageError(
    `${where}: unknown parameter '${name}'${hint ? ` (did you mean ${hint}?)` : ""}; valid names: ${names.join(", ")}`,
    command,
  );
}

/** The `--params` listing: one block per parameter (name, type, default, meaning, source). */
export function parametersHelp(specs: readonly ParameterSpec[], quick: boolean): string {
  const lines: string[] = [];
  let policies = false;
  for (const s of specs) {
    if (!policies && s.name.includes(".")) {
      policies = true;
      lines.push(
        "",
        "Options of the experiment's policies (LABEL.key; default: the value the experiment gives):",
      );
    }
    const value = quick && s.quick !== undefined ? s.quick : s.default;
    const shown = value === undefined ? "unset (the scheduler's own)" : paramText(value);
    lines.push(
      hanging(
        `  ${s.name}`,
        `${s.meaning} Default ${shown}${!quick && s.quick !== undefined ? ` (${paramText(s.quick)} with --quick)` : ""}; ${expectedText(s)}. Source: ${s.source}.`,
        28,
      ),
    );
  }
  return lines.join("\n");
}

function param(params: Params, name: string, type: string): ParamValue {
  const value = params[name];
  if (typeof value !== type) {
    // An experiment reads a parameter it did not declare, or under another type: a bug.
    throw new Error(`parameter '${name}' is ${String(value)}, expected a ${type}`);
  }
  return value as ParamValue;
}

/** The number `params[name]` (an experiment reading its own declared parameter). */
export function numberParam(params: Params, name: string): number {
  return param(params, name, "number") as number;
}

/** The boolean `params[name]`. */
export function booleanParam(params: Params, name: string): boolean {
  return param(params, name, "boolean") as boolean;
}

/** The text `params[name]` (a `choice` or `string` parameter). */
export function textParam<T extends string = string>(params: Params, name: string): T {
  return param(params, name, "string") as T;
}
