import {
  createJob,
  createPlatform,
  eligibleMachines,
  type Job,
  type Platform,
  type Scheduler,
  type SchedulingContext,
  simulate,
} from "@sched/core";
import { Random } from "@sched/random";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { maxMinScheduler, minMinScheduler } from "../src/batch-scheduler.js";
import { canStartNow, NO_MACHINE } from "../src/eligibility.js";
import { jobSize } from "../src/expected-time.js";
import { mct } from "../src/mct.js";
import { mctScheduler } from "../src/mct-scheduler.js";
import { randomScheduler } from "../src/random-scheduler.js";
import { drawnJobs } from "./helpers.js";
import { plainBatch } from "./plain-batch.js";

// The one-machine-per-job mappers on platforms of many machines in few classes (told speed and
// cores alike), where they skip the passes over every machine (MCT's clean machines by class,
// the batch schedulers' short lists, the queue schedulers' starts among the machines with a
// queue and eligible lists by cores), against the plain schedulers as of session 25 (2066580),
// which look at every machine at every event: the same records, job by job. Light loads keep
// most machines idle (the fast paths' case); licenses on some jobs send those events the
// plain way.

/** The plain queue scheduler (random or MCT), every machine looked at per event. */
function plainQueue(kind: "random" | "mct", seed = 1): Scheduler {
  let platformSeen: Platform | null = null;
  let queued: Job[][] = [];
  let running: ({ job: Job; start: number } | null)[] = [];
  const where = new Map<number, number>();
  let rng = new Random(seed, "elo/randomScheduler");
  return {
    name: `plain ${kind}`,
    reset(platform) {
      platformSeen = platform;
      queued = platform.machines.map(() => []);
      running = platform.machines.map(() => null);
      where.clear();
      rng = new Random(seed, "elo/randomScheduler");
    },
    schedule(ctx: SchedulingContext): void {
      const { view } = ctx;
      const platform = view.platform;
      if (platformSeen !== platform) this.reset!(platform);
      const now = view.now;
      for (const job of ctx.completed) {
        const m = where.get(job.id);
        if (m === undefined) continue;
        where.delete(job.id);
        running[m] = null;
      }
      const jobs: Job[] = [];
      const eligible: number[][] = [];
      for (const job of ctx.arrived) {
        const ms = eligibleMachines(job, platform);
        if (ms.length === 0) ctx.reject(job.id, NO_MACHINE);
        else {
          jobs.push(job);
          eligible.push(ms);
        }
      }
      if (jobs.length > 0) {
        let chosen: number[];
        if (kind === "random") {
          chosen = eligible.map((ms) => ms[rng.integer(0, ms.length - 1)]!);
        } else {
          const m = platform.machines.length;
          const speed = (j: number): number => platform.machines[j]!.speed;
          const ready = new Float64Array(m);
          for (let j = 0; j < m; j++) {
            const r = running[j];
            let t = r == null ? now : Math.max(now, r.start + jobSize(r.job, platform) / speed(j));
            for (const q of queued[j]!) t += jobSize(q, platform) / speed(j);
            ready[j] = t;
          }
          const etc = new Float64Array(jobs.length * m).fill(Number.POSITIVE_INFINITY);
          jobs.forEach((job, i) => {
            for (const j of eligible[i]!) etc[i * m + j] = jobSize(job, platform) / speed(j);
          });
          chosen = Array.from(mct({ tasks: jobs.length, machines: m, etc, ready }).machineOf);
        }
        for (let i = 0; i < jobs.length; i++) {
          queued[chosen[i]!]!.push(jobs[i]!);
          where.set(jobs[i]!.id, chosen[i]!);
        }
      }
      for (let m = 0; m < queued.length; m++) {
        const head = queued[m]![0];
        if (head === undefined || running[m] !== null) continue;
        if (!canStartNow(head, m, view)) continue;
        ctx.start(head.id, [{ machine: m, cores: head.cores }]);
        queued[m]!.shift();
        running[m] = { job: head, start: now };
      }
    },
  };
}

// 16 to 96 machines of one or two classes (speed 1 or 3, 1 or 2 cores), laid out at random;
// 40 jobs of 1 to 3 cores (3 fits none) over a long stretch, some with a license usable on the
// even machines, some with a later ready time; sizes of 1 and 3 make equal expected times common.
const scenario = fc
  .record({
    count: fc.integer({ min: 16, max: 96 }),
    kinds: fc.array(fc.record({ speed: fc.constantFrom(1, 3), cores: fc.constantFrom(1, 2) }), {
      minLength: 1,
      maxLength: 2,
    }),
    layout: fc.array(fc.nat(), { minLength: 96, maxLength: 96 }),
    jobs: fc.array(
      fc.record({
        submit: fc.integer({ min: 0, max: 60 }),
        runtime: fc.constantFrom(1, 3, 9),
        estimate: fc.constantFrom(1, 3, 9),
        cores: fc.constantFrom(1, 1, 1, 2, 3),
        license: fc.integer({ min: 0, max: 3 }).map((k) => k === 0),
        delay: fc.option(fc.integer({ min: 0, max: 5 }), { nil: undefined }),
      }),
      { maxLength: 40 },
    ),
  })
  .map(({ count, kinds, layout, jobs }) => {
    const machines = Array.from({ length: count }, (_, j) => kinds[layout[j]! % kinds.length]!);
    const platform = createPlatform({
      machines,
      licenses: [
        { name: "l", copies: 1, machines: Array.from({ length: count >> 1 }, (_, k) => 2 * k) },
      ],
    });
    const list = drawnJobs(jobs, (j) => (j.license ? { l: 1 } : undefined));
    return { platform, jobs: list };
  });

describe("the mappers on platforms of few classes against the plain ones", () => {
  const cases: [string, () => Scheduler, () => Scheduler][] = [
    ["mct", () => mctScheduler(), () => plainQueue("mct")],
    ["random", () => randomScheduler({ seed: 5 }), () => plainQueue("random", 5)],
    ["min-min", () => minMinScheduler(), () => plainBatch(false)],
    ["max-min", () => maxMinScheduler(), () => plainBatch(true)],
  ];
  for (const [name, make, plain] of cases) {
    it(`${name}: the same records`, () => {
      fc.assert(
        fc.property(scenario, ({ platform, jobs }) => {
          const got = simulate(jobs, platform, make());
          const want = simulate(jobs, platform, plain());
          expect(got.records).toEqual(want.records);
        }),
        { numRuns: 150 },
      );
    });
  }
});

// Bursts of equal jobs on hundreds of machines: one event maps up to 15 ready jobs, so the short
// lists of the batch schedulers hold machines on both sides of 10, 100 (the lists are sorted by
// index, and equal expected times go to the lowest), and the lists stay short enough (4 times
// their length at most the machine count) for the short path to run.
const bursts = fc
  .record({
    count: fc.integer({ min: 150, max: 400 }),
    kinds: fc.array(fc.record({ speed: fc.constantFrom(1, 3), cores: fc.constantFrom(1, 2) }), {
      minLength: 1,
      maxLength: 2,
    }),
    layout: fc.array(fc.nat(), { minLength: 400, maxLength: 400 }),
    jobs: fc.array(
      fc.record({
        submit: fc.constantFrom(0, 2, 20),
        runtime: fc.constantFrom(1, 3),
        estimate: fc.constantFrom(1, 3),
        cores: fc.constantFrom(1, 1, 2),
      }),
      { maxLength: 45 },
    ),
  })
  .map(({ count, kinds, layout, jobs }) => {
    const machines = Array.from({ length: count }, (_, j) => kinds[layout[j]! % kinds.length]!);
    const list = jobs
      .map((j, id) => createJob({ id, ...j }))
      .sort((a, b) => a.submit - b.submit || a.id - b.id);
    return { platform: createPlatform({ machines }), jobs: list };
  });

describe("the batch mappers on bursts over hundreds of machines against the plain ones", () => {
  const cases: [string, () => Scheduler, () => Scheduler][] = [
    ["min-min", () => minMinScheduler(), () => plainBatch(false)],
    ["max-min", () => maxMinScheduler(), () => plainBatch(true)],
  ];
  for (const [name, make, plain] of cases) {
    it(`${name}: the same records`, () => {
      fc.assert(
        fc.property(bursts, ({ platform, jobs }) => {
          const got = simulate(jobs, platform, make());
          const want = simulate(jobs, platform, plain());
          expect(got.records).toEqual(want.records);
        }),
        { numRuns: 40 },
      );
    });
  }
});

describe("mct on a platform of one class, when expected times overflow", () => {
  it("fails as the plain way does (no machine completes the 17th job in finite time)", () => {
    const platform = createPlatform({ machines: Array.from({ length: 16 }, () => ({})) });
    const jobs = Array.from({ length: 17 }, (_, id) =>
      createJob({ id, submit: 0, runtime: 1, estimate: 1e308, cores: 1 }),
    );
    let want = "";
    try {
      simulate(jobs, platform, plainQueue("mct"));
    } catch (error) {
      want = (error as Error).message.replace('"plain mct"', '"mct"');
    }
    expect(want).toMatch(/policy "mct" threw at t=0/);
    expect(() => simulate(jobs, platform, mctScheduler())).toThrow(want);
  });
});
