import { InvalidInputError, type Job, type SchedulerView, type WaitingJob } from "@sched/core";
import { byQueue, incrementalSorter, isOrderedNumber, type Keyed } from "./incremental-sort.js";

/**
 * A named queue order:
 * - `"fcfs"`: submit time, then id (the engine's queue order).
 * - `"sjf"`: shortest estimate first.
 * - `"largest-first"`: most cores first.
 * - `"user-priority"`: highest `job.priority` first (a job without one counts as 0).
 * - `"deadline"`: earliest deadline first (a job without one comes after every job with one).
 *
 * Every order breaks ties by queue order (submit time, then id).
 */
export type OrderName = "fcfs" | "sjf" | "largest-first" | "user-priority" | "deadline";

/** A custom order as a comparator: negative when `a` goes before `b`. Ties fall back to queue order. */
export interface OrderComparator {
  readonly compare: (a: WaitingJob, b: WaitingJob) => number;
}

/**
 * A custom order as a priority function, recomputed at every scheduling event (flexible
 * backfilling): higher priority first. Ties fall back to queue order.
 */
export interface OrderPriority {
  readonly priority: (job: WaitingJob, view: SchedulerView) => number;
}

/** How a policy orders its queue. */
export type QueueOrder = OrderName | OrderComparator | OrderPriority;

/**
 * Orders waiting jobs for one scheduling event; never mutates its input (the FCFS sorter returns
 * its input itself, which is already in queue order, and a priority sorter does when its input
 * is already in its order). A named order's sorter keeps its input and result from one call to
 * the next and updates them (O(Q) per event, plus O(A log Q) for A new jobs; see
 * `incrementalSorter`), and returns its previous result again when the queue has not changed:
 * a result must not be mutated.
 */
export type QueueSorter = (
  waiting: readonly WaitingJob[],
  view: SchedulerView,
) => readonly WaitingJob[];

/**
 * True when `a` is one non-descending run under `cmp` (`cmp(a[i], a[i - 1]) >= 0` for every
 * i >= 1): then `a.sort(cmp)` would leave it as it is (V8's TimSort finds the whole array as
 * one run, asking exactly these comparisons, and moves nothing), so the sort can be skipped.
 * O(n), stops at the first descent. Internal.
 */
export function inRun<T>(a: readonly T[], cmp: (x: T, y: T) => number): boolean {
  for (let i = 1; i < a.length; i++) if (cmp(a[i]!, a[i - 1]!) < 0) return false;
  return true;
}

function comparatorSorter(cmp: (a: WaitingJob, b: WaitingJob) => number): QueueSorter {
  return (waiting) => waiting.slice().sort((a, b) => cmp(a, b) || byQueue(a, b));
}

/** A named order other than FCFS: its key comparison, and when a job's key is a number, not NaN. */
interface NamedOrder {
  readonly key: (a: Keyed, b: Keyed) => number;
  readonly keyOk: (job: Job) => boolean;
}

/**
 * The named orders other than FCFS. Their sorters give the same result as
 * `comparatorSorter(key)`, kept up to date from one call to the next (see `incrementalSorter`;
 * a call where a new job's key is not a number sorts plainly).
 */
const NAMED_ORDERS: Readonly<Record<Exclude<OrderName, "fcfs">, NamedOrder>> = {
  sjf: {
    key: (a, b) => a.job.estimate - b.job.estimate,
    keyOk: (job) => isOrderedNumber(job.estimate),
  },
  "largest-first": {
    key: (a, b) => b.job.cores - a.job.cores,
    keyOk: (job) => isOrderedNumber(job.cores),
  },
  "user-priority": {
    key: (a, b) => (b.job.priority ?? 0) - (a.job.priority ?? 0),
    keyOk: (job) => isOrderedNumber(job.priority ?? 0),
  },
  deadline: {
    key: (a, b) => {
      const da = a.job.deadline ?? Number.POSITIVE_INFINITY;
      const db = b.job.deadline ?? Number.POSITIVE_INFINITY;
      return da === db ? 0 : da < db ? -1 : 1;
    },
    keyOk: (job) => isOrderedNumber(job.deadline ?? Number.POSITIVE_INFINITY),
  },
};

/**
 * The comparator of a named order other than FCFS (its key, then queue order), else null. For
 * a guess that the caller checks against the order's sorter (conservative's reservations).
 */
export function namedComparator(order: QueueOrder): ((a: Keyed, b: Keyed) => number) | null {
  if (typeof order !== "string" || !Object.hasOwn(NAMED_ORDERS, order)) return null;
  const key = NAMED_ORDERS[order as Exclude<OrderName, "fcfs">].key;
  return (a, b) => key(a, b) || byQueue(a, b);
}

/**
 * The sorter of a priority function: higher priority first, ties by queue order. Each call asks
 * `priority` once per waiting job, in the given order, and sorts the positions 0..n-1 of the
 * jobs (a reused array of small integers) by their priorities (a reused array): no object per
 * job and no copy of the queue but the result. The comparator sees the same values and answers
 * the same as one on `{ job, priority }` pairs, and `Array.prototype.sort` moves elements by
 * the comparator's answers alone, so the order is the same, ties and all. A queue already in
 * that order is returned itself (no copy), as the FCFS sorter returns its input.
 */
function prioritySorter(
  priority: (job: WaitingJob, view: SchedulerView) => number,
  where: string,
  field: string,
): QueueSorter {
  const keys: number[] = [];
  const positions: number[] = [];
  // The queue being sorted, for the comparator (cleared after each call).
  let current: readonly WaitingJob[] = [];
  const compare = (i: number, j: number): number => {
    const pi = keys[i]!;
    const pj = keys[j]!;
    return pi === pj ? byQueue(current[i]!, current[j]!) : pj > pi ? 1 : -1;
  };
  return (waiting, view) => {
    const n = waiting.length;
    for (let i = 0; i < n; i++) {
      const w = waiting[i]!;
      const p = priority(w, view);
      if (Number.isNaN(p)) {
        throw new InvalidInputError(where, `${field}.priority`, `returned NaN for job ${w.job.id}`);
      }
      keys[i] = p;
    }
    current = waiting;
    try {
      if (positions.length > n) positions.length = n;
      for (let i = 0; i < n; i++) positions[i] = i;
      // Already in order (most events on a long trace: a few jobs, equal priorities, in queue
      // order): the sort would move nothing (see `inRun`).
      if (inRun(positions, compare)) return waiting;
      positions.sort(compare);
    } finally {
      current = [];
    }
    const out: WaitingJob[] = [];
    for (let i = 0; i < n; i++) out.push(waiting[positions[i]!]!);
    return out;
  };
}

/**
 * Turns a {@link QueueOrder} into a sorter. `"fcfs"` keeps the engine's order (it is already
 * by submit time, then id) without sorting.
 * @throws InvalidInputError naming `field` when the order is not one of the accepted forms.
 */
export function queueSorter(order: QueueOrder, where: string, field: string): QueueSorter {
  if (order === "fcfs") return (waiting) => waiting;
  if (typeof order === "string" && Object.hasOwn(NAMED_ORDERS, order)) {
    const named = NAMED_ORDERS[order as Exclude<OrderName, "fcfs">];
    return incrementalSorter<WaitingJob>(named.key, named.keyOk);
  }
  if (typeof order === "object" && order !== null) {
    if ("compare" in order && typeof order.compare === "function") {
      return comparatorSorter(order.compare);
    }
    if ("priority" in order && typeof order.priority === "function") {
      return prioritySorter(order.priority, where, field);
    }
  }
  throw new InvalidInputError(
    where,
    field,
    `is ${typeof order === "string" ? JSON.stringify(order) : typeof order}, expected "fcfs", "sjf", "largest-first", "user-priority", "deadline", { compare } or { priority }`,
  );
}
