import {
  createPlatform,
  InvalidInputError,
  type Job,
  maxCoresOf,
  type Platform,
  type Scheduler,
  type SchedulingContext,
  simulate,
} from "@sched/core";
import { arbJobs } from "@sched/core/testing";
import { Random } from "@sched/random";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CLUSTER_PROXIMITIES, CLUSTER_SELECTIONS } from "../src/partition.js";
import { multiClusterPlatform } from "../src/platform.js";
import { DYNAMIC_ALLOTMENTS } from "../src/space-sharing.js";
import { spaceSharingExecutionModel, spaceSharingScheduler } from "../src/space-sharing-core.js";
import { type SpaceSharingPassOptions, spaceSharingPass } from "../src/space-sharing-pass.js";

type StartLog = [now: number, id: number, machines: number[]][];

/** Wraps a scheduler so that every `ctx.start` is logged with the time it was made. */
function logged(inner: Scheduler, log: StartLog): Scheduler {
  return {
    name: inner.name,
    reset: (p) => inner.reset?.(p),
    schedule(ctx) {
      const proxy = new Proxy(ctx, {
        get(target, key) {
          if (key === "start") {
            return (id: number, alloc: readonly { machine: number }[]) => {
              log.push([ctx.view.now, id, alloc.map((a) => a.machine)]);
              return target.start(id, alloc as Parameters<SchedulingContext["start"]>[1]);
            };
          }
          const v = Reflect.get(target, key);
          return typeof v === "function" ? v.bind(target) : v;
        },
      });
      inner.schedule(proxy);
    },
  };
}

/**
 * A scheduler that knows nothing of the policy: at every event it builds the pass's state from
 * the engine's view (the processors it does not hold with a free slot, the ready jobs in queue
 * order, how many it started that still run) and does what the pass says. `skew` adds to
 * `executing`, to show the comparison can fail.
 */
function replayScheduler(options: SpaceSharingPassOptions, seed: number, skew = 0): Scheduler {
  let holding = new Uint8Array(0);
  const held = new Map<number, readonly number[]>();
  let random = new Random(seed, "baseline/selection");
  const init = (p: Platform) => {
    holding = new Uint8Array(p.machines.length);
    held.clear();
    random = new Random(seed, "baseline/selection");
  };
  let platform: Platform | null = null;
  return {
    name: "replay",
    reset(p) {
      platform = p;
      init(p);
    },
    schedule(ctx) {
      const v = ctx.view;
      if (platform !== v.platform) {
        platform = v.platform;
        init(v.platform);
      }
      for (const j of ctx.completed) {
        for (const m of held.get(j.id) ?? []) holding[m] = 0;
        held.delete(j.id);
      }
      const event = ctx.completed.length + ctx.arrived.length + (ctx.ready?.length ?? 0);
      if (event === 0) return;
      const available: number[] = [];
      for (let m = 0; m < holding.length; m++)
        if (!holding[m] && v.freeCores(m) >= 1) available.push(m);
      const queue = v.waiting
        .map((w) => w.job)
        .filter((j) => j.ready === undefined || j.ready <= v.now)
        .map((j) => ({ id: j.id, minProcessors: j.cores, maxProcessors: maxCoresOf(j) }));
      const d = spaceSharingPass(
        { platform: v.platform, available, queue, executing: held.size + skew },
        { ...options, random },
      );
      for (const r of d.rejected) ctx.reject(r.id, r.reason);
      for (const s of d.start) {
        ctx.start(
          s.id,
          s.processors.map((m) => ({ machine: m, cores: 1 })),
        );
        for (const m of s.processors) holding[m] = 1;
        held.set(s.id, s.processors);
      }
    },
  };
}

const arbPlatform: fc.Arbitrary<Platform> = fc
  .array(
    fc.record({
      nodes: fc.integer({ min: 1, max: 4 }),
      coresPerNode: fc.integer({ min: 1, max: 2 }),
      speed: fc.constantFrom(1, 2, 3),
    }),
    { minLength: 1, maxLength: 3 },
  )
  .map((cs) => multiClusterPlatform(cs.map((c) => ({ ...c, latency: 0, bandwidth: 12.5e6 }))));

const arbCase = arbPlatform.chain((platform) =>
  fc.record({
    platform: fc.constant(platform),
    jobs: fc
      .tuple(
        arbJobs(platform, { licenses: false }),
        fc.array(fc.integer({ min: 0, max: 4 }), { maxLength: 20 }),
      )
      .map(([jobs, extra]): readonly Job[] =>
        jobs.map((j, i) => ({ ...j, maxParallelism: j.cores + (extra[i] ?? 0) })),
      ),
    options: fc.record({
      policy: fc.constantFrom("dynamic" as const, "adaptive" as const),
      alpha: fc.integer({ min: 0, max: 4 }),
      baselinePartition: fc.constantFrom("map" as const, "rosti" as const),
      baselineSelection: fc.constantFrom(
        "random" as const,
        "fastest" as const,
        "lowest-index" as const,
      ),
      clusterSelection: fc.constantFrom(...CLUSTER_SELECTIONS),
      clusterProximity: fc.constantFrom(...CLUSTER_PROXIMITIES),
      dynamicAllotment: fc.constantFrom(...DYNAMIC_ALLOTMENTS),
    }),
    seed: fc.integer({ min: 1, max: 1000 }),
  }),
);

let startsSeen = 0;

function sameStarts(skew: number) {
  return fc.property(arbCase, ({ platform, jobs, options, seed }) => {
    const run = (s: Scheduler) => {
      const log: StartLog = [];
      const executionModel = spaceSharingExecutionModel({
        bunching: options.policy === "dynamic" ? "fitness" : "equal",
      });
      simulate(jobs, platform, logged(s, log), { executionModel });
      return log;
    };
    const engine = run(spaceSharingScheduler({ ...options, seed }));
    const replay = run(replayScheduler(options, seed, skew));
    startsSeen += engine.length;
    expect(replay).toEqual(engine);
  });
}

// spaceSharingScheduler calls the pass's unchecked decision (decideSpaceSharing) on a state it
// keeps; the replay calls the public, checked spaceSharingPass on a state rebuilt at each event.
describe("spaceSharingPass against spaceSharingScheduler", () => {
  it("a scheduler that rebuilds the pass's state at every event starts the same jobs on the same processors at the same times", () => {
    startsSeen = 0;
    fc.assert(sameStarts(0), { numRuns: 60 });
    expect(startsSeen).toBeGreaterThan(60);
  });

  it("the comparison can fail: the state off by one executing job is caught", () => {
    const r = fc.check(sameStarts(1), { numRuns: 200, seed: 7 });
    expect(r.failed).toBe(true);
  });
});

describe("spaceSharingPass", () => {
  const platform = createPlatform({
    machines: [{ speed: 1 }, { speed: 1 }, { speed: 1 }, { speed: 1 }],
  });
  const job = (id: number, lo: number, hi: number) => ({
    id,
    minProcessors: lo,
    maxProcessors: hi,
  });

  it("hand-worked: 4 idle processors, two moldable jobs, none executing", () => {
    // Eq. 2, ceil(P / ((queued + 1) + 0.5 * executing)). Head: ceil(4 / 2) = 2 processors.
    // Second: ceil(4 / 1.5) = 3, the pool holds 2 >= alpha: it starts on those 2.
    const d = spaceSharingPass({
      platform,
      available: [0, 1, 2, 3],
      queue: [job(1, 1, 4), job(2, 1, 4)],
      executing: 0,
    });
    expect(d.start.map((s) => [s.id, s.processors.length])).toEqual([
      [1, 2],
      [2, 2],
    ]);
    expect(new Set(d.start.flatMap((s) => s.processors)).size).toBe(4);
  });

  it("rejects a job wider than the platform and serves the head only", () => {
    const d = spaceSharingPass(
      {
        platform,
        available: [1, 2],
        queue: [job(1, 5, 5), job(2, 3, 3), job(3, 1, 1)],
        executing: 1,
      },
      { policy: "adaptive", baselineSelection: "lowest-index" },
    );
    expect(d).toEqual({
      start: [],
      rejected: [{ id: 1, reason: expect.stringContaining("5 processors") }],
    });
  });

  it("names the state field or option in its errors", () => {
    const s = { platform, available: [0], queue: [job(1, 1, 1)], executing: 0 };
    const field = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        expect(e).toBeInstanceOf(InvalidInputError);
        return (e as InvalidInputError).message;
      }
      return "no error";
    };
    expect(field(() => spaceSharingPass({ ...s, available: [0, 4] }))).toContain(
      "state.available[1]",
    );
    expect(field(() => spaceSharingPass({ ...s, available: [2, 2] }))).toContain(
      "state.available[1]",
    );
    expect(field(() => spaceSharingPass({ ...s, executing: -1 }))).toContain("state.executing");
    expect(field(() => spaceSharingPass({ ...s, queue: [job(1, 2, 1)] }))).toContain(
      "state.queue[0].maxProcessors",
    );
    expect(field(() => spaceSharingPass({ ...s, queue: [job(1, 0, 1)] }))).toContain(
      "state.queue[0].minProcessors",
    );
    expect(field(() => spaceSharingPass(s, { policy: "adaptive" }))).toContain("options.random");
    expect(field(() => spaceSharingPass(s, { alpha: 1.5 }))).toContain("options.alpha");
    expect(field(() => spaceSharingPass(s, { clusterProximity: "ring" as never }))).toBe(
      '@sched/multicluster/spaceSharingPass: options.clusterProximity is "ring", expected one of "line", "fewest-clusters", "fastest"',
    );
  });

  it("hand-worked: a job no cluster holds spreads as clusterProximity says", () => {
    // clusters of 3, 1, 4, 1, 2 processors at speeds 1, 1, 1, 3, 2; a 6-wide job alone: the 4
    // of cluster 2 (4-7), then 3 and 8 (line), 0 and 1 (fewest-clusters), 8 and 9 (fastest)
    const spread = multiClusterPlatform(
      [1, 1, 1, 3, 2].map((speed, k) => ({ nodes: [3, 1, 4, 1, 2][k]!, speed })),
    );
    const on = (o: SpaceSharingPassOptions) =>
      spaceSharingPass(
        {
          platform: spread,
          available: Array.from({ length: 11 }, (_, m) => m),
          queue: [job(1, 1, 6)],
          executing: 0,
        },
        o,
      ).start[0]!.processors;
    expect(on({})).toEqual([4, 5, 6, 7, 3, 8]);
    expect(on({ clusterProximity: "fewest-clusters" })).toEqual([4, 5, 6, 7, 0, 1]);
    expect(on({ clusterProximity: "fastest" })).toEqual([4, 5, 6, 7, 8, 9]);
  });

  it("refuses a queue that lists a job twice (it used to start it twice)", () => {
    const s = {
      platform,
      available: [0, 1, 2, 3],
      queue: [job(1, 1, 1), job(1, 1, 1)],
      executing: 0,
    };
    expect(() => spaceSharingPass(s)).toThrow(
      "@sched/multicluster/spaceSharingPass: state.queue[1].id is 1, listed twice in the queue",
    );
  });

  it("a missing state or null options is a typed error, not a TypeError", () => {
    const s = { platform, available: [0], queue: [job(1, 1, 1)], executing: 0 };
    const call = spaceSharingPass as (state: unknown, options?: unknown) => unknown;
    expect(() => call(undefined)).toThrow(
      "@sched/multicluster/spaceSharingPass: state is undefined, expected an object",
    );
    expect(() => call(s, null)).toThrow(
      "@sched/multicluster/spaceSharingPass: options is null, expected an object",
    );
    expect(() => spaceSharingScheduler(null as never)).toThrow(InvalidInputError);
    // null and a hole in the queue: "id is undefined", and a hole was skipped by forEach
    expect(() => call({ ...s, queue: [null] })).toThrow(
      "@sched/multicluster/spaceSharingPass: state.queue[0] is null, expected an object",
    );
    // biome-ignore lint/suspicious/noSparseArray: the hole is the case tested
    expect(() => call({ ...s, queue: [, job(1, 1, 1)] })).toThrow(
      "state.queue[0] is undefined, expected an object",
    );
  });

  // A user trial: a misspelt field was ignored or named only through the field it lacked.
  it("refuses a misspelt field of a queued job, and keeps the caller's own fields", () => {
    const s = { platform, available: [0, 1, 2, 3], queue: [job(1, 1, 4)], executing: 0 };
    const call = spaceSharingPass as (state: unknown) => unknown;
    expect(() => call({ ...s, queue: [{ id: 1, minProcessors: 1, maxProcesors: 4 }] })).toThrow(
      "@sched/multicluster/spaceSharingPass: state.queue[0].maxProcesors is not a field (did you mean `maxProcessors`?)",
    );
    expect(() => call({ ...s, queue: [{ id: 1, minprocessors: 1, maxProcessors: 4 }] })).toThrow(
      "state.queue[0].minprocessors is not a field (did you mean `minProcessors`?)",
    );
    const mine = { user: "ana", state: "PENDING", nodes: 2 };
    expect(spaceSharingPass({ ...s, queue: [{ ...job(1, 1, 4), ...mine }] })).toEqual(
      spaceSharingPass(s),
    );
  });
});
