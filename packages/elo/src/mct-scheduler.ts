import type { Job, Platform, Scheduler } from "@sched/core";
import { requireKnownKeys } from "@sched/errors";
import { jobSize } from "./expected-time.js";
import { HEURISTIC_KEYS, type HeuristicOptions, toldSpeeds } from "./heuristic-options.js";
import { LowestSet } from "./lowest-set.js";
import { type MachineClasses, machineClasses } from "./machine-classes.js";
import { type QueueState, queueScheduler } from "./machine-queues.js";
import { mct } from "./mct.js";

/**
 * The MCT (minimum completion time) baseline as an online scheduler: each arriving job, in queue
 * order, is bound to the machine where it is expected to complete first ({@link mct}), counting
 * what that machine is expected to be busy with: the expected rest of its running job, then the
 * jobs already queued on it. Expected times come from {@link expectedTime} with the told
 * `speeds`; a machine runs one job at a time, its queue in FIFO order.
 *
 * Complexity: on a platform of few classes of machines (told speed and cores alike: at most one
 * class per 8 machines) and jobs without licenses, O(A + C) per arriving job plus O(A + Q) per
 * `schedule` call with arrivals, A the machines running or with a job queued, Q the jobs queued,
 * C the classes: a machine that runs nothing and has nothing queued is ready now, so of those
 * only the first of each class can be the earliest (with the lowest index among equal times);
 * the starts look at the machines with a job queued only (as `randomScheduler`). Otherwise
 * O(machines) per arriving job plus O(machines) per `schedule` call.
 *
 * @throws InvalidInputError (at reset) when `speeds` does not fit the platform.
 * @example
 * ```ts
 * simulate(jobs, platform, mctScheduler());
 * ```
 */
export function mctScheduler(options: HeuristicOptions = {}): Scheduler {
  const where = "@sched/elo/mctScheduler";
  requireKnownKeys(where, "options", options, HEURISTIC_KEYS);
  let speeds: Float64Array = new Float64Array(0);
  let classes: CleanMachines | null = null;
  return queueScheduler("mct", {
    reset(platform) {
      speeds = toldSpeeds(options, platform, where);
      classes = CleanMachines.of(platform, speeds);
    },
    choose(jobs, eligible, state, now) {
      const fast =
        classes !== null && jobs.every((job) => job.licenses === undefined)
          ? classes.choose(jobs, state, now)
          : null;
      const chosen = fast ?? plainChoose(jobs, eligible, state, now, speeds);
      classes?.taken(chosen);
      return chosen;
    },
  });
}

/** The plain MCT choice: every machine's ready time and the jobs' whole rows of expected times. */
function plainChoose(
  jobs: readonly Job[],
  eligible: readonly (readonly number[])[],
  state: QueueState,
  now: number,
  speeds: Float64Array,
): number[] {
  const { platform, queued, running } = state;
  const m = platform.machines.length;
  const ready = new Float64Array(m);
  for (let j = 0; j < m; j++) {
    const r = running[j];
    let t = r == null ? now : Math.max(now, r.start + jobSize(r.job, platform) / speeds[j]!);
    for (const q of queued[j]!) t += jobSize(q, platform) / speeds[j]!;
    ready[j] = t;
  }
  const etc = new Float64Array(jobs.length * m).fill(Number.POSITIVE_INFINITY);
  jobs.forEach((job, i) => {
    const size = jobSize(job, platform);
    for (const j of eligible[i]!) etc[i * m + j] = size / speeds[j]!;
  });
  return Array.from(mct({ tasks: jobs.length, machines: m, etc, ready }).machineOf);
}

/**
 * The machines by class (told speed and cores alike), each class with the set of its machines
 * that run nothing and have nothing queued ("clean"), for the MCT choice without a pass over
 * every machine. Its picks are {@link plainChoose}'s for jobs without licenses (eligible: the
 * machines with their cores): a clean machine is ready at `now` exactly (`plainChoose` adds no
 * queued time to `now`), so within a class every clean machine completes a job at the same time,
 * `now + size / speed`, and the first of them comes before the others (the lowest index wins
 * ties); the other machines are looked at one by one, as `plainChoose` would. @internal
 */
class CleanMachines {
  readonly #speeds: Float64Array;
  readonly #members: readonly Int32Array[];
  readonly #speed: Float64Array;
  readonly #cores: Int32Array;
  readonly #classOf: Int32Array;
  readonly #local: Int32Array;
  /** Each class's clean machines, by place in the class. */
  readonly #clean: LowestSet[];
  /** The machines taken out of the clean sets (chosen) and not yet seen clean again. */
  #dirty: number[] = [];
  #dirtyAt: Int32Array;
  /** Per call: ready times of the machines looked at one by one, and a mark per active machine. */
  readonly #ready: Float64Array;
  readonly #mark: Uint32Array;
  #call = 0;

  /** The classes of `platform`, or null when they are too many to help (over one per 8 machines). */
  static of(platform: Platform, speeds: Float64Array): CleanMachines | null {
    const classes = machineClasses(platform, speeds);
    return classes === null ? null : new CleanMachines(speeds, classes);
  }

  private constructor(speeds: Float64Array, classes: MachineClasses) {
    const n = classes.classOf.length;
    this.#speeds = speeds;
    this.#classOf = classes.classOf;
    this.#members = classes.members;
    this.#local = classes.local;
    this.#speed = classes.speed;
    this.#cores = classes.cores;
    this.#clean = classes.members.map((s) => new LowestSet(s.length, true));
    this.#dirtyAt = new Int32Array(n).fill(-1);
    this.#ready = new Float64Array(n);
    this.#mark = new Uint32Array(n);
  }

  /** Takes the chosen machines out of the clean sets. */
  taken(chosen: readonly number[]): void {
    for (const j of chosen) {
      if (j < 0 || this.#dirtyAt[j] !== -1) continue;
      this.#clean[this.#classOf[j]!]!.delete(this.#local[j]!);
      this.#dirtyAt[j] = this.#dirty.length;
      this.#dirty.push(j);
    }
  }

  /**
   * MCT's machine for each job (none has licenses), as {@link plainChoose} picks it; null, having
   * changed nothing, when `mct` would refuse the problem (a ready time that is not finite, an
   * expected time that is not a number >= 0: sums that overflowed), so that the plain way
   * throws its error.
   */
  choose(jobs: readonly Job[], state: QueueState, now: number): number[] | null {
    const { platform, queued, running, active } = state;
    const speeds = this.#speeds;
    const ready = this.#ready;
    const mark = this.#mark;
    const call = ++this.#call;
    // the active machines' ready times, as plainChoose computes them; the machines chosen before
    // and idle with an empty queue since are clean again
    const looked: number[] = [];
    for (let i = 0; i < active.length; i++) {
      const j = active[i]!;
      mark[j] = call;
      const r = running[j];
      let t = r == null ? now : Math.max(now, r.start + jobSize(r.job, platform) / speeds[j]!);
      for (const q of queued[j]!) t += jobSize(q, platform) / speeds[j]!;
      if (!Number.isFinite(t)) return null;
      ready[j] = t;
      looked.push(j);
    }
    const cores = this.#cores;
    const classes = this.#members.length;
    for (const job of jobs) {
      const size = jobSize(job, platform);
      for (let c = 0; c < classes; c++) {
        if (cores[c]! >= job.cores && !(size / this.#speed[c]! >= 0)) return null;
      }
    }
    for (let i = 0; i < this.#dirty.length; ) {
      const j = this.#dirty[i]!;
      if (mark[j] === call) {
        i++;
        continue;
      }
      this.#clean[this.#classOf[j]!]!.add(this.#local[j]!);
      const last = this.#dirty.pop()!;
      if (last !== j) {
        this.#dirty[i] = last;
        this.#dirtyAt[last] = i;
      }
      this.#dirtyAt[j] = -1;
    }
    const chosen: number[] = [];
    for (const job of jobs) {
      const size = jobSize(job, platform);
      let bm = -1;
      let be = Number.POSITIVE_INFINITY;
      for (let c = 0; c < classes; c++) {
        if (cores[c]! < job.cores) continue;
        const first = this.#clean[c]!.first();
        if (first < 0) continue;
        const j = this.#members[c]![first]!;
        const e = size / this.#speed[c]!;
        if (e === Number.POSITIVE_INFINITY) continue;
        const t = now + e;
        if (t < be || (t === be && j < bm)) {
          be = t;
          bm = j;
        }
      }
      for (let i = 0; i < looked.length; i++) {
        const j = looked[i]!;
        if (cores[this.#classOf[j]!]! < job.cores) continue;
        const e = size / speeds[j]!;
        if (e === Number.POSITIVE_INFINITY) continue;
        const t = ready[j]! + e;
        if (t < be || (t === be && j < bm)) {
          be = t;
          bm = j;
        }
      }
      chosen.push(bm);
      if (bm < 0) continue;
      ready[bm] = be;
      if (mark[bm] !== call) {
        // a clean machine: from now on it is looked at one by one
        mark[bm] = call;
        looked.push(bm);
        this.taken([bm]);
      }
    }
    return chosen;
  }
}
