import type { Heuristic, HeuristicContext } from "./heuristic.js";
import { remainingTime } from "./heuristic.js";

/** Options of {@link waitMinimizationHeuristic}. */
export interface WaitMinimizationOptions {
  /**
   * `WM`: the heuristic's weight.
   * @defaultValue `4`
   */
  readonly weight?: number;
}

/**
 * The Wait minimization heuristic: advances the jobs that will end soonest:
 * `Δp_{i,m} = WM * (1 - Remaining_{i,m} / SupRemaining)` with
 * `Remaining_{i,m} = Estimated_i (1 - Progress_i) BM_ref / BM_m` and `SupRemaining` the largest
 * `Remaining_{i,m}` over all eligible pairs of the matrix (`WM` everywhere when it is 0).
 *
 * Complexity: O(|N| x |M|).
 *
 * @example
 * ```ts
 * waitMinimizationHeuristic().apply(ctx, p);
 * ```
 */
export function waitMinimizationHeuristic(options: WaitMinimizationOptions = {}): Heuristic {
  const weight = options.weight ?? 4;
  return {
    name: "wait-minimization",
    apply(ctx: HeuristicContext, p: Float64Array): void {
      const { cols, eligible } = ctx;
      const r = new Float64Array(ctx.jobs.length * cols);
      let sup = 0;
      for (let i = 0; i < ctx.jobs.length; i++) {
        for (let m = 0; m < cols; m++) {
          const k = i * cols + m;
          if (eligible[k] !== 1) continue;
          r[k] = remainingTime(ctx.jobs[i], ctx.platform, m);
          if (r[k] > sup) sup = r[k];
        }
      }
      for (let k = 0; k < r.length; k++) {
        if (eligible[k] !== 1) continue;
        p[k] += sup > 0 ? weight * (1 - r[k] / sup) : weight;
      }
    },
  };
}
