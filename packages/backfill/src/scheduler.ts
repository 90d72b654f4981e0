import type { Platform, SchedulingContext } from "@sched/core";
import type { BackfillScheduler, BackfillStrategy } from "./strategy.js";

/**
 * The engine's scheduler for a strategy: `schedule` is one decision on the engine's view, whose
 * verbs apply it at once; `reservations()` reads the strategy's after it. The thin adapter behind
 * every factory of the package (`fcfs`, `easy`, `backfill`, …). Internal. O(1) per call, plus
 * the strategy's decision.
 */
export function schedulerOf(strategy: BackfillStrategy): BackfillScheduler {
  return {
    name: strategy.name,
    reset(platform: Platform) {
      strategy.reset(platform);
    },
    schedule(ctx: SchedulingContext) {
      strategy.decide(ctx);
    },
    reservations() {
      const out = new Map<number, number>();
      for (const r of strategy.reservations()) out.set(r.id, r.time);
      return out;
    },
  };
}
