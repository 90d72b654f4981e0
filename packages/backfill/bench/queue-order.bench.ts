import type { Job, SchedulerView, WaitingJob } from "@sched/core";
import { Random } from "@sched/random";
import { bench, describe } from "vitest";
import { queueSorter } from "../src/order.js";

// The named orders' sorter (kept from one event to the next, src/incremental-sort.ts) against
// the sort it replaced (a copy of the queue sorted at every event), on one stream of events:
// a queue of Q jobs in queue order, as the engine keeps it; at each event one job arrives (at
// the end) and one leaves from a random place (it started), and the queue is sorted shortest
// estimate first. The estimates are drawn from 60 values (many ties). One bench iteration is
// 2,000 events.

const VIEW = {} as SchedulerView;
const EVENTS = 2_000;

function byQueue(a: WaitingJob, b: WaitingJob): number {
  return a.job.submit - b.job.submit || a.job.id - b.job.id;
}
const plainSjf = (waiting: readonly WaitingJob[]): readonly WaitingJob[] =>
  waiting.slice().sort((a, b) => a.job.estimate - b.job.estimate || byQueue(a, b));

/** A stream of `EVENTS` events on a queue of `q` jobs: the job that arrives, the place that leaves. */
function stream(q: number) {
  const random = new Random(7, "backfill/bench/queue-order");
  let id = 0;
  const make = (): WaitingJob => {
    const job: Job = {
      id,
      submit: id++,
      runtime: 1,
      estimate: 60 * (1 + Math.floor(random.next() * 60)),
      cores: 1,
    };
    return { job, progress: 0, preemptions: 0 };
  };
  const start: WaitingJob[] = [];
  for (let i = 0; i < q; i++) start.push(make());
  const arrivals: WaitingJob[] = [];
  const leaves: number[] = [];
  for (let e = 0; e < EVENTS; e++) {
    arrivals.push(make());
    leaves.push(Math.floor(random.next() * q));
  }
  return { start, arrivals, leaves };
}

function run(
  s: ReturnType<typeof stream>,
  sort: (w: readonly WaitingJob[], v: SchedulerView) => readonly WaitingJob[],
): number {
  const queue = s.start.slice();
  let sum = 0;
  for (let e = 0; e < EVENTS; e++) {
    queue.splice(s.leaves[e]!, 1);
    queue.push(s.arrivals[e]!);
    sum += sort(queue, VIEW)[0]!.job.id;
  }
  return sum;
}

for (const q of [10, 100, 1_000]) {
  describe(`sjf order, ${EVENTS} events on a queue of ${q} jobs`, () => {
    const s = stream(q);
    bench("kept between events (queueSorter)", () => {
      run(s, queueSorter("sjf", "bench", "order"));
    });
    bench("sorted at every event (copy and sort)", () => {
      run(s, plainSjf);
    });
  });
}
