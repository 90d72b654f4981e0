import { optionKeys, requireKnownKeys, requireOneOf } from "@sched/errors";
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
  /**
   * What `SupRemaining`, "the maximum value of `Remaining_i`", is the maximum of (README,
   * Interpretation 9): `"global"`, every eligible `Remaining_{i,m}` of the matrix (the jobs that
   * end soonest get the most, as the prose says: "advancing the jobs that have a shorter
   * estimated time"); `"row"`, job `i`'s own eligible entries (as the subscript `i` reads):
   * then `Δp_{i,m} = WM (1 - BM_slowest_i / BM_m)`, which favours fast machines but not short jobs.
   * @defaultValue `"global"`
   */
  readonly sup?: "global" | "row";
}

/** The keys of {@link WaitMinimizationOptions}, all of them (checked by the compiler). Internal. */
export const WAIT_KEYS = optionKeys<WaitMinimizationOptions>({
  weight: true,
  sup: true,
});

/**
 * The Wait minimization heuristic: advances the jobs that will end soonest:
 * `Δp_{i,m} = WM * (1 - Remaining_{i,m} / SupRemaining)` with
 * `Remaining_{i,m} = Estimated_i (1 - Progress_i) BM_ref / BM_m` and `SupRemaining` the largest
 * `Remaining_{i,m}` over all eligible pairs of the matrix (`WM` everywhere when it is 0); with
 * `sup: "row"`, the largest of row `i` (job `i` on its slowest eligible machine).
 *
 * Complexity: O(|N| x |M|).
 *
 * @throws InvalidInputError when `sup` is neither `"global"` nor `"row"`.
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
  if (options.sup !== undefined) {
    requireOneOf("@sched/convergent/waitMinimizationHeuristic", "options.sup", options.sup, [
      "global",
      "row",
    ]);
  }
  const perRow = options.sup === "row";
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
      // rowSup[i] = Remaining_i on its slowest eligible machine (0 without one).
      const rowSup = new Float64Array(work.length);
      let sup = 0;
      for (let i = 0; i < work.length; i++) {
        const base = i * cols;
        let slowest = Number.POSITIVE_INFINITY;
        for (let m = 0; m < cols; m++) {
          if (eligible[base + m] === 1 && speed[m]! < slowest) slowest = speed[m]!;
        }
        if (slowest === Number.POSITIVE_INFINITY) continue;
        const r = work[i]! / slowest;
        rowSup[i] = r;
        if (r > sup) sup = r;
      }
      return (i, out, offset) => {
        const base = i * cols;
        const w = work[i]!;
        const s = perRow ? rowSup[i]! : sup;
        for (let m = 0; m < cols; m++) {
          if (eligible[base + m] !== 1) continue;
          out[offset + m]! += s > 0 ? weight * (1 - w / speed[m]! / s) : weight;
        }
      };
    },
  };
  // frozen: `apply` runs `h.rows`, which a caller must not replace
  return Object.freeze(h);
}
