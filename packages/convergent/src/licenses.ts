import { InvalidInputError, type Platform, validatePlatform } from "@sched/core";
import {
  describeValue,
  optionKeys,
  requireArray,
  requireInteger,
  requireKnownKeys,
  requireObject,
} from "@sched/errors";
import {
  applyRows,
  type Heuristic,
  type HeuristicContext,
  type MatrixJob,
  type RowHeuristic,
  type RowKernel,
} from "./heuristic.js";
import { checkRow } from "./matrix-checks.js";
import { weightOption } from "./option-checks.js";

/**
 * Copies of each license that can be active at once on the platform (the paper's `a_l`): a
 * floating license's `copies`; a node-locked license's `copies` times the machines it is
 * installed on.
 *
 * Complexity: O(licenses).
 *
 * @example
 * ```ts
 * licenseOffer(platform); // { cad: 3, fem: 8 }
 * ```
 */
export function licenseOffer(platform: Platform): Record<string, number> {
  validatePlatform(platform, "@sched/convergent/licenseOffer");
  return offerOf(platform);
}

/** {@link licenseOffer} without its check. Internal. */
function offerOf(platform: Platform): Record<string, number> {
  const out: Record<string, number> = {};
  for (const l of platform.licenses)
    out[l.name] = l.kind === "floating" ? l.copies : l.copies * (l.machines?.length ?? 0);
  return out;
}

/**
 * `ρ_l = Σ_i s_{i,l} / a_l` over the jobs in the system, for each license of the platform, with
 * `s_{i,l}` the copies of `l` job `i` asks for (1 each in the paper's setting) and `a_l` from
 * {@link licenseOffer}. `Infinity` when a license with no copies is asked for, 0 when not asked.
 *
 * Complexity: O(|N| x licenses requested + |L|).
 *
 * @example
 * ```ts
 * licenseRho(jobs, platform); // { cad: 1.5, fem: 0.25 }: cad is critical
 * ```
 */
export function licenseRho(jobs: readonly MatrixJob[], platform: Platform): Record<string, number> {
  const where = "@sched/convergent/licenseRho";
  validatePlatform(platform, where);
  const rows = requireArray(where, "jobs", jobs);
  for (let i = 0; i < rows.length; i++)
    checkRow(where, `jobs[${i}]`, rows[i], platform.machines.length);
  return rhoOf(jobs, platform);
}

/**
 * {@link licenseRho} without its checks. Internal: the licenses heuristic's once-per-plan step,
 * on the planner's rows.
 */
function rhoOf(jobs: readonly MatrixJob[], platform: Platform): Record<string, number> {
  const offer = offerOf(platform);
  const demand: Record<string, number> = {};
  for (const l of platform.licenses) demand[l.name] = 0;
  for (const row of jobs) {
    const req = row.job.licenses;
    if (req === undefined) continue;
    for (const name of sortedNames(req)) {
      if (!(name in demand)) continue;
      demand[name]! += req[name] as number;
    }
  }
  const rho: Record<string, number> = {};
  for (const l of platform.licenses) {
    const d = demand[l.name] as number;
    const a = offer[l.name] as number;
    rho[l.name] = d === 0 ? 0 : a === 0 ? Number.POSITIVE_INFINITY : d / a;
  }
  return rho;
}

/** The two parts of a job's license weight (see {@link licenseWeight}). */
export interface LicenseWeight {
  /** `w1(i) = Σ_{l ∈ L_c} s_{i,l} ρ_l`: critical licenses. */
  readonly critical: number;
  /** `w2(i) = Σ_{l ∈ L_nc} s_{i,l} ρ_l`: non-critical licenses. */
  readonly nonCritical: number;
  /** `w(i) = |L| * w1(i) + w2(i)`. */
  readonly w: number;
}

/**
 * A job's license weight: `w(i) = |L| Σ_{l ∈ L_c} s_{i,l} ρ_l + Σ_{l ∈ L_nc} s_{i,l} ρ_l`,
 * where `L_c` = licenses with `ρ_l > 1`, `|L|` the number of licenses of the platform, and
 * `s_{i,l}` the copies asked for. Licenses with an infinite `ρ` (no copy anywhere) are skipped:
 * a job asking for one can run nowhere.
 *
 * Complexity: O(licenses requested).
 *
 * @example
 * ```ts
 * // 3 licenses, rho { cad: 2, fem: 0.5 }, job asks for both
 * licenseWeight({ cad: 1, fem: 1 }, rho, 3); // { critical: 2, nonCritical: 0.5, w: 6.5 }
 * ```
 */
export function licenseWeight(
  licenses: Readonly<Record<string, number>> | undefined,
  rho: Readonly<Record<string, number>>,
  licenseCount: number,
): LicenseWeight {
  const where = "@sched/convergent/licenseWeight";
  if (licenses !== undefined) {
    requireObject(where, "licenses", licenses);
    for (const [name, n] of Object.entries(licenses))
      requireInteger(where, `licenses[${JSON.stringify(name)}]`, n, 1);
  }
  requireObject(where, "rho", rho);
  for (const [name, r] of Object.entries(rho)) {
    if (typeof r !== "number" || !(r >= 0))
      throw new InvalidInputError(
        where,
        `rho[${JSON.stringify(name)}]`,
        `is ${describeValue(r)}, expected a number >= 0 (or Infinity)`,
      );
  }
  requireInteger(where, "licenseCount", licenseCount, 0);
  let critical = 0;
  let nonCritical = 0;
  if (licenses !== undefined) {
    for (const name of Object.keys(licenses).sort()) {
      const r = rho[name];
      if (r === undefined || !Number.isFinite(r)) continue;
      const s = licenses[name] as number;
      if (r > 1) critical += s * r;
      else nonCritical += s * r;
    }
  }
  return { critical, nonCritical, w: licenseCount * critical + nonCritical };
}

/**
 * The paper's order on jobs by license weight: `a < b` iff `w1(a) < w1(b)`, or `w1` ties and
 * `w2(a) < w2(b)` (critical licenses first, then the others). A comparator usable with
 * `Array.prototype.sort` (ascending).
 *
 * @example
 * ```ts
 * compareLicenseWeight({ critical: 1, nonCritical: 9, w: 12 }, { critical: 2, nonCritical: 0, w: 6 }); // < 0
 * ```
 */
export function compareLicenseWeight(a: LicenseWeight, b: LicenseWeight): number {
  const where = "@sched/convergent/compareLicenseWeight";
  for (const [field, w] of [
    ["a", a],
    ["b", b],
  ] as const) {
    requireObject(where, field, w);
    for (const key of ["critical", "nonCritical"] as const) {
      if (typeof w[key] !== "number" || Number.isNaN(w[key]))
        throw new InvalidInputError(
          where,
          `${field}.${key}`,
          `is ${describeValue(w[key])}, expected a number`,
        );
    }
  }
  if (a.critical !== b.critical) return a.critical < b.critical ? -1 : 1;
  if (a.nonCritical !== b.nonCritical) return a.nonCritical < b.nonCritical ? -1 : 1;
  return 0;
}

/** Options of {@link licensesHeuristic}. */
export interface LicensesOptions {
  /**
   * `LI`: the heuristic's weight.
   * @defaultValue `2.5`
   */
  readonly weight?: number;
}

/** The keys of {@link LicensesOptions}, all of them (checked by the compiler). Internal. */
export const LICENSES_KEYS = optionKeys<LicensesOptions>({
  weight: true,
});

/**
 * The Licenses heuristic: favours jobs that use many (critical) licenses, so that they run and
 * release them: `Δp_{i,m} = LI * w(i) / max_j w(j)` on every eligible machine of `i` (0 when no
 * job asks for a license).
 *
 * Complexity: O(|N| x |M| + total license requests).
 *
 * @example
 * ```ts
 * licensesHeuristic({ weight: 5 }).apply(ctx, p);
 * ```
 */
export function licensesHeuristic(options: LicensesOptions = {}): Heuristic {
  requireKnownKeys("@sched/convergent/licensesHeuristic", "options", options, LICENSES_KEYS);
  const weight = weightOption(
    "@sched/convergent/licensesHeuristic",
    "options.weight",
    options.weight,
    2.5,
  );
  const h: RowHeuristic = {
    name: "licenses",
    apply(ctx: HeuristicContext, p: Float64Array): void {
      applyRows(ctx, p, h.rows(ctx));
    },
    rows(ctx: HeuristicContext): RowKernel {
      const rho = rhoOf(ctx.jobs, ctx.platform);
      const count = ctx.platform.licenses.length;
      const w = new Float64Array(ctx.jobs.length);
      let maxW = 0;
      for (let i = 0; i < ctx.jobs.length; i++) {
        // licenseWeight(...).w without its allocations (same operations, same order).
        const licenses = ctx.jobs[i]!.job.licenses;
        if (licenses === undefined) continue;
        let critical = 0;
        let nonCritical = 0;
        for (const name of sortedNames(licenses)) {
          const r = rho[name];
          if (r === undefined || !Number.isFinite(r)) continue;
          const s = licenses[name] as number;
          if (r > 1) critical += s * r;
          else nonCritical += s * r;
        }
        w[i] = count * critical + nonCritical;
        if (w[i]! > maxW) maxW = w[i]!;
      }
      const { cols, eligible } = ctx;
      return (i, out, offset) => {
        if (maxW <= 0 || w[i] === 0) return;
        const delta = (weight * w[i]!) / maxW;
        const base = i * cols;
        for (let m = 0; m < cols; m++) if (eligible[base + m] === 1) out[offset + m]! += delta;
      };
    },
  };
  // frozen: `apply` runs `h.rows`, which a caller must not replace
  return Object.freeze(h);
}

const sortedNameCache = new WeakMap<object, readonly string[]>();

/** `Object.keys(licenses).sort()`, computed once per (immutable) license map. */
function sortedNames(licenses: Readonly<Record<string, number>>): readonly string[] {
  let names = sortedNameCache.get(licenses);
  if (names === undefined) {
    names = Object.keys(licenses).sort();
    sortedNameCache.set(licenses, names);
  }
  return names;
}
