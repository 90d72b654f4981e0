import { fmt, lpText, type SparseValues, sparseValues, term } from "./lp-text.js";
import {
  assignResources,
  configurationsOf,
  countsOf,
  type GroupPlacement,
  groupsOf,
  type JobConfiguration,
  type ResourceGroup,
} from "./oas-configurations.js";
import type { OasAssignment, OasInstance } from "./oas-instance.js";

/** The configuration formulation built for one instance (see {@link buildConfigurationModel}). */
export interface ConfigurationModel {
  readonly lp: string;
  readonly variables: number;
  readonly binaries: number;
  readonly constraints: number;
  readonly groups: readonly ResourceGroup[];
  /** Each job's configurations (its `x_j_c_s` columns use these indices `c`). */
  readonly configurations: readonly (readonly JobConfiguration[])[];
  /** Jobs with no configuration at all (nothing fits `theta`, or every split saturates a link). */
  readonly unplaceable: readonly number[];
}

/** Options of {@link buildConfigurationModel}. */
export interface ConfigurationModelOptions {
  readonly eta: number;
  readonly theta: number;
  /** Constraints (21)-(22): configurations that saturate a link alone are dropped, and per slot the links' demand is bounded. */
  readonly links: boolean;
  readonly maxConfigurations: number;
  readonly where: string;
}

/**
 * The OAS MIP (Fig. 2) in its configuration form, a time-indexed formulation on classes of
 * interchangeable resources ({@link resourceGroups}: same cluster and speed). Binary
 * `x_j_c_s` = job j runs in configuration c (tasks per group) from slot s (0-based) for its
 * `p_jc` slots; integer `cmax` (the objective, eq. 9). Rows:
 * - `one_j`: sum x_j = 1 (eq. 12, 15, 16: every job placed once, all its tasks);
 * - `fin_j`: cmax >= sum (s + p_jc) x_j_c_s (eq. 9, 17, 19);
 * - `cap_g_t`: the tasks of group g running in slot t <= its size (eq. 10, 11, 13, 14: every
 *   task of a job runs in the same contiguous slots);
 * - `bw_l_t`: the eq.-4 demand on link l in slot t <= its bandwidth (eq. 21-22);
 * - `en_g`: size_g * cmax >= sum c_g * p_jc * x (each group's work fits before cmax; valid).
 * Every schedule of the resource form maps to one of this form with the same makespan (count the
 * resources per group), and back ({@link assignResources}): the optima are equal
 * (README, Interpretation; tested against the resource form and brute force).
 *
 * Complexity: O(J * C * theta) columns (C configurations per job) and O((G + L) * theta) rows.
 */
export function buildConfigurationModel(
  inst: OasInstance,
  options: ConfigurationModelOptions,
): ConfigurationModel {
  const { eta, theta: T, links } = options;
  const J = inst.jobs.length;
  const groups = groupsOf(inst);
  const G = groups.length;
  const platform = inst.platform;
  const L = platform.links.length;
  let scale = 1;
  for (const l of platform.links) scale = Math.max(scale, l.bandwidth);
  const configurations = inst.jobs.map((_, j) =>
    configurationsOf(inst, groups, j, {
      eta,
      theta: T,
      links,
      maxConfigurations: options.maxConfigurations,
      where: options.where,
    }),
  );
  const rows: string[] = [];
  const binaries: string[] = [];
  const cap: string[] = Array.from({ length: G * T }, () => "");
  const bw: string[] = Array.from({ length: L * T }, () => "");
  const energy: string[] = Array.from({ length: G }, () => "");

  const unplaceable: number[] = [];
  let lower = 0;
  for (let j = 0; j < J; j++) {
    const configs = configurations[j]!;
    if (configs.length === 0) {
      unplaceable.push(j);
      rows.push(` none_${j}: cmax >= ${T + 1}`);
      continue;
    }
    let one = "";
    let fin = " cmax";
    let shortest = Number.POSITIVE_INFINITY;
    configs.forEach((c, ci) => {
      const p = c.slots;
      shortest = Math.min(shortest, p);
      for (let s = 0; s + p <= T; s++) {
        const x = `x_${j}_${ci}_${s}`;
        binaries.push(x);
        one += ` + ${x}`;
        fin += term(-(s + p), x);
        for (let t = s; t < s + p; t++) {
          for (let g = 0; g < G; g++) cap[g * T + t] += term(c.counts[g]!, x);
          if (links) {
            for (let l = 0; l < L; l++) bw[l * T + t] += term(c.demand[l]! / scale, x);
          }
        }
        for (let g = 0; g < G; g++) energy[g] += term(-c.counts[g]! * p, x);
      }
    });
    lower = Math.max(lower, shortest);
    rows.push(` one_${j}:${one} = 1`);
    rows.push(` fin_${j}:${fin} >= 0`);
  }
  for (let g = 0; g < G; g++) {
    for (let t = 0; t < T; t++) {
      const body = cap[g * T + t]!;
      if (body !== "") rows.push(` cap_${g}_${t}:${body} <= ${groups[g]!.resources.length}`);
    }
  }
  for (let l = 0; l < L; l++) {
    for (let t = 0; t < T; t++) {
      const body = bw[l * T + t]!;
      if (body !== "")
        rows.push(` bw_${l}_${t}:${body} <= ${fmt(platform.links[l]!.bandwidth / scale)}`);
    }
  }
  for (let g = 0; g < G; g++) {
    if (energy[g] !== "")
      rows.push(` en_${g}: ${groups[g]!.resources.length} cmax${energy[g]} >= 0`);
  }
  const lp = lpText({
    rows,
    bounds: [` ${Math.min(lower, T)} <= cmax <= ${T}`],
    binaries,
    generals: [],
  });
  return {
    lp,
    variables: binaries.length + 1,
    binaries: binaries.length,
    constraints: rows.length,
    groups,
    configurations,
    unplaceable,
  };
}

/**
 * The columns of a feasible slotted schedule (one assignment per job, in job order) in the
 * configuration form: every `x` of every job (1 for its configuration and start, 0 otherwise)
 * and `cmax`. A job whose allocation or slot count matches no configuration gets no 1 (the
 * solver then ignores or repairs the start).
 */
export function configurationStartValues(
  inst: OasInstance,
  model: ConfigurationModel,
  theta: number,
  schedule: readonly OasAssignment[],
  colIndex: ReadonlyMap<string, number>,
): SparseValues {
  const pairs: [string, number][] = [];
  let cmax = 0;
  schedule.forEach((a, j) => {
    const counts = countsOf(inst, model.groups, a.allocation);
    const configs = model.configurations[j] ?? [];
    configs.forEach((c, ci) => {
      const same = c.slots === a.slots && c.counts.every((n, g) => n === counts[g]);
      for (let s = 0; s + c.slots <= theta; s++) {
        pairs.push([`x_${j}_${ci}_${s}`, same && s === a.startSlot ? 1 : 0]);
      }
    });
    cmax = Math.max(cmax, a.startSlot + a.slots);
  });
  pairs.push(["cmax", cmax]);
  return sparseValues(colIndex, pairs);
}

/**
 * The schedule of a solution of the configuration form: each job's configuration and start slot
 * (its `x` at 1), on concrete resources by {@link assignResources}. `null` when a job has no
 * column at 1 or the resources run out (not a valid solution).
 */
export function readConfigurationSchedule(
  inst: OasInstance,
  model: ConfigurationModel,
  theta: number,
  value: (name: string) => number,
): OasAssignment[] | null {
  const placements: GroupPlacement[] = [];
  for (let j = 0; j < inst.jobs.length; j++) {
    let found: GroupPlacement | null = null;
    (model.configurations[j] ?? []).forEach((c, ci) => {
      for (let s = 0; s + c.slots <= theta && found === null; s++) {
        if (value(`x_${j}_${ci}_${s}`) > 0.5) {
          found = { counts: c.counts, startSlot: s, slots: c.slots };
        }
      }
    });
    if (found === null) return null;
    placements.push(found);
  }
  const out = assignResources(inst, model.groups, placements);
  return out.some((a) => a === null) ? null : (out as OasAssignment[]);
}
