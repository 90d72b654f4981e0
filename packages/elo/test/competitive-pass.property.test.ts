import { createPlatform, type Job, type Platform, type Scheduler, simulate } from "@sched/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type CompetitiveMemory,
  type CompetitivePassOptions,
  type CompetitiveState,
  competitivePass,
} from "../src/competitive-pass.js";
import { competitiveScheduler } from "../src/competitive-scheduler.js";
import { drawnJobs } from "./helpers.js";

/** Machines of 1-2 cores, a floating license and a node-locked one; jobs that may ask for them. */
const scenario = fc.record({
  machines: fc.array(
    fc.record({ speed: fc.integer({ min: 1, max: 9 }), cores: fc.integer({ min: 1, max: 2 }) }),
    { minLength: 1, maxLength: 6 },
  ),
  cadCopies: fc.integer({ min: 1, max: 2 }),
  jobs: fc.array(
    fc.record({
      submit: fc.integer({ min: 0, max: 60 }),
      runtime: fc.integer({ min: 1, max: 100 }),
      estimate: fc.integer({ min: 1, max: 150 }),
      cores: fc.integer({ min: 1, max: 3 }),
      delay: fc.option(fc.integer({ min: 1, max: 30 }), { nil: undefined }),
      license: fc.constantFrom(undefined, "cad", "fpga"),
    }),
    { maxLength: 25 },
  ),
  options: fc.record({
    tierWidth: fc.constantFrom(15, 100, 500),
    baseRating: fc.constantFrom(40, 250),
    levelScale: fc.constantFrom("log" as const, "linear" as const),
    stickyTopTier: fc.boolean(),
    tierSearch: fc.constantFrom(
      "faster-first" as const,
      "slower-first" as const,
      "nearest" as const,
    ),
  }),
});
type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

function build(s: Scenario): { platform: Platform; jobs: Job[] } {
  const platform = createPlatform({
    machines: s.machines,
    referenceSpeed: 9,
    licenses: [
      { name: "cad", copies: s.cadCopies },
      { name: "fpga", kind: "node-locked", copies: 1, machines: [0] },
    ],
  });
  const jobs = drawnJobs(s.jobs, (j) => (j.license === undefined ? undefined : { [j.license]: 1 }));
  return { platform, jobs };
}

/** What a policy did at each event: starts, rejections and rating updates, with the time. */
type Log = string[];

/** The engine's `competitiveScheduler`, its decisions logged event by event. */
function viaScheduler(s: Scenario): Log {
  const { platform, jobs } = build(s);
  const log: Log = [];
  const inner = competitiveScheduler({
    ...s.options,
    onRatingUpdate: (e) => log.push(`update ${e.time} ${JSON.stringify(e)}`),
  });
  const spy: Scheduler = {
    name: "spy",
    reset: (p) => inner.reset?.(p),
    schedule(ctx) {
      inner.schedule({
        ...ctx,
        start(id, allocation) {
          log.push(`start ${ctx.view.now} ${id} ${allocation[0]?.machine}`);
          ctx.start(id, allocation);
        },
        reject(id, reason) {
          log.push(`reject ${ctx.view.now} ${id} ${reason}`);
          ctx.reject(id, reason);
        },
      });
    },
  };
  simulate(jobs, platform, spy);
  return log;
}

/**
 * The same instance replayed through `competitivePass`: at each event the state is built from
 * what a resource manager sees (time, completions with their machine, the queue, idle
 * machines), and the decision applied. `bug` breaks the replay to show the comparison can fail.
 * With `wakeOnly`, the loop's only events are submissions, completions and the decisions'
 * `wakeAt`: the engine runs the jobs without their ready times (so it never calls at one) and
 * the pass gets each queued job's `ready` back from the workload.
 */
function viaPass(s: Scenario, bug?: "dropCompletions" | "reverseQueue", wakeOnly = false): Log {
  const built = build(s);
  const platform = built.platform;
  const readyOf = new Map<number, number>();
  const jobs = !wakeOnly
    ? built.jobs
    : built.jobs.map((j) => {
        if (j.ready === undefined) return j;
        readyOf.set(j.id, j.ready);
        const { ready: _ready, ...rest } = j;
        return rest;
      });
  const timers = new Set<number>();
  const log: Log = [];
  const options: CompetitivePassOptions = s.options;
  let memory: CompetitiveMemory | undefined;
  const machineOf = new Map<number, number>();
  const replay: Scheduler = {
    name: "replay",
    reset: () => {
      memory = undefined;
      machineOf.clear();
      timers.clear();
    },
    schedule(ctx) {
      const { view } = ctx;
      const free: number[] = [];
      platform.machines.forEach((m, i) => {
        if (view.freeCores(i) === m.cores) free.push(i);
      });
      const queue = [...view.waiting].map((w) => {
        const ready = readyOf.get(w.job.id);
        return ready === undefined ? w.job : { ...w.job, ready };
      });
      const state: CompetitiveState = {
        now: view.now,
        platform,
        completed:
          bug === "dropCompletions"
            ? []
            : ctx.completed.map((j) => ({ id: j.id, machine: machineOf.get(j.id) as number })),
        queue: bug === "reverseQueue" ? queue.reverse() : queue,
        free,
        ...(memory === undefined ? {} : { memory }),
      };
      const d = competitivePass(state, options);
      memory = d.memory;
      for (const u of d.updates) log.push(`update ${u.time} ${JSON.stringify(u)}`);
      for (const r of d.rejected) {
        log.push(`reject ${view.now} ${r.id} ${r.reason}`);
        ctx.reject(r.id, r.reason);
      }
      for (const { id, machine } of d.start) {
        log.push(`start ${view.now} ${id} ${machine}`);
        machineOf.set(id, machine);
        const job = queue.find((j) => j.id === id) as Job;
        ctx.start(id, [{ machine, cores: job.cores }]);
      }
      if (wakeOnly && d.wakeAt !== undefined && !timers.has(d.wakeAt)) {
        timers.add(d.wakeAt);
        ctx.wakeAt(d.wakeAt);
      }
    },
  };
  simulate(jobs, platform, replay);
  return log;
}

/** The logs' lines in a canonical order within one event (the pass reports rejections before starts). */
function byEvent(log: Log): string[] {
  return log
    .map((l, i) => [l.split(" ")[1], l.split(" ")[0], i, l] as const)
    .sort(
      (a, b) =>
        Number(a[0]) - Number(b[0]) ||
        (a[1] === "start" ? 1 : 0) - (b[1] === "start" ? 1 : 0) ||
        a[2] - b[2],
    )
    .map((x) => x[3]);
}

describe("competitivePass", () => {
  it("decides as competitiveScheduler, event by event (starts, rejections, rating updates)", () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const expected = viaScheduler(s);
        expect(byEvent(viaPass(s))).toEqual(byEvent(expected));
      }),
      { numRuns: 150 },
    );
  });

  it("called only at submissions, completions and wakeAt (no ready-time events), decides as competitiveScheduler", () => {
    fc.assert(
      fc.property(scenario, (s) => {
        expect(byEvent(viaPass(s, undefined, true))).toEqual(byEvent(viaScheduler(s)));
      }),
      { numRuns: 150 },
    );
  });

  it.each(["dropCompletions", "reverseQueue"] as const)(
    "the comparison fails when the replay is broken (%s)",
    (bug) => {
      const result = fc.check(
        fc.property(scenario, (s) => {
          expect(byEvent(viaPass(s, bug))).toEqual(byEvent(viaScheduler(s)));
        }),
        { numRuns: 300, seed: 7 },
      );
      expect(result.failed).toBe(true);
    },
  );
});
