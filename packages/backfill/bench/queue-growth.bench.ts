import { identicalPool, type Scheduler, type SchedulingContext, simulate } from "@sched/core";
import { bench, describe } from "vitest";
import { lublinJobs } from "./lublin.js";
import { POLICIES } from "./policies.js";

// How the cost of one scheduling event grows with the queue inside one run. The workload is the
// overloaded one of bench/lublin-load.bench.ts (100,000 Lublin jobs, seed 2, 256 processors,
// arrival factor 1.1, offered load 1.01): its queue grows from empty to about 900 jobs, so one
// run sees every queue length in that range. Each call of `schedule` is timed
// (`process.hrtime.bigint`, about 0.1 µs of overhead per call) and filed by the number of
// waiting jobs it saw. Each policy prints one "[queue-growth]" line per queue-length bucket:
// the events in it, their mean queue length Q, the mean time per event, and that time divided
// by Q (flat when the cost per event is linear in Q).

const EDGES = [0, 50, 100, 200, 400, 800, 1600, Number.POSITIVE_INFINITY];
const once = { iterations: 1, warmupIterations: 0, time: 0, warmupTime: 0 };
/** Lets the worker answer vitest's messages before a long synchronous run. */
const breathe = () => new Promise((resolve) => setTimeout(resolve, 0));

interface Bucket {
  events: number;
  queued: number;
  ns: number;
}

/** Wraps `inner`, timing each decision into the bucket of its queue length. */
function timed(inner: Scheduler, buckets: Bucket[]): Scheduler {
  return {
    name: inner.name,
    reset(p) {
      inner.reset?.(p);
    },
    schedule(ctx: SchedulingContext) {
      const q = ctx.view.waiting.length;
      const t0 = process.hrtime.bigint();
      inner.schedule(ctx);
      const ns = Number(process.hrtime.bigint() - t0);
      let b = 0;
      while (q >= EDGES[b + 1]!) b++;
      const k = buckets[b]!;
      k.events++;
      k.queued += q;
      k.ns += ns;
    },
  };
}

describe("cost per event against the queue length, one overloaded run (load 1.01)", () => {
  for (const p of POLICIES) {
    bench(
      p.label,
      async () => {
        await breathe();
        const buckets: Bucket[] = EDGES.slice(0, -1).map(() => ({ events: 0, queued: 0, ns: 0 }));
        const jobs = lublinJobs({
          jobs: 100_000,
          procs: 256,
          seed: 2,
          arrivalFactor: 1.1,
          deadlines: p.deadlines,
        });
        simulate(jobs, identicalPool(256), timed(p.make(), buckets));
        for (let b = 0; b < buckets.length; b++) {
          const k = buckets[b]!;
          if (k.events === 0) continue;
          const q = k.queued / k.events;
          const us = k.ns / 1000 / k.events;
          console.log(
            `[queue-growth] ${p.label} | Q in [${EDGES[b]}, ${EDGES[b + 1]}) | events ${k.events} | ` +
              `mean Q ${q.toFixed(0)} | us/event ${us.toFixed(1)} | us/event/Q ${(us / Math.max(1, q)).toFixed(3)}`,
          );
        }
      },
      once,
    );
  }
});
