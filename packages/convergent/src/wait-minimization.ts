import { optionKeys, requireKnownKeys } from "@sched/errors";
import {
  applyRows,
  type Heuristic,
  type HeuristicContext,
  type RowHeuristic,
  type RowKernel,
  sharedMachineSpeeds,
  sharedRemainingWork,
} from "./heuristic.js";
import { weightOption } from "./option-checks.js";

/** Options of {@link waitMinimizationHeuristic}. */
export interface WaitMinimizationOptions {
  /**
   * `WM`: the heuristic's weight.
   * @defaultValue `4`
   */
  readonly weight?: number;
}

/** The keys of {@link WaitMinimizationOptions}, all of them (checked by the compiler). Internal. */
export const WAIT_KEYS = optionKeys<WaitMinimizationOptions>({
  weight: true,
});

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
  requireKnownKeys("@sched/convergent/waitMinimizationHeuristic", "options", options, WAIT_KEYS);
  const weight = weightOption(
    "@sched/convergent/waitMinimizationHeuristic",
    "options.weight",
    options.weight,
    4,
  );
  const h: RowHeuristic = {
    name: "wait-minimization",
    apply(ctx: HeuristicContext, p: Float64Array): void {
      applyRows(ctx, p, h.rows(ctx));
    },
    rows(ctx: HeuristicContext): RowKernel {
      const { cols, eligible } = ctx;
      const work = sharedRemainingWork(ctx);
      const speed = sharedMachineSpeeds(ctx.platform);
      // Remaining_{i,m} = work[i] / speed[m]: the same division in both passes.
      // max_m work[i] / speed[m] is work[i] / (slowest eligible speed): division is
      // monotonic under IEEE rounding, so this is the same number with one division per row.
      let sup = 0;
      for (let i = 0; i < work.length; i++) {
        const base = i * cols;
        let slowest = Number.POSITIVE_INFINITY;
        for (let m = 0; m < cols; m++) {
          if (eligible[base + m] === 1 && speed[m]! < slowest) slowest = speed[m]!;
        }
        if (slowest === Number.POSITIVE_INFINITY) continue;
        const r = work[i]! / slowest;
        if (r > sup) sup = r;
      }
      return (i, out, offset) => {
        const base = i * cols;
        const w = work[i]!;
        for (let m = 0; m < cols; m++) {
          if (eligible[base + m] !== 1) continue;
          out[offset + m]! += sup > 0 ? weight * (1 - w / speed[m]! / sup) : weight;
        }
      };
    },
  };
  return h;
}
