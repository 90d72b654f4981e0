import { InvalidInputError, type SchedulerView, type WaitingJob } from "@sched/core";

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
 * its input itself, which is already in queue order).
 */
export type QueueSorter = (
  waiting: readonly WaitingJob[],
  view: SchedulerView,
) => readonly WaitingJob[];

function byQueue(a: WaitingJob, b: WaitingJob): number {
  return a.job.submit - b.job.submit || a.job.id - b.job.id;
}

function comparatorSorter(cmp: (a: WaitingJob, b: WaitingJob) => number): QueueSorter {
  return (waiting) => waiting.slice().sort((a, b) => cmp(a, b) || byQueue(a, b));
}

/**
 * Turns a {@link QueueOrder} into a sorter. `"fcfs"` keeps the engine's order (it is already
 * by submit time, then id) without sorting.
 * @throws InvalidInputError naming `field` when the order is not one of the accepted forms.
 */
export function queueSorter(order: QueueOrder, where: string, field: string): QueueSorter {
  if (order === "fcfs") return (waiting) => waiting;
  if (order === "sjf") return comparatorSorter((a, b) => a.job.estimate - b.job.estimate);
  if (order === "largest-first") return comparatorSorter((a, b) => b.job.cores - a.job.cores);
  if (order === "user-priority") {
    return comparatorSorter((a, b) => (b.job.priority ?? 0) - (a.job.priority ?? 0));
  }
  if (order === "deadline") {
    return comparatorSorter((a, b) => {
      const da = a.job.deadline ?? Number.POSITIVE_INFINITY;
      const db = b.job.deadline ?? Number.POSITIVE_INFINITY;
      return da === db ? 0 : da < db ? -1 : 1;
    });
  }
  if (typeof order === "object" && order !== null) {
    if ("compare" in order && typeof order.compare === "function") {
      return comparatorSorter(order.compare);
    }
    if ("priority" in order && typeof order.priority === "function") {
      const priority = order.priority;
      return (waiting, view) => {
        const keyed = waiting.map((w) => {
          const p = priority(w, view);
          if (Number.isNaN(p)) {
            throw new InvalidInputError(
              where,
              `${field}.priority`,
              `returned NaN for job ${w.job.id}`,
            );
          }
          return { w, p };
        });
        keyed.sort((a, b) => (a.p === b.p ? byQueue(a.w, b.w) : b.p > a.p ? 1 : -1));
        return keyed.map((k) => k.w);
      };
    }
  }
  throw new InvalidInputError(
    where,
    field,
    `is ${typeof order === "string" ? JSON.stringify(order) : typeof order}, expected "fcfs", "sjf", "largest-first", "user-priority", "deadline", { compare } or { priority }`,
  );
}
