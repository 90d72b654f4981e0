import { type ParamValue, paramText } from "../experiments/parameters.js";
import { EXPERIMENTS } from "../experiments/registry.js";
import { allParameters, defaultParams } from "../experiments/resolve.js";
import type { SweepPlan } from "./plan.js";

/** One parameter of a registry experiment's plan, as `compare` and `report` show it. */
export interface ParameterRow {
  readonly name: string;
  /** Its value, or its grid values joined by commas. */
  readonly value: string;
  /** Its default (`--quick`'s when the plan is quick); "" for an unset scheduler option. */
  readonly default: string;
  /** Whether the plan's value differs from the default (or the parameter is swept). */
  readonly changed: boolean;
  readonly meaning: string;
  readonly source: string;
}

/**
 * The parameters of `plan` when it runs a registry experiment: every declared one (fixed value or
 * swept values), then the set scheduler options; empty for an experiment file's own workload.
 */
export function planParameterRows(plan: SweepPlan): ParameterRow[] {
  const source = plan.source;
  if (source.kind !== "registry") return [];
  const experiment = EXPERIMENTS.find((e) => e.name === source.experiment);
  if (experiment === undefined) return [];
  const defaults = defaultParams(experiment, source.quick);
  const rows: ParameterRow[] = [];
  for (const spec of allParameters(experiment, source.quick)) {
    const axis = plan.params.indexOf(spec.name);
    const fixed = source.parameters[spec.name];
    if (axis < 0 && fixed === undefined) continue; // an unset scheduler option
    const d = defaults[spec.name];
    const value =
      axis >= 0
        ? plan.points
            .map((p) => p[axis] as ParamValue)
            .filter((v, i, all) => all.indexOf(v) === i)
            .map(paramText)
            .join(",")
        : paramText(fixed as ParamValue);
    rows.push({
      name: spec.name,
      value,
      default: d === undefined ? "" : paramText(d),
      changed: axis >= 0 || d === undefined || fixed !== d,
      meaning: spec.meaning,
      source: spec.source,
    });
  }
  return rows;
}

/**
 * One line saying which readings produced a registry experiment's results: the swept parameters
 * and every value that differs from its default. Empty for an experiment file's own workload.
 */
export function parameterNote(plan: SweepPlan): string {
  const source = plan.source;
  if (source.kind !== "registry") return "";
  const rows = planParameterRows(plan);
  const swept = rows.filter((r) => plan.params.includes(r.name));
  const changed = rows.filter((r) => r.changed && !plan.params.includes(r.name));
  const parts = [
    `parameters of '${source.experiment}'${source.quick ? " (--quick)" : ""}: defaults`,
    changed.length === 0
      ? ""
      : ` except ${changed.map((r) => `${r.name}=${r.value}${r.default === "" ? "" : ` (default ${r.default})`}`).join(", ")}`,
    swept.length === 0 ? "" : `; swept: ${swept.map((r) => `${r.name}=${r.value}`).join("; ")}`,
  ];
  return `${parts.join("")}\n`;
}
