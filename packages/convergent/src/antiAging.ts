import type { Heuristic, HeuristicContext } from "./heuristic.js";

/** Options of {@link antiAgingHeuristic}. */
export interface AntiAgingOptions {
  /**
   * `AA`: the heuristic's weight, per second of age.
   * @defaultValue `0.02`
   */
  readonly weight?: number;
}

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
  const weight = options.weight ?? 0.02;
  return {
    name: "anti-aging",
    apply(ctx: HeuristicContext, p: Float64Array): void {
      const { cols, eligible } = ctx;
      for (let i = 0; i < ctx.jobs.length; i++) {
        const delta = weight * (ctx.now - ctx.jobs[i].job.submit);
        if (delta === 0) continue;
        for (let m = 0; m < cols; m++) if (eligible[i * cols + m] === 1) p[i * cols + m] += delta;
      }
    },
  };
}
