import type { Scheduler } from "@sched/core";
import { optionKeys, requireAnyInteger, requireKnownKeys } from "@sched/errors";
import { Random } from "@sched/random";
import { RANDOM_SCHEDULER_DEFAULTS } from "./defaults.js";
import { queueScheduler } from "./machine-queues.js";

/** Options of {@link randomScheduler}. */
export interface RandomSchedulerOptions {
  /**
   * Seed of the random stream (@sched/random, stream `elo/randomScheduler`); the sequence restarts at every `reset`, so two runs
   * of one instance give the same schedule.
   * @defaultValue 1
   */
  readonly seed?: number;
}

/** The keys of {@link RandomSchedulerOptions}, all of them (checked by the compiler). */
const RANDOM_KEYS = optionKeys<RandomSchedulerOptions>({
  seed: true,
});

/**
 * Uniformly random assignment, the paper's baseline: each arriving job (in queue order) is bound
 * to a machine drawn uniformly among the machines that can run it, and waits in that machine's
 * FIFO queue; a machine runs one job at a time. It uses no information at all. Jobs that no
 * single machine can run are rejected on arrival.
 *
 * Complexity: O(1) per arriving job without licenses after the first of its cores count (the
 * machines that can run it, a list made once per platform and cores count), else O(machines);
 * O(Q log Q) per `schedule` call for Q machines with a job queued when Q is under a sixteenth
 * of the machines (they alone can start one), else O(machines).
 *
 * @throws InvalidInputError when `seed` is not a safe integer.
 * @example
 * ```ts
 * simulate(jobs, platform, randomScheduler({ seed: 7 }));
 * ```
 */
export function randomScheduler(options: RandomSchedulerOptions = {}): Scheduler {
  requireKnownKeys("@sched/elo/randomScheduler", "options", options, RANDOM_KEYS);
  const seed = options.seed ?? RANDOM_SCHEDULER_DEFAULTS.seed;
  requireAnyInteger("@sched/elo/randomScheduler", "options.seed", seed);
  let rng = new Random(seed, "elo/randomScheduler");
  return queueScheduler("random", {
    reset() {
      rng = new Random(seed, "elo/randomScheduler");
    },
    choose(jobs, eligible) {
      return jobs.map((_, i) => {
        const ms = eligible[i]!;
        return ms[rng.integer(0, ms.length - 1)]!;
      });
    },
  });
}
