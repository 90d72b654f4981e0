import {
  createJob,
  createPlatform,
  type Job,
  type Scheduler,
  type SchedulingContext,
  simulate,
} from "@sched/core";
import { makeView } from "@sched/core/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { selectProcessors } from "../src/partition.js";
import { multiClusterPlatform } from "../src/platform.js";
import {
  type LocalMachineOf,
  processorPlatform,
  spaceSharingExecutionModel,
  spaceSharingScheduler,
} from "../src/space-sharing-core.js";

// spaceSharingScheduler reads the ready queue lazily from the view's head and keeps the pool
// flags between calls while its counts agree with the view's; a view without `waitingAt` (a
// hand-made view) makes it read every waiting job and every machine at every call, as it
// always did: the oracle.
function readingEverything(inner: Scheduler): Scheduler {
  return {
    name: inner.name,
    reset: (p) => inner.reset?.(p),
    schedule(ctx: SchedulingContext) {
      const view = new Proxy(ctx.view, {
        get(target, key) {
          if (key === "waitingAt") return undefined;
          const v = Reflect.get(target, key, target);
          return typeof v === "function" ? v.bind(target) : v;
        },
      });
      const hidden = new Proxy(ctx, {
        get(target, key) {
          if (key === "view") return view;
          const v = Reflect.get(target, key, target);
          return typeof v === "function" ? v.bind(target) : v;
        },
      });
      inner.schedule(hidden);
    },
  };
}

const LOCAL_BASE = 1000;
const localById: LocalMachineOf = (job, platform) =>
  job.id >= LOCAL_BASE ? job.id % platform.machines.length : undefined;

describe("spaceSharingScheduler: the queue and pool it keeps", () => {
  it("keeps a processor whose local job it started out of the pool it keeps between calls", () => {
    const platform = processorPlatform(multiClusterPlatform([{ nodes: 2 }]), 2);
    const local = createJob({ id: 100, submit: 0, runtime: 50, cores: 1 });
    const job = createJob({ id: 1, submit: 1, runtime: 10, cores: 1 });
    const s = spaceSharingScheduler({ localMachine: (j) => (j.id === 100 ? 0 : undefined) });
    const started: [number, number][] = [];
    const call = (
      now: number,
      freeCores: number[],
      waiting: Job[],
      arrived: Job[],
      completed: Job[],
    ) =>
      s.schedule({
        view: makeView(platform, { now, freeCores, waiting }),
        arrived,
        completed,
        ready: [],
        woken: false,
        start: (id, allocation) => started.push([id, allocation[0]!.machine]),
        preempt: () => {},
        reject: () => {},
        wakeAt: () => {},
      });
    // a first decision (a job it never started ended): the pool is known from here on
    call(0, [2, 2], [], [], [createJob({ id: 7, submit: 0, runtime: 1, cores: 1 })]);
    call(0, [2, 2], [local], [local], []); // the local job starts on processor 0
    call(1, [1, 2], [job], [job], []); // processor 0 runs it: job 1 goes to processor 1
    expect(started).toEqual([
      [100, 0],
      [1, 1],
    ]);
  });
  it("reads every waiting job of a view made by hand whose count disagrees with the jobs it saw arrive", () => {
    const platform = multiClusterPlatform([{ nodes: 4 }]);
    // job 1 waits in the view but never arrived in a call; job 2 arrives now
    const jobs = [1, 2].map((id) => createJob({ id, submit: 0, runtime: 10, cores: 2 }));
    const started: [number, number][] = [];
    spaceSharingScheduler().schedule({
      view: makeView(platform, { now: 0, freeCores: [1, 1, 1, 1], waiting: jobs }),
      arrived: [jobs[1]!],
      completed: [],
      ready: [],
      woken: false,
      start: (id, allocation) => started.push([id, allocation.length]),
      preempt: () => {},
      reject: () => {},
      wakeAt: () => {},
    });
    // eq. 2 on 4 processors: job 1 (one job queued behind it) ceil(4 / 2) = 2; job 2 its 2 tasks
    expect(started).toEqual([
      [1, 2],
      [2, 2],
    ]);
  });
  it("decides as when it reads every waiting job and machine at every call (ready times, local jobs, both policies)", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            nodes: fc.integer({ min: 1, max: 4 }),
            speed: fc.constantFrom(1, 2),
          }),
          { minLength: 1, maxLength: 3 },
        ),
        fc.array(
          fc.record({
            submit: fc.integer({ min: 0, max: 300 }),
            delay: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 100 })),
            runtime: fc.integer({ min: 1, max: 120 }),
            cores: fc.integer({ min: 1, max: 14 }),
            moldable: fc.boolean(),
            local: fc.boolean(),
          }),
          { minLength: 1, maxLength: 40 },
        ),
        fc.constantFrom("dynamic" as const, "adaptive" as const),
        fc.constantFrom("random" as const, "fastest" as const, "lowest-index" as const),
        fc.integer({ min: 0, max: 3 }),
        (clusters, unsorted, policy, baselineSelection, alpha) => {
          const platform = multiClusterPlatform(clusters.map((c) => ({ ...c, bandwidth: 12.5e6 })));
          const specs = [...unsorted].sort((a, b) => a.submit - b.submit);
          let localId = LOCAL_BASE;
          const jobs: Job[] = specs.map((s, i) =>
            s.local
              ? createJob({ id: localId++, submit: s.submit, runtime: s.runtime, cores: 1 })
              : createJob({
                  id: i + 1,
                  submit: s.submit,
                  ...(s.delay > 0 ? { ready: s.submit + s.delay } : {}),
                  runtime: s.runtime,
                  cores: s.cores,
                  ...(s.moldable ? { maxCores: s.cores + 3 } : {}),
                }),
          );
          const options = { policy, baselineSelection, alpha, localMachine: localById, seed: 7 };
          const sim = {
            executionModel: spaceSharingExecutionModel({ localMachine: localById }),
          };
          const records = (t: ReturnType<typeof simulate>) =>
            t.records.map((r) => [r.job.id, r.outcome, r.reason, r.intervals]);
          const expected = records(
            simulate(jobs, platform, readingEverything(spaceSharingScheduler(options)), sim),
          );
          expect(records(simulate(jobs, platform, spaceSharingScheduler(options), sim))).toEqual(
            expected,
          );
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe("selectProcessors on one cluster", () => {
  it("takes the `count` fastest available processors, lower index first among equals", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(1, 2, 3), { minLength: 1, maxLength: 12 }),
        fc.boolean(),
        fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }),
        fc.integer({ min: 1, max: 13 }),
        fc.constantFrom("fastest" as const, "best-fit" as const, "lowest-index" as const),
        (speeds, equal, bits, count, cluster) => {
          const platform = createPlatform({
            machines: speeds.map((s) => ({ speed: equal ? speeds[0]! : s })),
          });
          const M = platform.machines.length;
          const pm = Array.from({ length: M }, (_, m) => m);
          const available = pm.map((m) => (bits[m] ? 1 : 0));
          const free = pm.filter((m) => available[m] === 1);
          const speed = (m: number) => platform.machines[m]!.speed;
          const want =
            free.length < count
              ? null
              : free.sort((a, b) => speed(b) - speed(a) || a - b).slice(0, count);
          expect(selectProcessors(platform, pm, available, count, { cluster })).toEqual(want);
        },
      ),
      { numRuns: 300 },
    );
  });
});
