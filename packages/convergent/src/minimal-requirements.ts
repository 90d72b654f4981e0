import type { Job, Platform } from "@sched/core";
import {
  applyRows,
  type Heuristic,
  type HeuristicContext,
  type RowHeuristic,
  type RowKernel,
} from "./heuristic.js";

/**
 * Whether machine `m` meets job `job`'s minimal requirements (the paper's `M_Aff_i`): the
 * machine has at least `job.cores` cores (jobs run on one machine), and for every license the
 * job asks for, the license is usable on `m` with enough copies: a floating license must list
 * `m` (or be usable everywhere) and have at least the requested copies in total; a node-locked
 * license must be installed on `m` with at least the requested copies there. A license the
 * platform does not have makes the machine ineligible. Static: copies currently in use are the
 * pre-matching's business.
 *
 * Complexity: O(licenses requested x licenses of the platform).
 *
 * @example
 * ```ts
 * meetsRequirements({ ...job, cores: 4 }, platform, 0); // false when machine 0 has 2 cores
 * ```
 */
export function meetsRequirements(job: Job, platform: Platform, m: number): boolean {
  const machine = platform.machines[m];
  if (machine === undefined || machine.cores < job.cores) return false;
  const req = job.licenses;
  if (req === undefined) return true;
  const index = licenseIndex(platform);
  for (const name in req) {
    const want = req[name] as number;
    if (!(want > 0)) continue;
    const lic = index.get(name);
    if (lic === undefined || lic.copies < want) return false;
    if (lic.usable !== null && lic.usable[m] !== 1) return false;
  }
  return true;
}

interface IndexedLicense {
  readonly copies: number;
  /** 1 on the machines where the license is usable; `null` for every machine. */
  readonly usable: Uint8Array | null;
}

const indexes = new WeakMap<Platform, Map<string, IndexedLicense>>();

/** The platform's licenses by name with a machine mask, built once per platform. */
function licenseIndex(platform: Platform): Map<string, IndexedLicense> {
  let index = indexes.get(platform);
  if (index === undefined) {
    index = new Map();
    for (const l of platform.licenses) {
      let usable: Uint8Array | null = null;
      if (l.machines !== undefined) {
        usable = new Uint8Array(platform.machines.length);
        for (const m of l.machines) usable[m] = 1;
      }
      index.set(l.name, { copies: l.copies, usable });
    }
    indexes.set(platform, index);
  }
  return index;
}

/**
 * The eligible machines of `job` (`M_Aff_i`), ascending.
 *
 * Complexity: O(machines x licenses requested x licenses).
 *
 * @example
 * ```ts
 * eligibleMachines(job, platform); // [0, 2, 5]
 * ```
 */
export function eligibleMachines(job: Job, platform: Platform): number[] {
  const out: number[] = [];
  for (let m = 0; m < platform.machines.length; m++)
    if (meetsRequirements(job, platform, m)) out.push(m);
  return out;
}

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
  const base = options.base ?? 1;
  const h: RowHeuristic = {
    name: "minimal-requirements",
    apply(ctx: HeuristicContext, p: Float64Array): void {
      applyRows(ctx, p, h.rows(ctx));
    },
    rows(ctx: HeuristicContext): RowKernel {
      const { cols, eligible: e } = ctx;
      return (i, out, offset) => {
        const b = i * cols;
        for (let m = 0; m < cols; m++) if (e[b + m] === 1) out[offset + m] += base;
      };
    },
  };
  return h;
}
