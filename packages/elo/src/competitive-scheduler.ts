import {
  fitsMachine,
  InvalidInputError,
  type Job,
  type Platform,
  type Scheduler,
  type SchedulingContext,
} from "@sched/core";
import { requireFinite, requirePositive } from "@sched/errors";
import { COMPETITIVE_DEFAULTS } from "./defaults.js";
import { canStartNow, NO_MACHINE } from "./eligibility.js";
import { jobSize } from "./expected-time.js";
import { type JobLevelOptions, jobLevelResolved } from "./job-level.js";
import {
  type RatingUpdate,
  type ResolvedTierListOptions,
  resolveTierListOptions,
  TierList,
  type TierListOptions,
  type TierSnapshot,
} from "./tier-list.js";
import { winsResolved } from "./win-condition.js";

/** What one completed job did to its machine's rating, as reported to `onRatingUpdate`. */
export interface RatingEvent extends RatingUpdate {
  /** Completion time. */
  readonly time: number;
  readonly job: number;
  /** Measured execution time: completion - start. */
  readonly elapsed: number;
  /** The job size the winning condition used (see {@link jobSize}). */
  readonly size: number;
}

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
  /** Called after each rating update (for studies of convergence). @defaultValue none */
  readonly onRatingUpdate?: (event: RatingEvent) => void;
}

/** The competitive scheduler: a core {@link Scheduler} that also shows its ratings. */
export interface CompetitiveScheduler extends Scheduler {
  /** A copy of every machine's rating and tier now (empty before the first run). */
  snapshot(): TierSnapshot;
}

interface Placed {
  readonly machine: number;
  readonly start: number;
  readonly level: number;
  readonly size: number;
}

const WHERE = "@sched/elo/competitiveScheduler";

/**
 * The competitive matchmaking scheduler of the paper. Every machine has a competitive rating;
 * tiers group machines by rating (tier 1 the fastest). Each job gets a level; the scheduler
 * starts it, in queue order, on a free machine of the tier its level asks for, else of the next
 * best tier: tiers `level - 1, …, 1` (faster), then `level + 1, …, tiers` (slower). Inside a tier
 * it takes the machine with the highest rating, then the lowest index. When a job completes, its
 * machine measures `completion - start`, checks its tier's winning condition (see {@link isWin})
 * and updates its rating with equation (1) (see {@link TierList.record}).
 *
 * What the policy knows: each job's size from its estimate ({@link jobSize}), `maxSpeed`, and
 * what it measures at completions. It never reads the machines' speeds (except for the default
 * `maxSpeed`), the jobs' true runtimes, `view.duration` or `estimatedEnd`.
 *
 * A machine runs one job at a time; a job runs on one machine (`job.cores` of its cores). A job
 * that no single machine can run (cores, licenses) is rejected when it arrives.
 *
 * Complexity per `schedule` call: O(machines log machines + W * tiers) for W waiting jobs, plus
 * O(1) per completion.
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
  const resolved: ResolvedTierListOptions = resolveTierListOptions(options, WHERE);
  const overhead = options.overhead ?? COMPETITIVE_DEFAULTS.overhead;
  requireFinite(WHERE, "options.overhead", overhead);
  if (options.maxSpeed !== undefined) requirePositive(WHERE, "options.maxSpeed", options.maxSpeed);
  const customLevel = options.jobLevel;
  const levelScale = options.levelScale ?? COMPETITIVE_DEFAULTS.levelScale;
  if (levelScale !== "log" && levelScale !== "linear") {
    throw new InvalidInputError(
      WHERE,
      "options.levelScale",
      `is ${JSON.stringify(levelScale)}, expected "log" or "linear"`,
    );
  }
  const onUpdate = options.onRatingUpdate;
  const { tiers } = resolved;

  let list = new TierList(0, resolved);
  let effectiveMax = 1;
  let minSize = Number.POSITIVE_INFINITY;
  let maxSize = 0;
  const placed = new Map<number, Placed>();
  let platformSeen: Platform | null = null;

  const reset = (platform: Platform): void => {
    platformSeen = platform;
    list = new TierList(platform.machines.length, resolved);
    let max = 0;
    for (const m of platform.machines) if (m.speed > max) max = m.speed;
    const maxSpeed = options.maxSpeed ?? max;
    effectiveMax = maxSpeed - overhead;
    if (!(effectiveMax > 0)) {
      throw new InvalidInputError(
        WHERE,
        "options.overhead",
        `is ${overhead}, expected a number < maxSpeed (${maxSpeed})`,
      );
    }
    minSize = Number.POSITIVE_INFINITY;
    maxSize = 0;
    placed.clear();
  };

  const levelOf = (job: Job, size: number): number => {
    if (customLevel === undefined) {
      return jobLevelResolved(size, minSize, maxSize, tiers, levelScale);
    }
    const level = customLevel(job, size);
    if (!Number.isInteger(level) || level < 1 || level > tiers) {
      throw new InvalidInputError(
        WHERE,
        "options.jobLevel",
        `returned ${String(level)} for job ${job.id}, expected an integer in [1, ${tiers}]`,
      );
    }
    return level;
  };

  return {
    name: "competitive",
    reset,
    snapshot: () => list.snapshot(),
    schedule(ctx: SchedulingContext): void {
      const { view } = ctx;
      const platform = view.platform;
      if (platformSeen !== platform) reset(platform);
      const now = view.now;
      // 1. Completions: measure, judge, rate.
      for (const job of ctx.completed) {
        const p = placed.get(job.id);
        if (p === undefined) continue;
        placed.delete(job.id);
        const elapsed = now - p.start;
        const tier = list.tier(p.machine);
        const won = elapsed > 0 && winsResolved(p.size, elapsed, tier, effectiveMax);
        const update = list.record(p.machine, p.level, won);
        onUpdate?.({ ...update, time: now, job: job.id, elapsed, size: p.size });
      }
      // 2. Arrivals: learn the size range; reject what no machine can run.
      for (const job of ctx.arrived) {
        let any = false;
        for (let m = 0; m < platform.machines.length && !any; m++) {
          any = fitsMachine(job, platform, m);
        }
        if (!any) {
          ctx.reject(job.id, NO_MACHINE);
          continue;
        }
        const size = jobSize(job, platform);
        if (size < minSize) minSize = size;
        if (size > maxSize) maxSize = size;
      }
      // 3. Placement: free machines bucketed by tier, best rating first.
      const buckets: number[][] = Array.from({ length: tiers + 1 }, () => []);
      let free = 0;
      for (let m = 0; m < platform.machines.length; m++) {
        if (view.freeCores(m) === platform.machines[m]!.cores) {
          buckets[list.tier(m)]!.push(m);
          free++;
        }
      }
      if (free === 0) return;
      const ratings = list.snapshot().ratings;
      for (const b of buckets) b.sort((a, c) => ratings[c]! - ratings[a]! || a - c);
      for (const w of view.waiting) {
        if (free === 0) break;
        const job = w.job;
        if (!(job.ready === undefined || job.ready <= now)) continue;
        const size = jobSize(job, platform);
        const level = levelOf(job, size);
        const machine = pick(buckets, level, tiers, (m) => canStartNow(job, m, view));
        if (machine < 0) continue;
        ctx.start(job.id, [{ machine, cores: job.cores }]);
        placed.set(job.id, { machine, start: now, level, size });
        free--;
      }
    },
  };
}

/**
 * Takes (and removes) the first machine that `ok` accepts, searching tier `level`, then
 * `level - 1 … 1`, then `level + 1 … tiers`; -1 when none. @internal
 */
export function pick(
  buckets: number[][],
  level: number,
  tiers: number,
  ok: (machine: number) => boolean,
): number {
  for (const tier of tierPreference(level, tiers)) {
    const bucket = buckets[tier]!;
    for (let i = 0; i < bucket.length; i++) {
      const m = bucket[i]!;
      if (ok(m)) {
        bucket.splice(i, 1);
        return m;
      }
    }
  }
  return -1;
}

/**
 * The order in which a job of level `level` looks at tiers: its own, then the faster ones from
 * the nearest, then the slower ones from the nearest.
 *
 * Complexity: O(tiers).
 *
 * @example
 * ```ts
 * tierPreference(3, 5); // [3, 2, 1, 4, 5]
 * ```
 */
export function tierPreference(level: number, tiers: number): number[] {
  const out: number[] = [];
  for (let t = Math.min(level, tiers); t >= 1; t--) out.push(t);
  for (let t = level + 1; t <= tiers; t++) out.push(t);
  return out;
}
