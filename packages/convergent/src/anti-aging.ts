import { optionKeys, requireKnownKeys } from "@sched/errors";
import {
  applyRows,
  type Heuristic,
  type HeuristicContext,
  type RowHeuristic,
  type RowKernel,
} from "./heuristic.js";
import { weightOption } from "./option-checks.js";

/** Options of {@link antiAgingHeuristic}. */
export interface AntiAgingOptions {
  /**
   * `AA`: the heuristic's weight, per second of age.
   * @defaultValue `0.02`
   */
  readonly weight?: number;
}

/** The keys of {@link AntiAgingOptions}, all of them (checked by the compiler). Internal. */
export const ANTI_AGING_KEYS = optionKeys<AntiAgingOptions>({
  weight: true,
});

/**
 * The Anti-aging heuristic: jobs that have been in the system long get a boost:
 * `Δp_{i,m} = AA * (Wallclock - Submit_i)` on every eligible machine of `i`.
 *
 * Complexity: O(|N| x |M|).
 *
 * @example
 * ```ts
 * antiAgingHeuristic().apply(ctx, p); // a job submitted 100 s ago gets +2 on each eligible machine
 * ```
 */
export function antiAgingHeuristic(options: AntiAgingOptions = {}): Heuristic {
  requireKnownKeys("@sched/convergent/antiAgingHeuristic", "options", options, ANTI_AGING_KEYS);
  const weight = weightOption(
    "@sched/convergent/antiAgingHeuristic",
    "options.weight",
    options.weight,
    0.02,
  );
  const h: RowHeuristic = {
    name: "anti-aging",
    uniformRate: weight,
    apply(ctx: HeuristicContext, p: Float64Array): void {
      applyRows(ctx, p, h.rows(ctx));
    },
    rows(ctx: HeuristicContext): RowKernel {
      const { cols, eligible, now } = ctx;
      return (i, out, offset) => {
        const delta = weight * (now - ctx.jobs[i]!.job.submit);
        if (delta === 0) return;
        const b = i * cols;
        for (let m = 0; m < cols; m++) if (eligible[b + m] === 1) out[offset + m]! += delta;
      };
    },
  };
  // frozen: `apply` runs `h.rows`, which a caller must not replace
  return Object.freeze(h);
}
