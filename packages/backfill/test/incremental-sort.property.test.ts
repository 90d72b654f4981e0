import type { Job, SchedulerView, WaitingJob } from "@sched/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type OrderName, queueSorter } from "../src/order.js";

// The named orders' sorters keep the previous call's queue and result and update them (see
// src/incremental-sort.ts). Against the plain sort they stand for, call after call: the same
// objects in the same order, ties included, over queues that change as the engine's does
// (arrivals at their queue place, departures from anywhere, a job back in the queue as a new
// entry) and over inputs that break what the sorter relies on (not in queue order, an entry
// twice, two entries of one job, NaN keys, its own result passed back, or the one before).

type Named = Exclude<OrderName, "fcfs">;
const NAMED: readonly Named[] = ["sjf", "largest-first", "user-priority", "deadline"];

/** The comparators as `queueSorter` defined them before it kept state (the reference). */
const REFERENCE: Record<Named, (a: WaitingJob, b: WaitingJob) => number> = {
  sjf: (a, b) => a.job.estimate - b.job.estimate,
  "largest-first": (a, b) => b.job.cores - a.job.cores,
  "user-priority": (a, b) => (b.job.priority ?? 0) - (a.job.priority ?? 0),
  deadline: (a, b) => {
    const da = a.job.deadline ?? Number.POSITIVE_INFINITY;
    const db = b.job.deadline ?? Number.POSITIVE_INFINITY;
    return da === db ? 0 : da < db ? -1 : 1;
  },
};

function byQueue(a: WaitingJob, b: WaitingJob): number {
  return a.job.submit - b.job.submit || a.job.id - b.job.id;
}

function plainSort(order: Named, waiting: readonly WaitingJob[]): WaitingJob[] {
  const cmp = REFERENCE[order];
  return waiting.slice().sort((a, b) => cmp(a, b) || byQueue(a, b));
}

/** True when `got` holds the same objects as `want`, in the same order. */
function sameObjects(got: readonly WaitingJob[], want: readonly WaitingJob[]): boolean {
  return got.length === want.length && got.every((w, i) => w === want[i]);
}

const VIEW = {} as SchedulerView;

// Few distinct values per key (many ties), absent fields, infinities; NaN only when asked.
const keysArb = fc.record({
  // backfillPass gives a job without a submit time -Infinity (ties by id).
  submit: fc.oneof(
    { arbitrary: fc.integer({ min: 0, max: 12 }), weight: 10 },
    { arbitrary: fc.constantFrom(Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY), weight: 1 },
  ),
  estimate: fc.constantFrom(1, 2, 3, Number.POSITIVE_INFINITY),
  cores: fc.integer({ min: 1, max: 3 }),
  priority: fc.constantFrom(undefined, 0, 1, -1, 2),
  deadline: fc.constantFrom(undefined, 5, 10, Number.POSITIVE_INFINITY),
});

interface Keys {
  readonly submit: number;
  readonly estimate: number;
  readonly cores: number;
  readonly priority: number | undefined;
  readonly deadline: number | undefined;
}

type Step =
  | {
      readonly kind: "arrive";
      // One job per entry (a burst of more than 16 at times: the new entries' sort by
      // Array.prototype.sort rather than by insertion).
      readonly keys: readonly Keys[];
      readonly nan: boolean;
    }
  | { readonly kind: "leave"; readonly at: number }
  | { readonly kind: "requeue"; readonly at: number }
  | {
      readonly kind: "call";
      // How the input is given: the queue (the engine's array, changed in place between
      // calls), a copy, or broken: shuffled, an entry twice, a second entry of a queued job,
      // the sorter's own previous result.
      readonly input: "queue" | "copy" | "shuffled" | "twice" | "twin" | "result" | "older";
      readonly seed: number;
    };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    arbitrary: fc.record({
      kind: fc.constant("arrive" as const),
      keys: fc.oneof(
        { arbitrary: fc.array(keysArb, { minLength: 1, maxLength: 3 }), weight: 12 },
        { arbitrary: fc.array(keysArb, { minLength: 17, maxLength: 30 }), weight: 1 },
      ),
      nan: fc.constant(false), // set by `stepsArb`
    }),
    weight: 4,
  },
  { arbitrary: fc.record({ kind: fc.constant("leave" as const), at: fc.nat() }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant("requeue" as const), at: fc.nat() }), weight: 1 },
  {
    arbitrary: fc.record({
      kind: fc.constant("call" as const),
      input: fc.oneof(
        { arbitrary: fc.constantFrom("queue" as const, "copy" as const), weight: 12 },
        {
          arbitrary: fc.constantFrom(
            "shuffled" as const,
            "twice" as const,
            "twin" as const,
            "result" as const,
            "older" as const,
          ),
          weight: 1,
        },
      ),
      seed: fc.nat(),
    }),
    weight: 4,
  },
);

/** A step list, with a NaN key on about one arrival in 30 when `withNaN`. */
function stepsArb(withNaN: boolean): fc.Arbitrary<Step[]> {
  return fc
    .array(fc.tuple(stepArb, fc.integer({ min: 0, max: 29 })), { maxLength: 120 })
    .map((pairs) =>
      pairs.map(([s, r]) => (s.kind === "arrive" ? { ...s, nan: withNaN && r === 0 } : s)),
    );
}

/** A deterministic shuffle (Fisher-Yates on a small LCG). */
function shuffled<T>(a: readonly T[], seed: number): T[] {
  const out = a.slice();
  let x = seed >>> 0;
  for (let i = out.length - 1; i > 0; i--) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    const j = x % (i + 1);
    const t = out[i]!;
    out[i] = out[j]!;
    out[j] = t;
  }
  return out;
}

/**
 * Runs `steps` on a queue kept in queue order, one sorter per named order called at every
 * "call" step, each result checked against the plain sort of the same input.
 */
function check(steps: readonly Step[]): void {
  // The engine's way: one array, in queue order, changed in place between calls.
  const queue: WaitingJob[] = [];
  const sorters = NAMED.map((order) => ({ order, sort: queueSorter(order, "test", "order") }));
  // Each sorter's result at the last call and at the call before it.
  const last = new Map<Named, readonly WaitingJob[]>();
  const older = new Map<Named, readonly WaitingJob[]>();
  let nextId = 0;
  const insert = (w: WaitingJob) => {
    let at = 0;
    while (at < queue.length && byQueue(queue[at]!, w) < 0) at++;
    queue.splice(at, 0, w);
  };
  for (const step of steps) {
    if (step.kind === "arrive") {
      step.keys.forEach((k, i) => {
        // A NaN key on the first job of the step when asked.
        const nan = step.nan && i === 0;
        const job: Job = {
          id: nextId++,
          submit: k.submit,
          runtime: 1,
          estimate: nan ? Number.NaN : k.estimate,
          cores: k.cores,
          ...(k.priority === undefined ? {} : { priority: nan ? Number.NaN : k.priority }),
          ...(k.deadline === undefined ? {} : { deadline: nan ? Number.NaN : k.deadline }),
        };
        insert({ job, progress: 0, preemptions: 0 });
      });
    } else if (step.kind === "leave") {
      if (queue.length > 0) queue.splice(step.at % queue.length, 1);
    } else if (step.kind === "requeue") {
      // A job back in the queue (preempted): the same job, a new entry, at its queue place.
      if (queue.length > 0) {
        const [w] = queue.splice(step.at % queue.length, 1);
        insert({ job: w!.job, progress: 0.5, preemptions: 1 });
      }
    } else {
      for (const { order, sort } of sorters) {
        let input: readonly WaitingJob[] = queue;
        if (step.input === "copy") input = queue.slice();
        else if (step.input === "shuffled") input = shuffled(queue, step.seed);
        else if (step.input === "twice" && queue.length > 0) {
          const at = step.seed % queue.length;
          input = [...queue.slice(0, at + 1), queue[at]!, ...queue.slice(at + 1)];
        } else if (step.input === "twin" && queue.length > 0) {
          const at = step.seed % queue.length;
          const twin = { ...queue[at]! };
          input = [...queue.slice(0, at + 1), twin, ...queue.slice(at + 1)];
        } else if (step.input === "result") input = last.get(order) ?? queue;
        else if (step.input === "older") input = older.get(order) ?? queue;
        const want = plainSort(order, input);
        const snapshot = input.slice();
        const got = sort(input, VIEW);
        expect(sameObjects(got, want), `${order}, ${step.input} input`).toBe(true);
        // The input is never changed.
        expect(sameObjects(input, snapshot)).toBe(true);
        const previous = last.get(order);
        if (previous !== undefined) older.set(order, previous);
        last.set(order, got);
      }
    }
  }
}

describe("queueSorter, named orders, call after call", () => {
  it("gives exactly the plain sort of every input, over queues that change as the engine's do", () => {
    fc.assert(fc.property(stepsArb(false), (steps) => check(steps)));
  });

  it("gives exactly the plain sort when jobs have NaN keys (the plain sort's answer, whatever it is)", () => {
    fc.assert(fc.property(stepsArb(true), (steps) => check(steps)));
  });

  it("gives the previous result itself when the queue has not changed", () => {
    const jobs = [3, 1, 2].map((estimate, id) => ({
      job: { id, submit: 0, runtime: 1, estimate, cores: 1 },
      progress: 0,
      preemptions: 0,
    }));
    const sort = queueSorter("sjf", "test", "order");
    const first = sort(jobs, VIEW);
    expect(first.map((w) => w.job.id)).toEqual([1, 2, 0]);
    expect(sort(jobs.slice(), VIEW)).toBe(first);
    // One job left: a new array, the rest in the same order.
    const second = sort(jobs.slice(1), VIEW);
    expect(second).not.toBe(first);
    expect(second.map((w) => w.job.id)).toEqual([1, 2]);
  });
});
