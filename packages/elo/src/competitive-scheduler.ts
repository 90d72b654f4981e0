import {
  type Job,
  licensesFreeOn,
  type Platform,
  type Scheduler,
  type SchedulingContext,
} from "@sched/core";
import { optionKeys, requireKnownKeys } from "@sched/errors";
import { CompetitiveCore, type RatingEvent, resolveCoreOptions } from "./competitive-core.js";
import { COMPETITIVE_PASS_KEYS } from "./competitive-pass.js";
import type { TierSearch } from "./defaults.js";
import { isIdle, NO_MACHINE } from "./eligibility.js";
import type { JobLevelOptions } from "./job-level.js";
import { TierList, type TierListOptions, type TierSnapshot } from "./tier-list.js";

export { type RatingEvent, tierPreference } from "./competitive-core.js";

/** Options of {@link competitiveScheduler}. */
export interface CompetitiveOptions extends TierListOptions {
  /**
   * `MAXSPEED` of the winning condition, in machine-speed units. The paper assumes it is known
   * beforehand; by default it is the largest `speed` (benchmark) in the platform, the only thing
   * the policy reads from the machines' descriptions.
   * @defaultValue the platform's largest machine speed
   */
  readonly maxSpeed?: number;
  /**
   * The winning condition's overhead, in speed units (see {@link WinConditionOptions}).
   * @defaultValue 0
   */
  readonly overhead?: number;
  /**
   * The job level (1 = asks for the fastest tier), given by the user. Must return an integer in
   * `[1, tiers]`. By default the level comes from the job's size: {@link jobLevel} over the
   * smallest and largest sizes of the jobs that have arrived so far.
   * @defaultValue size-based, see {@link jobLevel}
   */
  readonly jobLevel?: (job: Job, size: number) => number;
  /**
   * With the default size-based levels: whether the size range is cut into equal bins of log
   * size or of size (see {@link JobLevelOptions}). Ignored when `jobLevel` is given.
   * @defaultValue `"log"`
   */
  readonly levelScale?: "log" | "linear";
  /**
   * Where a job goes when its level's tier has no free machine, the paper's "next best tier"
   * (README, Interpretation 7): `"faster-first"` (the faster tiers from the nearest, then the
   * slower), `"slower-first"` or `"nearest"` (see {@link TierSearch}).
   * @defaultValue `"faster-first"`
   */
  readonly tierSearch?: TierSearch;
  /** Called after each rating update (for studies of convergence). @defaultValue none */
  readonly onRatingUpdate?: (event: RatingEvent) => void;
}

/** The keys of {@link CompetitiveOptions}, all of them (checked by the compiler). */
const COMPETITIVE_KEYS = optionKeys<CompetitiveOptions>({
  ...COMPETITIVE_PASS_KEYS.record,
  onRatingUpdate: true,
});

/** The competitive scheduler: a core {@link Scheduler} that also shows its ratings. */
export interface CompetitiveScheduler extends Scheduler {
  /** A copy of every machine's rating and tier now (empty before the first run). */
  snapshot(): TierSnapshot;
}

const WHERE = "@sched/elo/competitiveScheduler";

/**
 * The competitive matchmaking scheduler of the paper. Every machine has a competitive rating;
 * tiers group machines by rating (tier 1 the fastest). Each job gets a level; the scheduler
 * starts it, in queue order, on a free machine of the tier its level asks for, else of the next
 * best tier: by default tiers `level - 1, …, 1` (faster), then `level + 1, …, tiers` (slower);
 * see `tierSearch`. Inside a tier
 * it takes the machine with the highest rating, then the lowest index. When a job completes, its
 * machine measures `completion - start`, checks its tier's winning condition (see {@link isWin})
 * and updates its rating with equation (1) (see {@link TierList.record}).
 *
 * What the policy knows: each job's size from its estimate (`jobSize`), `maxSpeed`, and
 * what it measures at completions. It never reads the machines' speeds (except for the default
 * `maxSpeed`), the jobs' true runtimes, `view.duration` or `estimatedEnd`.
 *
 * A machine runs one job at a time; a job runs on one machine (`job.cores` of its cores). A job
 * that no single machine can run (cores, licenses) is rejected when it arrives.
 *
 * Complexity per `schedule` call: O(W * tiers + machines looked at) for W waiting jobs when one
 * of them is ready (O(W) when none is): the machines are looked at in rating order until more
 * than 64 idle ones are found (all of them on a loaded platform: then each tier's idle machines
 * are listed, as before); with more, a job walks its tiers' machines in order from the best, and
 * a machine found busy or taken is passed over in O(1) by the later walks of the call, so on a
 * mostly idle platform a call looks at few machines; plus O(machines) at worst per completion
 * (the machine moves to its new place in the rating order).
 *
 * @throws InvalidInputError (at creation) when an option is invalid; (at reset) when
 *   `maxSpeed - overhead <= 0`; (during a run) when a custom `jobLevel` returns something that is
 *   not an integer in `[1, tiers]`.
 * @example
 * ```ts
 * const platform = createPlatform({ machines: [{ speed: 9 }, { speed: 5 }], referenceSpeed: 9 });
 * const policy = competitiveScheduler();
 * const trace = simulate(jobs, platform, policy);
 * policy.snapshot().tiers; // each machine's tier after the run
 * ```
 */
export function competitiveScheduler(options: CompetitiveOptions = {}): CompetitiveScheduler {
  requireKnownKeys(WHERE, "options", options, COMPETITIVE_KEYS);
  const resolved = resolveCoreOptions<Job>(options, WHERE);
  const onUpdate = options.onRatingUpdate;
  let core: CompetitiveCore<Job> | null = null;
  const reset = (platform: Platform): void => {
    core = new CompetitiveCore(platform, resolved);
  };
  return {
    name: "competitive",
    reset,
    snapshot: () =>
      core === null ? new TierList(0, resolved.tierList).snapshot() : core.list.snapshot(),
    schedule(ctx: SchedulingContext): void {
      const { view } = ctx;
      if (core === null || core.platform !== view.platform) reset(view.platform);
      const c = core as unknown as CompetitiveCore<Job>;
      for (const job of ctx.completed) {
        const event = c.complete(job.id, view.now);
        if (event !== undefined) onUpdate?.(event);
      }
      for (const job of ctx.arrived) if (!c.arrive(job)) ctx.reject(job.id, NO_MACHINE);
      c.place(
        view.now,
        waitingJobs(view.waiting),
        {
          idle: (m) => isIdle(view, m),
          // the machines with a free core (the engine's index), the idle ones among them
          next: (from) => {
            let m = view.nextFreeMachine(from);
            while (m >= 0 && !isIdle(view, m)) m = view.nextFreeMachine(m + 1);
            return m;
          },
        },
        (job, m) => licensesFreeOn(job, view, m),
        (job, machine) => ctx.start(job.id, [{ machine, cores: job.cores }]),
      );
    },
  };
}

function* waitingJobs(waiting: Iterable<{ readonly job: Job }>): Generator<Job> {
  for (const w of waiting) yield w.job;
}
