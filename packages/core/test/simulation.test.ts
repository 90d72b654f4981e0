import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import {
  createSimulation,
  firstFitAllocation,
  identicalPool,
  type Job,
  type JobRecord,
  type Scheduler,
  simulateStream,
} from "../src/index.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const fcfs: Scheduler = {
  name: "fcfs",
  schedule(ctx) {
    const v = ctx.view;
    for (let i = 0; i < v.waitingCount!; i++) {
      const w = v.waitingAt!(i)!;
      const a = firstFitAllocation(v, w.job.cores);
      if (a === null) break;
      ctx.start(w.job.id, a);
    }
  },
};

/** Jobs of 1-4 cores on 8 machines at about half load. */
function jobAt(i: number): Job {
  return { id: i, submit: i * 10, runtime: 20 + (i % 5) * 10, estimate: 60, cores: 1 + (i % 4) };
}

describe("streamed runs hold the jobs in flight, not the run", () => {
  for (const [name, options] of [
    ["with metrics and a record callback", { onRecord: () => {} }],
    ["with nothing to pass records to", { metrics: false }],
  ] as const) {
    it(`lets ended jobs go, ${name}`, async () => {
      const sim = createSimulation(identicalPool(8), fcfs, options);
      const early: WeakRef<Job>[] = [];
      let i = 0;
      const chunk = () => {
        const jobs: Job[] = [];
        for (let k = 0; k < 500; k++, i++) {
          const j = jobAt(i);
          if (i < 200) early.push(new WeakRef(j));
          jobs.push(j);
        }
        return jobs;
      };
      for (let c = 0; c < 20; c++) sim.push(chunk());
      // WeakRef targets stay alive until the current job ends: let it end, then collect.
      await new Promise((resolve) => setTimeout(resolve, 0));
      gc();
      // The first jobs ended long ago: nothing of the engine's keeps them.
      expect(early.filter((r) => r.deref() !== undefined)).toHaveLength(0);
      expect(sim.end().jobs).toBe(10_000);
    });
  }

  it("pass records in input order as soon as every earlier job ended", () => {
    // Job 1 runs long; jobs 2 and 3 end before it: their records wait for job 1's.
    const jobs: Job[] = [
      { id: 1, submit: 0, runtime: 100, estimate: 100, cores: 1 },
      { id: 2, submit: 1, runtime: 5, estimate: 5, cores: 1 },
      { id: 3, submit: 2, runtime: 5, estimate: 5, cores: 1 },
      { id: 4, submit: 200, runtime: 5, estimate: 5, cores: 1 },
    ];
    const log: string[] = [];
    const logged: Scheduler = {
      name: "fcfs-logged",
      schedule(ctx) {
        log.push(`call ${ctx.view.now}`);
        fcfs.schedule(ctx);
      },
    };
    const summary = simulateStream(jobs, identicalPool(2), logged, {
      onRecord: (r: JobRecord) => log.push(`record ${r.job.id}`),
    });
    // Jobs 2 and 3 end at 6 and 11, but their records wait for job 1's, at 100.
    expect(log).toEqual([
      "call 0",
      "call 1",
      "call 2",
      "call 6",
      "call 11",
      "record 1",
      "record 2",
      "record 3",
      "call 100",
      "call 200",
      "record 4",
      "call 205",
    ]);
    expect(summary.jobs).toBe(4);
    // Waits 0, 0, 4 (job 3 starts when job 2 ends at 6), 0.
    expect(summary.metrics!.meanWait).toBe(1);
  });

  it("check their inputs and options, naming them", () => {
    const pool = identicalPool(1);
    expect(() => simulateStream(null as unknown as Job[], pool, fcfs)).toThrow(
      "@sched/core/simulateStream: jobs is not iterable",
    );
    expect(() => simulateStream([], pool, fcfs, { metrics: 3 as unknown as boolean })).toThrow(
      "@sched/core/simulateStream: options.metrics is 3, expected true, false or { tau }",
    );
    expect(() => simulateStream([], pool, fcfs, { metrics: { tau: -1 } })).toThrow(
      "options.tau is -1, expected a finite number > 0",
    );
    expect(() => simulateStream([], pool, fcfs, { metrics: { tua: 5 } as never })).toThrow(
      "@sched/core/simulateStream: options.metrics.tua is not a known key",
    );
    expect(() => simulateStream([], pool, fcfs, { onRecord: 5 as unknown as () => void })).toThrow(
      "@sched/core/simulateStream: options.onRecord is not a function",
    );
    const sim = createSimulation(pool, fcfs);
    expect(() => sim.push(null as unknown as Job[])).toThrow(
      "@sched/core/createSimulation: jobs is not iterable",
    );
    sim.push([jobAt(1), jobAt(2)]);
    expect(() => sim.push([jobAt(0)])).toThrow(
      "@sched/core/createSimulation: jobs[2] (job 0).submit is 0, before the previous job's submit 20",
    );
    const ok = createSimulation(pool, fcfs);
    ok.push([]);
    expect(ok.end().jobs).toBe(0);
    expect(() => ok.end()).toThrow("@sched/core/createSimulation: simulation has ended already");
  });
});
