import { fitsMachine, type Job, type Platform } from "@sched/core";
import { optionKeys, requireKnownKeys } from "@sched/errors";
import { firstAtLeast } from "./first-at-least.js";
import {
  applyRows,
  type Heuristic,
  type HeuristicContext,
  type RowHeuristic,
  type RowKernel,
} from "./heuristic.js";
import { KNOWN_ELIGIBLE } from "./matrix-checks.js";
import { finiteOption } from "./option-checks.js";

/**
 * The paper's `M_Aff_i` is `@sched/core`'s eligibility: `meetsRequirements(job, platform, m)` is
 * `fitsMachine` (the machine has `job.cores` cores, and every license the job asks for can be
 * served there: floating usable on `m` with enough copies in total, node-locked with enough
 * copies on `m`; a license the platform lacks never), and `eligibleMachines(job, platform)` lists
 * those machines, ascending. Re-exported here under the names this package's README documents.
 */
export { eligibleMachines, fitsMachine as meetsRequirements } from "@sched/core";

/** Options of {@link minimalRequirementsHeuristic}. */
export interface MinimalRequirementsOptions {
  /**
   * Value every eligible entry starts from (ineligible entries stay 0, i.e. cleared). Any
   * positive constant: it marks eligibility and does not change the matching's choice among
   * matchings of equal size.
   * @defaultValue `1`
   */
  readonly base?: number;
}

/** The keys of {@link MinimalRequirementsOptions}, all of them (checked by the compiler). Internal. */
export const MINIMAL_KEYS = optionKeys<MinimalRequirementsOptions>({
  base: true,
});

/**
 * The Minimal requirements heuristic: fixes the job-machine associations. Adds `base` to every
 * entry `(i, m)` with `m ∈ M_Aff_i` (the context's `eligible` mask, built with
 * {@link meetsRequirements}); the others stay cleared.
 *
 * Complexity: O(|N| x |M|).
 *
 * @example
 * ```ts
 * minimalRequirementsHeuristic().apply(ctx, p); // p[i * cols + m] += 1 where eligible
 * ```
 */
export function minimalRequirementsHeuristic(options: MinimalRequirementsOptions = {}): Heuristic {
  requireKnownKeys(
    "@sched/convergent/minimalRequirementsHeuristic",
    "options",
    options,
    MINIMAL_KEYS,
  );
  const base = finiteOption(
    "@sched/convergent/minimalRequirementsHeuristic",
    "options.base",
    options.base,
    1,
    true,
  );
  const h: RowHeuristic = {
    name: "minimal-requirements",
    apply(ctx: HeuristicContext, p: Float64Array): void {
      applyRows(ctx, p, h.rows(ctx));
    },
    rows(ctx: HeuristicContext): RowKernel {
      const { cols, eligible: e } = ctx;
      return (i, out, offset) => {
        const b = i * cols;
        for (let m = 0; m < cols; m++) if (e[b + m] === 1) out[offset + m]! += base;
      };
    },
  };
  // frozen: `apply` runs `h.rows`, which a caller must not replace
  return Object.freeze(h);
}

/**
 * Per platform: its distinct machine core counts, ascending (the classes of {@link coreClass}),
 * and the eligibility rows of jobs without licenses, by class.
 */
const CLASSES = new WeakMap<
  Platform,
  { readonly capacities: Float64Array; readonly rows: (Uint8Array | undefined)[] }
>();

function classesOf(platform: Platform) {
  let c = CLASSES.get(platform);
  if (c === undefined) {
    const capacities = Float64Array.from(new Set(platform.machines.map((m) => m.cores))).sort();
    c = { capacities, rows: [] };
    CLASSES.set(platform, c);
  }
  return c;
}

/**
 * The class of `cores` on `platform`: the place `q` of the first of the platform's distinct
 * machine core counts, ascending, that is at least `cores` (their number when none is). Two
 * jobs without licenses whose cores fall in one class (`c_{q-1} < cores <= c_q`, or above every
 * count) have the same eligibility row: the machines with `c_q` cores or more. Internal.
 */
export function coreClass(platform: Platform, cores: number): number {
  return firstAtLeast(classesOf(platform).capacities, cores);
}

/**
 * The eligibility row of `job` (1 where it meets the minimal requirements), registered in
 * `KNOWN_ELIGIBLE` (matrix-checks.ts), and never written: a job without licenses gets the row
 * of its class of cores ({@link coreClass}), made once per platform and shared (131,072
 * one-core machines: two rows for every job of a trace, instead of one `fitsMachine` per job
 * and machine). `fitsMachine` is still asked about the job once, which checks it as the first
 * question of the loop did (the same error for a job it refuses). Internal.
 */
export function eligibilityRow(job: Job, platform: Platform): Uint8Array {
  const machines = platform.machines;
  if (job.licenses !== undefined || machines.length === 0) return licensedRow(job, platform);
  fitsMachine(job, platform, 0);
  const classes = classesOf(platform);
  const q = firstAtLeast(classes.capacities, job.cores);
  const shared = classes.rows[q];
  if (shared !== undefined) return shared;
  // what `fitsMachine` answers for a job without licenses: the machine has its cores
  const cores = job.cores;
  const e = new Uint8Array(machines.length);
  let count = 0;
  for (let m = 0; m < e.length; m++) {
    if (machines[m]!.cores >= cores) {
      e[m] = 1;
      count++;
    }
  }
  KNOWN_ELIGIBLE.set(e, count);
  classes.rows[q] = e;
  return e;
}

/** {@link eligibilityRow} machine by machine (`fitsMachine`), not shared. */
function licensedRow(job: Job, platform: Platform): Uint8Array {
  const e = new Uint8Array(platform.machines.length);
  let count = 0;
  for (let m = 0; m < e.length; m++) {
    if (fitsMachine(job, platform, m)) {
      e[m] = 1;
      count++;
    }
  }
  KNOWN_ELIGIBLE.set(e, count);
  return e;
}
