import { optionKeys, requireKnownKeys } from "@sched/errors";
import {
  applyRows,
  type Heuristic,
  type HeuristicContext,
  type RowHeuristic,
  type RowKernel,
} from "./heuristic.js";
import { weightOption } from "./option-checks.js";

/** Options of {@link overheadHeuristic}. */
export interface OverheadOptions {
  /**
   * `Δ` added to the associations of the previous plan: 8.0 in the paper's preemptive variants,
   * 800.0 in the non-preemptive ones (see {@link OVERHEAD_PREEMPTIVE},
   * {@link OVERHEAD_NON_PREEMPTIVE}).
   * @defaultValue `8`
   */
  readonly weight?: number;
}

/** The keys of {@link OverheadOptions}, all of them (checked by the compiler). Internal. */
export const OVERHEAD_KEYS = optionKeys<OverheadOptions>({
  weight: true,
});

/** The paper's overhead constant for the variants with preemption. */
export const OVERHEAD_PREEMPTIVE = 8;
/** The paper's overhead constant for the variants without preemption. */
export const OVERHEAD_NON_PREEMPTIVE = 800;

/**
 * The Overhead minimization heuristic: limits migrations and preemptions by adding `Δ` to every
 * job-machine association of the previous scheduling plan (`ctx.previous`) that is still
 * eligible.
 *
 * Complexity: O(|N|).
 *
 * @example
 * ```ts
 * overheadHeuristic({ weight: 800 }).apply(ctx, p); // the non-preemptive setting
 * ```
 */
export function overheadHeuristic(options: OverheadOptions = {}): Heuristic {
  requireKnownKeys("@sched/convergent/overheadHeuristic", "options", options, OVERHEAD_KEYS);
  const weight = weightOption(
    "@sched/convergent/overheadHeuristic",
    "options.weight",
    options.weight,
    OVERHEAD_PREEMPTIVE,
  );
  const h: RowHeuristic = {
    name: "overhead-minimization",
    apply(ctx: HeuristicContext, p: Float64Array): void {
      applyRows(ctx, p, h.rows(ctx));
    },
    rows(ctx: HeuristicContext): RowKernel {
      const { cols, eligible, previous } = ctx;
      return (i, out, offset) => {
        const m = previous[i]!;
        if (m >= 0 && eligible[i * cols + m] === 1) out[offset + m]! += weight;
      };
    },
  };
  // frozen: `apply` runs `h.rows`, which a caller must not replace
  return Object.freeze(h);
}
