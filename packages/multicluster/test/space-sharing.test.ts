import { createJob, type Job } from "@sched/core";
import { Random } from "@sched/random";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { multiClusterPlatform } from "../src/platform.js";
import {
  chooseBaseline,
  LocalLoad,
  type SpaceSharingResult,
  simulateSpaceSharing,
} from "../src/space-sharing.js";

const one = multiClusterPlatform([{ nodes: 4 }]);

describe("simulateSpaceSharing: hand-worked cases", () => {
  it("a lone job gets min(maxParallelism, P) processors and pays the scatter", () => {
    const job = createJob({
      id: 1,
      submit: 0,
      runtime: 40,
      cores: 1,
      maxParallelism: 4,
      input: [{ size: 1.25e6, machine: 0 }],
    });
    const r = simulateSpaceSharing([job], one);
    const rec = r.records[0]!;
    expect(rec.processors).toEqual([0, 1, 2, 3]);
    expect(rec.bunches).toEqual([1, 1, 1, 1]);
    // 3 messages of 50 us + (1.25e6 / 4) B / 12.5e6 B/s, then 10 s of work each
    expect(rec.end).toBeCloseTo(3 * (50e-6 + 0.025) + 10, 9);
    expect(r.meanResponse).toBeCloseTo(rec.end, 12);
  });
  it("folds tasks by fitness factor (dynamic) or evenly (adaptive)", () => {
    const het = multiClusterPlatform([
      { nodes: 1, speed: 1 },
      { nodes: 1, speed: 2 },
    ]);
    const job = createJob({ id: 1, submit: 0, runtime: 30, cores: 1, maxParallelism: 3 });
    const d = simulateSpaceSharing([job], het, { policy: "dynamic" });
    // no cluster holds 2: clusters 0 then 1 by proximity; ff = [2, 4]: bunches [1, 2]:
    // 10 s on speed 1, 20 / 2 = 10 s on speed 2
    expect(d.records[0]!.processors).toEqual([0, 1]);
    expect(d.records[0]!.bunches).toEqual([1, 2]);
    expect(d.records[0]!.end).toBeCloseTo(50e-6 + 10, 9); // one message startup, no data
    const a = simulateSpaceSharing([job], het, { policy: "adaptive" });
    // even split [2, 1] on processors [0, 1]: 20 s on the slow one
    expect(a.records[0]!.bunches).toEqual([2, 1]);
    expect(a.records[0]!.end).toBeCloseTo(50e-6 + 20, 9);
  });
  it("sizes partitions by the queue: Rosti ceil(P/(Q+1)), MAP adds executing, dynamic adds 0.5 * executing", () => {
    const p8 = multiClusterPlatform([{ nodes: 8 }]);
    const jobs = [1, 2, 3].map((id) =>
      createJob({ id, submit: 0, runtime: 80, cores: 1, maxParallelism: 8 }),
    );
    const byId0 = (r: SpaceSharingResult, id: number) => r.records.find((x) => x.job.id === id)!;
    const map = simulateSpaceSharing(jobs, p8, { policy: "adaptive" });
    // MAP, every job in the system: ceil(8/3) = 3; ceil(8/(2 + 1)) = 3; ceil(8/(1 + 2)) = 3 > 2 idle
    expect(byId0(map, 1).processors.length).toBe(3);
    expect(byId0(map, 2).processors.length).toBe(3);
    expect(byId0(map, 3).start).toBeGreaterThan(0);
    const half = simulateSpaceSharing(jobs, p8, { policy: "adaptive", executingWeight: 0.5 });
    // weight 0.5: ceil(8/3) = 3; ceil(8/2.5) = 4; ceil(8/2) = 4 > 1 idle
    expect(byId0(half, 2).processors.length).toBe(4);
    const a = simulateSpaceSharing(jobs, p8, { policy: "adaptive", baselinePartition: "rosti" });
    // head sees 2 others queued: ceil(8/3) = 3; then 1 queued: 4; then 0 queued: 8 > 1 idle, waits
    const byId = (r: SpaceSharingResult, id: number) => r.records.find((x) => x.job.id === id)!;
    expect(byId(a, 1).processors.length).toBe(3);
    expect(byId(a, 2).processors.length).toBe(4);
    expect(byId(a, 3).start).toBeGreaterThan(0);
    const d = simulateSpaceSharing(jobs, p8, { policy: "dynamic" });
    // ceil(8/3) = 3; ceil(8/(2 + 0.5)) = 4; ceil(8/(1 + 1)) = 4 but only 1 left (< alpha 2): waits
    expect(byId(d, 1).processors.length).toBe(3);
    expect(byId(d, 2).processors.length).toBe(4);
    expect(byId(d, 3).start).toBeGreaterThan(0);
  });
  it("runs a job on a platform with fewer processors than alpha under background load", () => {
    // regression: waking only when alpha (2) processors are free never woke on 1 processor
    const lone = multiClusterPlatform([{ nodes: 1 }]);
    const job = createJob({ id: 1, submit: 11, runtime: 1, cores: 1, maxParallelism: 1 });
    const r = simulateSpaceSharing([job], lone, { backgroundLoad: 0.3, seed: 0 });
    expect(r.records.length).toBe(1);
    expect(r.records[0]!.end).toBeGreaterThanOrEqual(12);
  });
  it("the dynamic policy starts the head on one processor as soon as one is released, below alpha", () => {
    // Two clusters of one processor, speeds 1 and 3. Job 1 (2 tasks of 15 s) takes both: its
    // processor 1 is done at 5 s (+ the 50 us scatter), processor 0 at 15 s. Jobs 2 and 3
    // arrive at 1: the head's target is ceil(2 / (2 + 0.5 x 1)) = 1 and the pool 0. Processor
    // 1's release grows the pool to 1 = min(target, alpha): job 2 starts then, not at 15 s.
    const two = multiClusterPlatform([
      { nodes: 1, speed: 1 },
      { nodes: 1, speed: 3 },
    ]);
    const jobs = [
      createJob({ id: 1, submit: 0, runtime: 30, cores: 1, maxParallelism: 2 }),
      createJob({ id: 2, submit: 1, runtime: 10, cores: 1, maxParallelism: 2 }),
      createJob({ id: 3, submit: 1, runtime: 10, cores: 1, maxParallelism: 2 }),
    ];
    const r = simulateSpaceSharing(jobs, two);
    const rec = (id: number) => r.records.find((x) => x.job.id === id)!;
    expect(rec(1).processors).toEqual([0, 1]);
    expect(rec(1).release[1]).toBeCloseTo(5 + 50e-6, 9);
    expect(rec(2).start).toBe(rec(1).release[1]);
    expect(rec(2).processors).toEqual([1]);
  });
  it("rejects bad options, naming them", () => {
    expect(() => simulateSpaceSharing([], one, { backgroundLoad: 1 })).toThrow(/backgroundLoad/);
    expect(() =>
      // @ts-expect-error: an unknown rule on purpose
      simulateSpaceSharing([], one, { baselinePartition: "equal" }),
    ).toThrow(/options.baselinePartition is "equal", expected "map" or "rosti"/);
    expect(() => simulateSpaceSharing([], one, { mpl: 1 })).toThrow(/options.mpl is 1/);
    expect(() =>
      simulateSpaceSharing([], one, { mpl: 1, backgroundSharing: "legacy" }),
    ).not.toThrow();
    expect(() =>
      // @ts-expect-error: an unknown rule on purpose
      simulateSpaceSharing([], one, { clusterSelection: "nearest" }),
    ).toThrow(
      /options.clusterSelection is "nearest", expected one of "fastest", "best-fit", "lowest-index"/,
    );
    expect(() =>
      // @ts-expect-error: an unknown reading on purpose
      simulateSpaceSharing([], one, { clusterProximity: "nearest" }),
    ).toThrow(
      '@sched/multicluster/simulateSpaceSharing: options.clusterProximity is "nearest", expected one of "line", "fewest-clusters", "fastest"',
    );
    expect(() =>
      // @ts-expect-error: an unknown rule on purpose
      simulateSpaceSharing([], one, { dynamicAllotment: "all" }),
    ).toThrow(/options.dynamicAllotment is "all", expected "pool" or "target"/);
  });
  it("the dynamic policy's allotment: what the pool holds (pool) or exactly the target (target)", () => {
    // 4 processors. Job 1 (4 tasks of 10 s) arrives at 0 and takes all 4 (target 4). Job 2
    // (2 tasks, 20 s of work) arrives at 1: target min(2, ceil(4 / (1 + 0.5))) = 2, pool empty.
    // At 10 job 1 ends and all 4 return at once: both readings start job 2 on 2 processors.
    // Job 3 (4 tasks) arriving at 1 behind job 2 sees target ceil(4 / (1 + 0.5)) = 3 after job 2
    // starts; with 2 idle processors, pool starts it on 2 (min(3, alpha 2) are idle), target
    // waits; when job 2 ends, its 2 processors return and job 3, alone, has target 4: all 4.
    const jobs = [
      createJob({ id: 1, submit: 0, runtime: 10, cores: 1, maxParallelism: 4 }),
      createJob({ id: 2, submit: 1, runtime: 20, cores: 1, maxParallelism: 2 }),
      createJob({ id: 3, submit: 1, runtime: 20, cores: 1, maxParallelism: 4 }),
    ];
    const by = (r: SpaceSharingResult) => new Map(r.records.map((x) => [x.job.id, x]));
    const pool = by(simulateSpaceSharing(jobs, one, { dynamicAllotment: "pool" }));
    const target = by(simulateSpaceSharing(jobs, one, { dynamicAllotment: "target" }));
    expect(pool.get(2)!.processors).toHaveLength(2);
    expect(target.get(2)!.processors).toHaveLength(2);
    expect(pool.get(3)!.processors).toHaveLength(2);
    expect(pool.get(3)!.start).toBeCloseTo(pool.get(2)!.start, 9);
    expect(target.get(3)!.processors).toHaveLength(4);
    expect(target.get(3)!.start).toBeCloseTo(target.get(2)!.end, 9);
  });
  it("the dynamic policy's cluster: fastest, best-fit or lowest-index, as clusterSelection says", () => {
    // a 2-wide job alone on clusters of 3 slow, 2 fast processors: P = 5, target min(2, 5) = 2
    const het = multiClusterPlatform([
      { nodes: 3, speed: 1 },
      { nodes: 2, speed: 2 },
    ]);
    const job = createJob({ id: 1, submit: 0, runtime: 20, cores: 1, maxParallelism: 2 });
    const on = (clusterSelection: "fastest" | "best-fit" | "lowest-index") =>
      simulateSpaceSharing([job], het, { clusterSelection }).records[0]!;
    expect(on("fastest").processors).toEqual([3, 4]);
    expect(on("best-fit").processors).toEqual([3, 4]); // 2 idle is fewer than 3
    expect(on("lowest-index").processors).toEqual([0, 1]);
    // one 50 us message (no data), then 20 s of work at speed 1 split in two: 10 s at speed 1,
    // 5 s at speed 2
    expect(on("lowest-index").end).toBeCloseTo(50e-6 + 10, 9);
    expect(on("fastest").end).toBeCloseTo(50e-6 + 5, 9);
  });
  it("the dynamic policy's spread over clusters: line, fewest-clusters or fastest, as clusterProximity says; eq. 5 charges them alike", () => {
    // clusters of 3, 1, 4, 1, 2 processors at speeds 1, 1, 1, 3, 2 (processors 0-2, 3, 4-7, 8,
    // 9-10), link latency 1 ms each. A 6-wide job alone: P = 11, target 6, no cluster holds it;
    // all start at cluster 2 (4 available), then 3 and 8 (line), 0 and 1 (fewest-clusters),
    // 8 and 9 (fastest).
    const spread = multiClusterPlatform(
      [1, 1, 1, 3, 2].map((speed, k) => ({ nodes: [3, 1, 4, 1, 2][k]!, speed, latency: 1e-3 })),
    );
    const job = createJob({ id: 1, submit: 0, runtime: 60, cores: 1, maxParallelism: 6 });
    const on = (clusterProximity?: "line" | "fewest-clusters" | "fastest") =>
      simulateSpaceSharing(
        [job],
        spread,
        clusterProximity === undefined ? {} : { clusterProximity },
      ).records[0]!;
    expect(on().processors).toEqual([4, 5, 6, 7, 3, 8]);
    expect(on("line").processors).toEqual([4, 5, 6, 7, 3, 8]);
    expect(on("fewest-clusters").processors).toEqual([4, 5, 6, 7, 0, 1]);
    expect(on("fastest").processors).toEqual([4, 5, 6, 7, 8, 9]);
    // 5 messages of 50 us (no data), 2 of them leaving the root's cluster (+ 2 x 1 ms each),
    // then one 10 s task per processor, the root's cluster at speed 1 the slowest: the same end
    for (const r of ["line", "fewest-clusters", "fastest"] as const) {
      expect(on(r).end).toBeCloseTo(5 * 50e-6 + 2 * 2e-3 + 10, 9);
    }
  });
  it("the baseline's selection: random (seeded), fastest, or lowest-index processors", () => {
    const available = Uint8Array.of(1, 0, 1, 1, 1, 0, 1, 1);
    const speeds = [1, 1, 1, 2, 2, 3, 3, 1];
    const rng = () => new Random(4, "baseline/selection");
    expect(chooseBaseline(available, speeds, 3, "lowest-index", rng())).toEqual([0, 2, 3]);
    expect(chooseBaseline(available, speeds, 3, "fastest", rng())).toEqual([3, 4, 6]);
    const random = chooseBaseline(available, speeds, 3, "random", rng());
    expect(random).toEqual(chooseBaseline(available, speeds, 3, "random", rng()));
    expect(random).toHaveLength(3);
    for (const p of random) expect(available[p]).toBe(1);
    // uniform: over many draws every available processor is picked about 3/6 of the time
    const counts = new Array<number>(8).fill(0);
    const r = rng();
    for (let i = 0; i < 6000; i++) {
      for (const p of chooseBaseline(available, speeds, 3, "random", r)) counts[p]!++;
    }
    for (let p = 0; p < 8; p++) {
      if (available[p]) expect(Math.abs(counts[p]! / 6000 - 0.5)).toBeLessThan(0.03);
      else expect(counts[p]).toBe(0);
    }
  });
  it("a processor shared by a task and a local job: conserving gives each its share, legacy gives the local job all", () => {
    // one local job arriving at 1 with demand 2; a task of 4 s from 0; MPL 2
    const once = () => {
      let n = 0;
      return new LocalLoad(
        () => (n++ === 0 ? 1 : Number.POSITIVE_INFINITY),
        () => 2,
      );
    };
    // conserving: 1 s alone, then both at 1/2 until the local job's 2 s are done at 5 (the
    // task has 3 s done), then 1 s alone: 6
    const c = once();
    expect(c.runTask(0, 4, { task: 0.5, local: 0.5 }, 0)).toBeCloseTo(6, 12);
    expect(c.busy(5.5)).toBe(false);
    // legacy: the local job runs 1..3 unslowed; the task does 1 + 1 by 3, then 2 alone: 5
    const l = once();
    expect(l.runTask(0, 4, { task: 0.5, local: 1 }, 0)).toBeCloseTo(5, 12);
    // with context switches: 2 x 0.1 more work for the one local job met
    expect(once().runTask(0, 4, { task: 0.5, local: 0.5 }, 0.2)).toBeCloseTo(6.2, 12);
    // a task started while a local job runs pays the switch for it too: the local job from 0
    // has 1 s left at 1, both at 1/2 until 3 (the task 1 s of its 4 + 0.2), then 3.2 s alone
    const early = () => {
      let n = 0;
      return new LocalLoad(
        () => (n++ === 0 ? 0 : Number.POSITIVE_INFINITY),
        () => 2,
      );
    };
    expect(early().runTask(1, 4, { task: 0.5, local: 0.5 }, 0.2)).toBeCloseTo(6.2, 12);
    expect(early().runTask(1, 4, { task: 0.5, local: 0.5 }, 0)).toBeCloseTo(6, 12);
    // alone, the local job runs 1..3
    const alone = once();
    expect([alone.busy(0.5), alone.busy(2), alone.nextEnd(2), alone.busy(3.5)]).toEqual([
      false,
      true,
      3,
      false,
    ]);
  });
});

function arbCase() {
  return fc.record({
    sizes: fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 3 }),
    speeds: fc.array(fc.constantFrom(1, 1.5, 2), { minLength: 3, maxLength: 3 }),
    jobs: fc.array(
      fc.record({
        gap: fc.integer({ min: 0, max: 20 }),
        runtime: fc.integer({ min: 1, max: 60 }),
        maxPar: fc.integer({ min: 1, max: 12 }),
      }),
      { minLength: 1, maxLength: 12 },
    ),
    load: fc.constantFrom(0, 0.3),
    policy: fc.constantFrom("dynamic" as const, "adaptive" as const),
    sharing: fc.constantFrom("conserving" as const, "legacy" as const),
    selection: fc.constantFrom("random" as const, "fastest" as const, "lowest-index" as const),
    partition: fc.constantFrom("map" as const, "rosti" as const),
    seed: fc.nat(1000),
  });
}

describe("simulateSpaceSharing: invariants", () => {
  it("runs every job once, never two tasks on a processor at a time, and is deterministic", () => {
    fc.assert(
      fc.property(arbCase(), (c) => {
        const platform = multiClusterPlatform(
          c.sizes.map((n, k) => ({ nodes: n, speed: c.speeds[k]! })),
        );
        let t = 0;
        const jobs: Job[] = c.jobs.map((j, i) => {
          t += j.gap;
          return createJob({
            id: i,
            submit: t,
            runtime: j.runtime,
            cores: 1,
            maxParallelism: j.maxPar,
          });
        });
        const opts = {
          policy: c.policy,
          backgroundLoad: c.load,
          seed: c.seed,
          backgroundSharing: c.sharing,
          baselineSelection: c.selection,
          baselinePartition: c.partition,
        };
        const r = simulateSpaceSharing(jobs, platform, opts);
        expect(r.records.map((x) => x.job.id).sort((a, b) => a - b)).toEqual(jobs.map((j) => j.id));
        const spans: [number, number][][] = Array.from(
          { length: platform.machines.length },
          () => [],
        );
        for (const rec of r.records) {
          expect(rec.start).toBeGreaterThanOrEqual(rec.job.submit);
          expect(new Set(rec.processors).size).toBe(rec.processors.length);
          expect(rec.processors.length).toBeLessThanOrEqual(rec.job.maxParallelism!);
          expect(rec.bunches.reduce((s, b) => s + b, 0)).toBe(rec.job.maxParallelism);
          // no faster than the whole job on the fastest processors (speed 2)
          expect(rec.end - rec.start).toBeGreaterThanOrEqual(
            rec.job.runtime / 2 / rec.processors.length - 1e-9,
          );
          rec.processors.forEach((p, i) => {
            spans[p]!.push([rec.start, rec.release[i]!]);
          });
        }
        for (const s of spans) {
          s.sort((x, y) => x[0] - y[0]);
          for (let i = 1; i < s.length; i++)
            expect(s[i]![0]).toBeGreaterThanOrEqual(s[i - 1]![1] - 1e-9);
        }
        expect(r.utilization).toBeGreaterThanOrEqual(0);
        expect(r.utilization).toBeLessThanOrEqual(1 + 1e-9);
        expect(simulateSpaceSharing(jobs, platform, opts)).toEqual(r);
      }),
      { numRuns: 60 },
    );
  });
  it("a lone job: background load never makes it faster, nor conserving sharing than legacy (its local jobs last longer)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100 }),
        fc.integer({ min: 1, max: 8 }),
        fc.nat(1000),
        (rt, mp, seed) => {
          const job = createJob({ id: 1, submit: 0, runtime: rt, cores: 1, maxParallelism: mp });
          const plat = multiClusterPlatform([{ nodes: 8 }]);
          const span = (o: Parameters<typeof simulateSpaceSharing>[2]) => {
            const r = simulateSpaceSharing([job], plat, { seed, ...o }).records[0]!;
            return r.end - r.start;
          };
          const free = span({ policy: "adaptive" });
          expect(span({ policy: "adaptive", backgroundLoad: 0.5 })).toBeGreaterThanOrEqual(
            free - 1e-9,
          );
          const conserving = span({ backgroundLoad: 0.4, backgroundSharing: "conserving" });
          expect(conserving).toBeGreaterThanOrEqual(
            span({ backgroundLoad: 0.4, backgroundSharing: "legacy" }) - 1e-9,
          );
        },
      ),
      { numRuns: 50 },
    );
  });
});
