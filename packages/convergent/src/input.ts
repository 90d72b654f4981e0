import type { Job, Platform } from "@sched/core";
import { optionKeys, requireKnownKeys, requireObject } from "@sched/errors";
import {
  applyRows,
  type Heuristic,
  type HeuristicContext,
  type RowHeuristic,
  type RowKernel,
} from "./heuristic.js";
import { checkJobOfRow, checkMachineIndex } from "./matrix-checks.js";
import { finiteOption, weightOption } from "./option-checks.js";

/** Options of {@link inputHeuristic} and {@link transferTime}. */
export interface InputOptions {
  /**
   * `IN`: the heuristic's weight.
   * @defaultValue `3`
   */
  readonly weight?: number;
  /**
   * Bandwidth (bytes/s) of a cluster without an uplink. Only ratios of transfer times matter,
   * so on a platform without links any positive value gives the same update values.
   * @defaultValue `1`
   */
  readonly defaultBandwidth?: number;
}

/** The keys of {@link InputOptions}, all of them (checked by the compiler). Internal. */
export const INPUT_KEYS = optionKeys<InputOptions>({
  weight: true,
  defaultBandwidth: true,
});

/**
 * Bandwidth between machines `a` and `b` (`b_{m̄,m}`): the smaller of the uplink bandwidths of
 * their clusters (one uplink when they share a cluster); `Infinity` when `a === b`.
 *
 * Complexity: O(1).
 *
 * @example
 * ```ts
 * bandwidth(platform, 0, 5); // min(links[clusterOf(0)].bandwidth, links[clusterOf(5)].bandwidth)
 * ```
 */
export function bandwidth(platform: Platform, a: number, b: number, defaultBandwidth = 1): number {
  const where = "@sched/convergent/bandwidth";
  checkMachineIndex(where, "a", platform, a);
  checkMachineIndex(where, "b", platform, b);
  finiteOption(where, "defaultBandwidth", defaultBandwidth, 1, true);
  return bandwidthOf(platform, a, b, defaultBandwidth);
}

/** {@link bandwidth} without its checks. Internal. */
function bandwidthOf(platform: Platform, a: number, b: number, defaultBandwidth: number): number {
  if (a === b) return Number.POSITIVE_INFINITY;
  return Math.min(uplink(platform, a, defaultBandwidth), uplink(platform, b, defaultBandwidth));
}

/** Bandwidth of the uplink of machine `m`'s cluster, or `fallback` when it has none. */
function uplink(platform: Platform, m: number, fallback: number): number {
  const cluster = platform.clusters[platform.machines[m]!.cluster];
  const link = cluster?.link === undefined ? undefined : platform.links[cluster.link];
  return link === undefined ? fallback : link.bandwidth;
}

/**
 * `Transf_i(m) = Σ_{inputs on m̄ ≠ m} Input_{i,m̄} / b_{m̄,m}`: seconds to bring job `job`'s input
 * data to machine `m`.
 *
 * Complexity: O(inputs of the job).
 *
 * @example
 * ```ts
 * // 100 bytes on machine 1, no links (bandwidth 1)
 * transferTime({ ...job, input: [{ size: 100, machine: 1 }] }, platform, 0); // 100
 * transferTime({ ...job, input: [{ size: 100, machine: 1 }] }, platform, 1); // 0
 * ```
 */
export function transferTime(
  job: Job,
  platform: Platform,
  m: number,
  options: InputOptions = {},
): number {
  const where = "@sched/convergent/transferTime";
  requireObject(where, "options", options);
  requireKnownKeys(where, "options", options, INPUT_KEYS);
  checkMachineIndex(where, "m", platform, m);
  checkJobOfRow(where, "job", job, platform.machines.length);
  const fallback = finiteOption(
    where,
    "options.defaultBandwidth",
    options.defaultBandwidth,
    1,
    true,
  );
  if (options.weight !== undefined) weightOption(where, "options.weight", options.weight, 3);
  const input = job.input;
  if (input === undefined) return 0;
  let t = 0;
  for (const d of input) {
    if (d.machine === m) continue;
    t += d.size / bandwidthOf(platform, d.machine, m, fallback);
  }
  return t;
}

/**
 * The Input heuristic: prefers the machines the job's input data reaches fastest:
 * `Δp_{i,m} = IN * (1 - Transf_i(m) / Σ_{m' ∈ M_Aff_i} Transf_i(m'))`; `IN` on every eligible
 * machine when no transfer is needed anywhere (no input, or all of it everywhere).
 *
 * Complexity: O(|N| x |M| x inputs per job).
 *
 * @example
 * ```ts
 * inputHeuristic({ weight: 6 }).apply(ctx, p);
 * ```
 */
export function inputHeuristic(options: InputOptions = {}): Heuristic {
  requireKnownKeys("@sched/convergent/inputHeuristic", "options", options, INPUT_KEYS);
  const where = "@sched/convergent/inputHeuristic";
  const weight = weightOption(where, "options.weight", options.weight, 3);
  const fallback = finiteOption(
    where,
    "options.defaultBandwidth",
    options.defaultBandwidth,
    1,
    true,
  );
  // The update of a row depends only on the job (its input), the platform and the job's
  // eligible machines, none of which change between plans: each job's row of updates is
  // computed once and reused while the job stays in the system (same platform, same
  // eligibility row; checked at every use).
  const uplinks = new WeakMap<Platform, Float64Array>();
  const cache = new WeakMap<Job, CachedInputRow>();
  const h: RowHeuristic = {
    name: "input",
    apply(ctx: HeuristicContext, p: Float64Array): void {
      applyRows(ctx, p, h.rows(ctx));
    },
    rows(ctx: HeuristicContext): RowKernel {
      const { cols, eligible, platform } = ctx;
      // Uplink bandwidth of each machine's cluster (bandwidth() without the lookups).
      let up = uplinks.get(platform);
      if (up === undefined) {
        up = new Float64Array(cols);
        for (let m = 0; m < cols; m++) up[m] = uplink(platform, m, fallback);
        uplinks.set(platform, up);
      }
      const ups = up;
      const t = new Float64Array(cols);
      return (i, out, offset) => {
        const job = ctx.jobs[i]!.job;
        const base = i * cols;
        let row = cache.get(job);
        if (
          row === undefined ||
          row.platform !== platform ||
          !sameMask(row.eligible, eligible, base)
        ) {
          row = {
            platform,
            eligible: eligible.slice(base, base + cols),
            delta: inputRow(job.input, eligible, base, cols, ups, weight, t),
          };
          cache.set(job, row);
        }
        // delta is 0 on ineligible machines (cleared by buildMatrix anyway)
        const delta = row.delta;
        for (let m = 0; m < cols; m++) out[offset + m]! += delta[m] as number;
      };
    },
  };
  // frozen: `apply` runs `h.rows`, which a caller must not replace
  return Object.freeze(h);
}

interface CachedInputRow {
  readonly platform: Platform;
  readonly eligible: Uint8Array;
  readonly delta: Float64Array;
}

function sameMask(a: Uint8Array, eligible: Uint8Array, base: number): boolean {
  for (let m = 0; m < a.length; m++) if (a[m] !== eligible[base + m]) return false;
  return true;
}

/** One row of the Input heuristic's updates (0 on ineligible machines). */
function inputRow(
  input: Job["input"],
  eligible: Uint8Array,
  base: number,
  cols: number,
  up: Float64Array,
  weight: number,
  t: Float64Array,
): Float64Array {
  let sum = 0;
  for (let m = 0; m < cols; m++) {
    if (eligible[base + m] !== 1) continue;
    let x = 0;
    if (input !== undefined) {
      for (const d of input) {
        if (d.machine !== m) x += d.size / Math.min(up[d.machine] as number, up[m] as number);
      }
    }
    t[m] = x;
    sum += x;
  }
  const out = new Float64Array(cols);
  for (let m = 0; m < cols; m++) {
    if (eligible[base + m] !== 1) continue;
    out[m] = sum > 0 ? weight * (1 - (t[m] as number) / sum) : weight;
  }
  return out;
}
