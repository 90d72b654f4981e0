import {
  checkSchedule,
  createJob,
  InvalidInputError,
  type Job,
  type Platform,
  type ScheduleTrace,
  simulate,
} from "@sched/core";
import { arbJobs, schedulerSpecs } from "@sched/core/testing";
import { multiclusterWorkload } from "@sched/workload";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  CLUSTER_PROXIMITIES,
  CLUSTER_SELECTIONS,
  dynamicPartitionSize,
  mapPartitionSize,
} from "../src/partition.js";
import { multiClusterPlatform } from "../src/platform.js";
import { DYNAMIC_ALLOTMENTS, simulateSpaceSharing } from "../src/space-sharing.js";
import {
  type LocalMachineOf,
  processorPlatform,
  simulateSpaceSharingOnCore,
  spaceSharingExecutionModel,
  spaceSharingScheduler,
} from "../src/space-sharing-core.js";
import { holdUntilEndOracle } from "./support/hold-until-end-oracle.js";

/** The moldable workload of @sched/workload for `processors` homogeneous processors. */
function moldable(jobs: number, load: number, processors: number, seed: number): readonly Job[] {
  return multiclusterWorkload({
    jobs,
    load,
    clusters: 1,
    processorsPerCluster: processors,
    maxParallelism: [1, processors],
    seed,
  }).jobs;
}

/** Jobs with ids >= 1000 are local, pinned to machine id % machines. */
const LOCAL_BASE = 1000;
const localById: LocalMachineOf = (job, platform) =>
  job.id >= LOCAL_BASE ? job.id % platform.machines.length : undefined;

/** Small multi-cluster platforms: 1..3 clusters of 1..3 processors, 1 or 2 slots, speeds, latencies. */
const arbMultiCluster: fc.Arbitrary<Platform> = fc
  .array(
    fc.record({
      nodes: fc.integer({ min: 1, max: 3 }),
      coresPerNode: fc.integer({ min: 1, max: 2 }),
      speed: fc.constantFrom(1, 1.5, 2, 3),
      latency: fc.constantFrom(0, 1e-3),
    }),
    { minLength: 1, maxLength: 3 },
  )
  .map((cs) => multiClusterPlatform(cs.map((c) => ({ ...c, bandwidth: 12.5e6 }))));

/** Core's random workloads (no licenses), some made moldable, plus local jobs (ids >= 1000). */
function arbMixed(platform: Platform): fc.Arbitrary<readonly Job[]> {
  return fc
    .tuple(
      arbJobs(platform, { licenses: false }),
      fc.array(fc.integer({ min: 1, max: 4 }), { maxLength: 20 }),
      fc.array(
        fc.record({
          submit: fc.integer({ min: 0, max: 200 }),
          runtime: fc.integer({ min: 1, max: 30 }),
        }),
        { maxLength: 8 },
      ),
    )
    .map(([jobs, extra, locals]) => {
      const parallel = jobs.map((j, i) =>
        i < extra.length ? { ...j, maxParallelism: j.cores + extra[i]! } : j,
      );
      const local = locals.map((l, i) =>
        createJob({ id: LOCAL_BASE + i, submit: l.submit, runtime: l.runtime, cores: 1 }),
      );
      return [...parallel, ...local].sort((a, b) => a.submit - b.submit || a.id - b.id);
    });
}

for (const policy of ["dynamic", "adaptive"] as const) {
  schedulerSpecs(
    `spaceSharingScheduler ${policy}`,
    () => spaceSharingScheduler({ policy, localMachine: localById, seed: 3 }),
    {
      platform: arbMultiCluster,
      jobs: arbMixed,
      numRuns: 30,
      executionModel: spaceSharingExecutionModel({
        bunching: policy === "dynamic" ? "fitness" : "equal",
        localMachine: localById,
      }),
    },
  );
}

/** The platform of the paper's experiment. */
function paperPlatform(heterogeneous: boolean): Platform {
  const speeds = [1, 1, 1.3, 1.3, 1.7, 1.7, 2.2, 2.2];
  return multiClusterPlatform(
    Array.from({ length: 8 }, (_, k) => ({
      nodes: 8,
      speed: heterogeneous ? speeds[k]! : 1,
      bandwidth: 12.5e6,
    })),
  );
}

/** Per processor, the [start, end, job, local] intervals of a trace. */
function perProcessor(trace: ScheduleTrace, firstLocal: number) {
  const out: [number, number, number, boolean][][] = trace.platform.machines.map(() => []);
  for (const r of trace.records) {
    for (const iv of r.intervals) {
      for (const part of iv.allocation) {
        out[part.machine]!.push([iv.start, iv.end, r.job.id, r.job.id >= firstLocal]);
      }
    }
  }
  return out;
}

describe("spaceSharingScheduler: hand-worked cases", () => {
  const het = multiClusterPlatform([
    { nodes: 2, speed: 1, latency: 1e-3, bandwidth: 12.5e6 },
    { nodes: 2, speed: 2, latency: 1e-3, bandwidth: 12.5e6 },
  ]);
  const engine = processorPlatform(het, 2);
  const jobs = [
    createJob({
      id: 1,
      submit: 0,
      runtime: 12,
      cores: 1,
      maxParallelism: 8,
      input: [{ size: 1.25e6, machine: 0 }],
    }),
    createJob({ id: 2, submit: 1, runtime: 2, cores: 1, maxParallelism: 2 }),
  ];

  it("dynamic: partition 4 across both clusters, fitness bunches [1, 1, 3, 3]; then the fast cluster", () => {
    const trace = simulate(jobs, engine, spaceSharingScheduler({ policy: "dynamic" }), {
      executionModel: spaceSharingExecutionModel({ bunching: "fitness" }),
    });
    const [a, b] = trace.records;
    // ps = ceil(4 / 1) = 4; no cluster holds 4: cluster 0 then 1, fastest first
    expect(a!.intervals[0]!.allocation.map((p) => p.machine)).toEqual([0, 1, 2, 3]);
    // ff = [2, 2, 4, 4], 8 tasks: [1, 1, 3, 3]; 1.5 s per task: 1.5, 1.5, 4.5 / 2, 4.5 / 2
    // scatter: 3 x (50 us + 1.25e6 / 4 / 12.5e6 s) + 2 messages across clusters x 2 x 1 ms
    const endA = 3 * (50e-6 + 0.025) + 2 * 2e-3 + 2.25;
    expect(a!.end).toBeCloseTo(endA, 12);
    // job 2 waits for the pool; then ps = 4, target 2: cluster 1 (power 4 > 2); bunches [1, 1]
    expect(b!.intervals[0]!.start).toBe(a!.end);
    expect(b!.intervals[0]!.allocation.map((p) => p.machine)).toEqual([2, 3]);
    expect(b!.end).toBeCloseTo(endA + 50e-6 + 0.5, 12);
    expect(checkSchedule(trace, { executionModel: spaceSharingExecutionModel() })).toEqual([]);
  });

  it("adaptive (lowest-index selection): even bunches [2, 2, 2, 2]: the slow processors set the pace", () => {
    const adaptive = spaceSharingScheduler({
      policy: "adaptive",
      baselineSelection: "lowest-index",
    });
    const trace = simulate(jobs, engine, adaptive, {
      executionModel: spaceSharingExecutionModel({ bunching: "equal" }),
    });
    const [a, b] = trace.records;
    expect(a!.intervals[0]!.allocation.map((p) => p.machine)).toEqual([0, 1, 2, 3]);
    const endA = 3 * (50e-6 + 0.025) + 2 * 2e-3 + 3;
    expect(a!.end).toBeCloseTo(endA, 12);
    // MAP: ceil(4 / (1 + 0)) = 4, target min(2, 4) = 2: processors 0, 1 (speed 1), one task each
    expect(b!.intervals[0]!.allocation.map((p) => p.machine)).toEqual([0, 1]);
    expect(b!.end).toBeCloseTo(endA + 50e-6 + 1, 12);
  });

  it("interference (MPL 2): task and local job halve the processor (conserving), or only the task is slowed (legacy)", () => {
    const one = processorPlatform(multiClusterPlatform([{ nodes: 2 }]), 2);
    const local: LocalMachineOf = (job) => (job.id >= 100 ? 0 : undefined);
    const run = (list: Job[], backgroundSharing: "conserving" | "legacy") => {
      const model = spaceSharingExecutionModel({
        bunching: "equal",
        localMachine: local,
        backgroundSharing,
      });
      const trace = simulate(
        list,
        one,
        spaceSharingScheduler({
          policy: "adaptive",
          baselineSelection: "lowest-index",
          localMachine: local,
        }),
        { executionModel: model },
      );
      expect(checkSchedule(trace, { executionModel: model })).toEqual([]);
      return trace;
    };
    const single = [
      createJob({ id: 1, submit: 0, runtime: 4, cores: 1, maxParallelism: 1 }),
      createJob({ id: 100, submit: 1, runtime: 2, cores: 1 }),
    ];
    // one task of 4 s on processor 0, a 2 s local job there at t = 1. Conserving: both at 1/2
    // from 1; the local job's 2 s end at 5, the task has 3 s done then: ends at 6. Legacy: the
    // local job is not slowed (ends at 3), the task does 1 s in 1..3: ends at 5
    expect(run(single, "conserving").records.map((r) => r.end)).toEqual([6, 5]);
    expect(run(single, "legacy").records.map((r) => r.end)).toEqual([5, 3]);
    // two equal bunches (4 s each + 50 us scatter), the local job on one: the job's rate is the
    // mean of 1 and 1/2, 3/4 (slowdown 4/3). Legacy: from 1 to 3 it does 1.5 s, ends at
    // 3 + (4.00005 - 1 - 1.5) = 4.50005. Conserving: the local job runs at 1/2 until 5, the job
    // does 3 s in 1..5 and its last 50 us alone: 5.00005
    const pair = [
      createJob({ id: 1, submit: 0, runtime: 8, cores: 1, maxParallelism: 2 }),
      createJob({ id: 100, submit: 1, runtime: 2, cores: 1 }),
    ];
    expect(run(pair, "legacy").records[0]!.end).toBeCloseTo(4.50005, 9);
    expect(run(pair, "conserving").records[0]!.end).toBeCloseTo(5.00005, 9);
    // the same work with the processor to itself
    const alone = run([pair[0]!], "conserving");
    expect(alone.records[0]!.end).toBeCloseTo(4.00005, 12);
  });

  it("local jobs queue first come first served on their processor", () => {
    const one = processorPlatform(multiClusterPlatform([{ nodes: 1 }]), 2);
    const local: LocalMachineOf = () => 0;
    const trace = simulate(
      [
        createJob({ id: 1, submit: 0, runtime: 3, cores: 1 }),
        createJob({ id: 2, submit: 1, runtime: 3, cores: 1 }),
      ],
      one,
      spaceSharingScheduler({ localMachine: local }),
      { executionModel: spaceSharingExecutionModel({ localMachine: local }) },
    );
    expect(trace.records.map((r) => [r.intervals[0]!.start, r.end])).toEqual([
      [0, 3],
      [3, 6],
    ]);
  });

  it("rejects a rigid job wider than the platform, with a reason", () => {
    const trace = simulate(
      [createJob({ id: 1, submit: 0, runtime: 3, cores: 5 })],
      engine,
      spaceSharingScheduler(),
      { executionModel: spaceSharingExecutionModel() },
    );
    expect(trace.records[0]!.outcome).toBe("rejected");
    expect(trace.records[0]!.reason).toMatch(/needs 5 processors/);
  });
});

describe("spaceSharingExecutionModel: hand-worked durations", () => {
  it("folds max(tasks, processors) tasks: a 2-task job on 3 processors has one task each", () => {
    const platform = processorPlatform(multiClusterPlatform([{ nodes: 3 }]), 2);
    const job = createJob({ id: 1, submit: 0, runtime: 30, cores: 2 });
    const three = [0, 1, 2].map((machine) => ({ machine, cores: 1 }));
    // work 30 x 2 = 60 over 3 tasks: 20 s each; scatter to 2 processors, 50 us each, no data
    const model = spaceSharingExecutionModel({ bunching: "equal" });
    expect(model.duration(job, three, platform, 30)).toBeCloseTo(20 + 2 * 50e-6, 12);
  });
});

describe("spaceSharingScheduler: errors", () => {
  it("names the bad option or job", () => {
    expect(() => spaceSharingScheduler({ alpha: -1 })).toThrow(/options\.alpha/);
    expect(() => spaceSharingScheduler({ policy: "x" as never })).toThrow(InvalidInputError);
    expect(() => spaceSharingExecutionModel({ mpl: 0 })).toThrow(/options\.mpl/);
    expect(() => spaceSharingExecutionModel({ mpl: 1 })).toThrow(/options\.mpl is 1/);
    expect(() => spaceSharingScheduler({ baselineSelection: "slowest" as never })).toThrow(
      /options\.baselineSelection is "slowest"/,
    );
    expect(() => spaceSharingScheduler({ dynamicAllotment: "half" as never })).toThrow(
      '@sched/multicluster/spaceSharingScheduler: options.dynamicAllotment is "half", expected "pool" or "target"',
    );
    expect(() => spaceSharingScheduler({ clusterSelection: "nearest" as never })).toThrow(
      '@sched/multicluster/spaceSharingScheduler: options.clusterSelection is "nearest", expected one of "fastest", "best-fit", "lowest-index"',
    );
    expect(() => spaceSharingScheduler({ clusterProximity: "ring" as never })).toThrow(
      '@sched/multicluster/spaceSharingScheduler: options.clusterProximity is "ring", expected one of "line", "fewest-clusters", "fastest"',
    );
    expect(() =>
      simulateSpaceSharingOnCore([], multiClusterPlatform([{ nodes: 1 }]), {
        clusterProximity: "ring" as never,
      }),
    ).toThrow(
      '@sched/multicluster/simulateSpaceSharingOnCore: options.clusterProximity is "ring", expected one of "line", "fewest-clusters", "fastest"',
    );
    expect(() => spaceSharingExecutionModel({ bandwidth: 0 })).toThrow(/options\.bandwidth/);
    expect(() => processorPlatform(multiClusterPlatform([{ nodes: 1 }]), 0)).toThrow(/slots/);
    expect(() =>
      simulateSpaceSharingOnCore([], multiClusterPlatform([{ nodes: 1 }]), { mpl: 0 }),
    ).toThrow(/simulateSpaceSharingOnCore.*options\.mpl/);
    const p = processorPlatform(multiClusterPlatform([{ nodes: 1 }]), 2);
    const wide = createJob({ id: 7, submit: 0, runtime: 1, cores: 2 });
    expect(() =>
      simulate([wide], p, spaceSharingScheduler({ localMachine: () => 0 }), {
        executionModel: spaceSharingExecutionModel({ localMachine: () => 0 }),
      }),
    ).toThrow(/job 7 \(local\)\.cores/);
    expect(() =>
      simulate(
        [createJob({ id: 8, submit: 0, runtime: 1, cores: 1 })],
        p,
        spaceSharingScheduler({ localMachine: () => 3 }),
      ),
    ).toThrow(/job 8 \(local\) machine/);
  });
});

describe("simulateSpaceSharingOnCore against the hold-until-end oracle (test/support)", () => {
  /** Relative agreement: the engine adds the scatter and the longest bunch before `now`. */
  const close = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));

  it("without background load: the same schedule as the oracle, job by job", () => {
    for (const heterogeneous of [false, true]) {
      const platform = paperPlatform(heterogeneous);
      for (const load of [0.3, 0.8]) {
        const jobs = moldable(300, load, 64, 3);
        for (const policy of ["dynamic", "adaptive"] as const) {
          const own = holdUntilEndOracle(jobs, platform, { policy });
          const core = simulateSpaceSharingOnCore(jobs, platform, { policy });
          expect(close(core.meanResponse, own.meanResponse), `${policy} ${load}`).toBe(true);
          expect(close(core.utilization, own.utilization)).toBe(true);
          const ends = new Map(own.records.map((r) => [r.job.id, r]));
          for (const r of core.trace.records) {
            const o = ends.get(r.job.id)!;
            expect(close(r.intervals[0]!.start, o.start)).toBe(true);
            expect(close(r.end!, o.end)).toBe(true);
            expect(r.intervals[0]!.allocation.map((p) => p.machine)).toEqual(o.processors);
          }
        }
      }
    }
  });

  it("property: random small platforms and moldable workloads, no background: same ends", () => {
    fc.assert(
      fc.property(
        arbMultiCluster,
        fc.integer({ min: 1, max: 40 }),
        fc.double({ min: 0.1, max: 0.9, noNaN: true }),
        fc.integer({ min: 1, max: 1000 }),
        fc.constantFrom("dynamic" as const, "adaptive" as const),
        fc.integer({ min: 0, max: 3 }),
        fc.constantFrom("random" as const, "fastest" as const, "lowest-index" as const),
        fc.constantFrom(...CLUSTER_SELECTIONS),
        fc.constantFrom(...DYNAMIC_ALLOTMENTS),
        fc.constantFrom(...CLUSTER_PROXIMITIES),
        (
          platform,
          n,
          load,
          seed,
          policy,
          alpha,
          baselineSelection,
          clusterSelection,
          dynamicAllotment,
          clusterProximity,
        ) => {
          const jobs = moldable(n, load, platform.totalCores, seed);
          const options = {
            policy,
            alpha,
            baselineSelection,
            clusterSelection,
            clusterProximity,
            dynamicAllotment,
            seed,
          };
          const own = holdUntilEndOracle(jobs, platform, options);
          const core = simulateSpaceSharingOnCore(jobs, platform, options);
          const byId = new Map(own.records.map((r) => [r.job.id, r.end]));
          for (const r of core.trace.records) {
            expect(r.outcome).toBe("completed");
            expect(close(r.end!, byId.get(r.job.id)!)).toBe(true);
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it("with background load: the invariants hold, local jobs back to back and slowed only by sharing", () => {
    const platform = paperPlatform(true);
    const jobs = moldable(200, 0.7, 64, 5);
    for (const [policy, backgroundSharing] of [
      ["dynamic", "conserving"],
      ["adaptive", "conserving"],
      ["dynamic", "legacy"],
    ] as const) {
      const r = simulateSpaceSharingOnCore(jobs, platform, {
        policy,
        backgroundLoad: 0.3,
        backgroundSharing,
        seed: 2,
      });
      const model = spaceSharingExecutionModel({
        bunching: policy === "dynamic" ? "fitness" : "equal",
        backgroundSharing,
        localMachine: (job, p) =>
          job.id >= r.firstLocalId ? (job.id - r.firstLocalId) % p.machines.length : undefined,
      });
      expect(checkSchedule(r.trace, { executionModel: model })).toEqual([]);
      expect(r.localJobs).toBeGreaterThan(0);
      const parallel = r.trace.records.filter((x) => x.job.id < r.firstLocalId);
      expect(parallel.every((x) => x.outcome === "completed")).toBe(true);
      for (const intervals of perProcessor(r.trace, r.firstLocalId)) {
        // at most one parallel task and one local job at a time; local jobs back to back
        for (const local of [false, true]) {
          const list = intervals.filter((x) => x[3] === local).sort((a, b) => a[0] - b[0]);
          for (let i = 1; i < list.length; i++)
            expect(list[i]![0]).toBeGreaterThanOrEqual(list[i - 1]![1]);
        }
        const locals = intervals.filter((x) => x[3]);
        for (const [start, end, id] of locals) {
          const job = r.trace.records.find((x) => x.job.id === id)!.job;
          // legacy: not slowed; conserving: at most halved (MPL 2); started at once or right
          // after the previous local job
          if (backgroundSharing === "legacy") expect(end - start).toBeCloseTo(job.runtime, 9);
          else {
            expect(end - start).toBeGreaterThanOrEqual(job.runtime - 1e-9);
            expect(end - start).toBeLessThanOrEqual(2 * job.runtime + 1e-9);
          }
          expect(start === job.submit || locals.some((x) => x[1] === start)).toBe(true);
        }
      }
    }
  });

  it("property: partition sizes follow the paper's formulas at each start (queued behind, executing)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 5, max: 60 }),
        fc.double({ min: 0.2, max: 0.9, noNaN: true }),
        fc.integer({ min: 1, max: 1000 }),
        fc.constantFrom(0, 0.2, 0.5),
        fc.constantFrom("dynamic" as const, "adaptive" as const),
        (n, load, seed, backgroundLoad, policy) => {
          const platform = multiClusterPlatform([{ nodes: 4 }, { nodes: 4, speed: 2 }]);
          const jobs = moldable(n, load, 8, seed);
          const r = simulateSpaceSharingOnCore(jobs, platform, { policy, backgroundLoad, seed });
          const par = r.trace.records.filter((x) => x.job.id < r.firstLocalId);
          const order = (a: Job, b: Job) => a.submit - b.submit || a.id - b.id;
          for (const rec of par) {
            const t = rec.intervals[0]!.start;
            const ahead = (k: Job) => order(k, rec.job) < 0;
            const executing = par.filter((k) => {
              const s = k.intervals[0]!.start;
              return (s < t && k.end! > t) || (s === t && ahead(k.job));
            }).length;
            const queued = par.filter(
              (k) => !ahead(k.job) && k !== rec && k.job.submit <= t,
            ).length;
            const size = rec.intervals[0]!.allocation.length;
            const maxPar = rec.job.maxParallelism!;
            if (policy === "dynamic") {
              expect(size).toBeLessThanOrEqual(
                Math.min(maxPar, dynamicPartitionSize({ processors: 8, queued, executing })),
              );
            } else {
              expect(size).toBe(
                Math.min(
                  maxPar,
                  mapPartitionSize({ processors: 8, queued, executing, executingWeight: 1 }),
                ),
              );
            }
          }
          // deterministic: same inputs and seed, same bytes
          const again = simulateSpaceSharingOnCore(jobs, platform, {
            policy,
            backgroundLoad,
            seed,
          });
          expect(JSON.stringify(again.trace.records)).toBe(JSON.stringify(r.trace.records));
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe("the own simulator (the paper's release rule) against the oracle", () => {
  it("adaptive: it holds every processor until the end, so it gives the oracle's schedule job by job", () => {
    const close = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));
    for (const selection of ["random", "fastest", "lowest-index"] as const) {
      const platform = multiClusterPlatform([{ nodes: 4 }, { nodes: 4, speed: 2, latency: 1e-3 }]);
      const jobs = moldable(60, 0.7, 8, 11);
      const options = { policy: "adaptive", baselineSelection: selection, seed: 4 } as const;
      const own = simulateSpaceSharing(jobs, platform, options);
      const oracle = holdUntilEndOracle(jobs, platform, options);
      expect(own.records.map((r) => r.job.id)).toEqual(oracle.records.map((r) => r.job.id));
      own.records.forEach((r, i) => {
        const o = oracle.records[i]!;
        expect(close(r.start, o.start) && close(r.end, o.end), `job ${r.job.id}`).toBe(true);
        expect(r.processors).toEqual(o.processors);
        expect(r.release.every((t) => t === r.end)).toBe(true);
      });
      expect(close(own.utilization, oracle.utilization)).toBe(true);
    }
  });

  it("dynamic: each processor returns with its bunch, some before the job ends; the first start is the oracle's", () => {
    const platform = multiClusterPlatform([{ nodes: 4 }, { nodes: 4, speed: 2 }]);
    const jobs = moldable(40, 0.6, 8, 9);
    const released = simulateSpaceSharing(jobs, platform);
    const held = holdUntilEndOracle(jobs, platform);
    for (const r of released.records) {
      expect(Math.max(...r.release)).toBe(r.end);
      expect(r.release.every((t) => t > r.start && t <= r.end)).toBe(true);
    }
    expect(released.records.some((r) => r.release.some((t) => t < r.end))).toBe(true);
    const firstOf = (rs: readonly { job: Job; start: number; processors: readonly number[] }[]) =>
      rs.find((r) => r.job.id === jobs[0]!.id)!;
    expect(firstOf(released.records).processors).toEqual(firstOf(held.records).processors);
    expect(released.meanResponse).toBeLessThan(held.meanResponse);
  });
});
