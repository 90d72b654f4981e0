import { createJob } from "@sched/core";
import { describe, expect, it } from "vitest";
import {
  evaluateCost,
  linkDemand,
  linkSaturation,
  linkSlowdown,
  processingSlowdown,
  tasksPerCluster,
  timeCost,
} from "../src/cost.js";
import { oasExecutionModel } from "../src/execution.js";
import { multiClusterPlatform } from "../src/platform.js";

// The paper's platform: 3 clusters x 2 nodes, Gamma 1.0 / 0.75 / 0.5, Gigabit (125e6 B/s) links.
const p = multiClusterPlatform([
  { nodes: 2, speed: 1 },
  { nodes: 2, speed: 0.75 },
  { nodes: 2, speed: 0.5 },
]);
const two = createJob({ id: 1, submit: 0, runtime: 100, cores: 2 });

describe("platform", () => {
  it("numbers machines cluster by cluster with one link per cluster", () => {
    expect(p.machines.map((m) => [m.cluster, m.speed])).toEqual([
      [0, 1],
      [0, 1],
      [1, 0.75],
      [1, 0.75],
      [2, 0.5],
      [2, 0.5],
    ]);
    expect(p.clusters.map((c) => c.link)).toEqual([0, 1, 2]);
    expect(p.links[2]!.bandwidth).toBe(125e6);
  });
  it("rejects an empty cluster list", () => {
    expect(() => multiClusterPlatform([])).toThrow(/clusters is empty/);
  });
});

describe("cost model equations", () => {
  it("eq. 4: demand of a split job, and 0 without co-allocation or for one task", () => {
    expect(linkDemand({ tasksInCluster: 1, tasks: 2, ptbw: 100 })).toBe(100);
    expect(linkDemand({ tasksInCluster: 2, tasks: 4, ptbw: 90 })).toBe((2 * 90 * 2) / 3);
    expect(linkDemand({ tasksInCluster: 1, tasks: 4, ptbw: 90 })).toBe((90 * 3) / 3);
    expect(linkDemand({ tasksInCluster: 4, tasks: 4, ptbw: 90 })).toBe(0);
    expect(linkDemand({ tasksInCluster: 0, tasks: 4, ptbw: 90 })).toBe(0);
    expect(linkDemand({ tasksInCluster: 1, tasks: 1, ptbw: 90 })).toBe(0);
  });
  it("eq. 5-6: saturation and the slowdown it causes", () => {
    expect(linkSaturation(100, 0)).toBe(Number.POSITIVE_INFINITY);
    expect(linkSaturation(100, 50)).toBe(2);
    expect(linkSaturation(100, 400)).toBe(0.25);
    expect(linkSlowdown(2)).toBe(1);
    expect(linkSlowdown(1)).toBe(1);
    expect(linkSlowdown(0.25)).toBe(4);
  });
  it("eq. 2-3: time cost from the slowest node", () => {
    expect(
      processingSlowdown(
        two,
        [
          { machine: 0, cores: 1 },
          { machine: 4, cores: 1 },
        ],
        p,
      ),
    ).toBe(2);
    expect(timeCost({ sigma: 0.5, sp: 2, sc: 1 })).toBe(1.5);
    expect(timeCost({ sigma: 1, sp: 4 / 3, sc: 7 })).toBe(4 / 3);
  });
});

describe("evaluateCost (hand-computed cases)", () => {
  it("no co-allocation: SC 1, no link used", () => {
    const e = evaluateCost(p, [
      {
        job: two,
        allocation: [
          { machine: 2, cores: 1 },
          { machine: 3, cores: 1 },
        ],
        profile: { sigma: 0.6, ptbw: 1e9 },
      },
    ]);
    // SP = 1/0.75, ct = 0.6 * 4/3 + 0.4 * 1 = 1.2
    expect(e.jobs[0]!.sp).toBeCloseTo(4 / 3, 12);
    expect(e.jobs[0]!.sc).toBe(1);
    expect(e.jobs[0]!.ct).toBeCloseTo(1.2, 12);
    expect([...e.linkDemand]).toEqual([0, 0, 0]);
  });
  it("split 1/1 across two clusters below capacity", () => {
    const e = evaluateCost(p, [
      {
        job: two,
        allocation: [
          { machine: 0, cores: 1 },
          { machine: 2, cores: 1 },
        ],
        profile: { sigma: 0.5, ptbw: 50e6 },
      },
    ]);
    // BW = 1 * 50e6 * (2-1)/(2-1) = 50e6 on links 0 and 1; SAT = 2.5; SC = 1; ct = 0.5*4/3 + 0.5
    expect([...e.linkDemand]).toEqual([50e6, 50e6, 0]);
    expect(e.saturation[0]).toBe(2.5);
    expect(e.jobs[0]!.sc).toBe(1);
    expect(e.jobs[0]!.ct).toBeCloseTo(0.5 * (4 / 3) + 0.5, 12);
  });
  it("a saturated link slows every job that uses it", () => {
    const a = createJob({ id: 1, submit: 0, runtime: 100, cores: 2 });
    const b = createJob({ id: 2, submit: 0, runtime: 100, cores: 2 });
    const c = createJob({ id: 3, submit: 0, runtime: 100, cores: 1 });
    const e = evaluateCost(p, [
      // a: nodes 0 (c0) and 4 (c2); b: nodes 1 (c0) and 2 (c1); c: node 5 alone
      {
        job: a,
        allocation: [
          { machine: 0, cores: 1 },
          { machine: 4, cores: 1 },
        ],
        profile: { sigma: 0.5, ptbw: 100e6 },
      },
      {
        job: b,
        allocation: [
          { machine: 1, cores: 1 },
          { machine: 2, cores: 1 },
        ],
        profile: { sigma: 0.8, ptbw: 150e6 },
      },
      { job: c, allocation: [{ machine: 5, cores: 1 }], profile: { sigma: 0.5, ptbw: 100e6 } },
    ]);
    // link 0 carries 100e6 + 150e6 = 250e6 > 125e6: SAT 0.5, slowdown 2
    // link 1 carries 150e6: SAT 125/150, slowdown 1.2; link 2 carries 100e6: not saturated
    expect([...e.linkDemand]).toEqual([250e6, 150e6, 100e6]);
    expect(e.saturation[0]).toBe(0.5);
    expect(e.jobs[0]!.sc).toBe(2);
    expect(e.jobs[0]!.ct).toBeCloseTo(0.5 * 2 + 0.5 * 2, 12);
    expect(e.jobs[1]!.sc).toBe(2);
    expect(e.jobs[1]!.ct).toBeCloseTo(0.8 * (4 / 3) + 0.2 * 2, 12);
    expect(e.jobs[2]!.sc).toBe(1);
    expect(e.jobs[2]!.ct).toBeCloseTo(0.5 * 2 + 0.5, 12);
  });
});

describe("the cost functions' checks, at each bound", () => {
  const ok = [{ machine: 5, cores: 1 }];
  const profile = { sigma: 0.5, ptbw: 0 };
  it("take the last machine and one core, and refuse the next machine and zero cores or tasks", () => {
    expect(processingSlowdown(two, ok, p)).toBe(2);
    expect(() => processingSlowdown(two, [{ machine: 6, cores: 1 }], p)).toThrow(
      "@sched/multicluster/processingSlowdown: allocation[0].machine is 6, expected a machine index in [0, 5]",
    );
    expect(() => processingSlowdown({ ...two, cores: 0 }, ok, p)).toThrow(
      /job\.cores is 0, expected an integer >= 1/,
    );
    expect(() => evaluateCost(p, [{ job: { ...two, cores: 0 }, allocation: ok, profile }])).toThrow(
      /set\[0\]\.job\.cores is 0, expected an integer >= 1/,
    );
  });
  it("take sigma 0 and 1 and ptbw 0, and refuse what lies past them", () => {
    expect(timeCost({ sigma: 1, sp: 2, sc: 3 })).toBe(2);
    expect(timeCost({ sigma: 0, sp: 2, sc: 3 })).toBe(3);
    expect(() => timeCost({ sigma: 1.5, sp: 2, sc: 1 })).toThrow(
      /options\.sigma is 1\.5, expected a number in \[0, 1\]/,
    );
    const cost = (pr: { sigma: number; ptbw: number }) =>
      evaluateCost(p, [{ job: two, allocation: ok, profile: pr }]).jobs[0]!.ct;
    expect([cost({ sigma: 0, ptbw: 0 }), cost({ sigma: 1, ptbw: 0 })]).toEqual([1, 2]);
    expect(() => cost({ sigma: -0.1, ptbw: 0 })).toThrow(
      /set\[0\]\.profile\.sigma is -0\.1, expected a number in \[0, 1\]/,
    );
    expect(() => cost({ sigma: 1.1, ptbw: 0 })).toThrow(/set\[0\]\.profile\.sigma is 1\.1/);
    expect(() => cost({ sigma: 0.5, ptbw: -1 })).toThrow(/set\[0\]\.profile\.ptbw is -1/);
  });
});

describe("tasks per cluster on multi-core nodes", () => {
  it("counts a part's cores, not its parts: eq. 4 of a 5-task job split 2/3", () => {
    const quad = multiClusterPlatform([
      { nodes: 1, coresPerNode: 4 },
      { nodes: 1, coresPerNode: 4 },
    ]);
    const five = createJob({ id: 5, submit: 0, runtime: 10, cores: 5 });
    const split = [
      { machine: 0, cores: 2 },
      { machine: 1, cores: 3 },
    ];
    expect([...tasksPerCluster(split, quad)]).toEqual([2, 3]);
    // t (tau - t) / (tau - 1) * PTBW: 2 * 3 / 4 * 100 = 150 on both links
    const e = evaluateCost(quad, [
      { job: five, allocation: split, profile: { sigma: 1, ptbw: 100 } },
    ]);
    expect([...e.jobs[0]!.demand]).toEqual([150, 150]);
  });
});

describe("oasExecutionModel", () => {
  it("charges Tb * ct for the job alone, and equals core's model with sigma 1", () => {
    const model = oasExecutionModel({ profile: () => ({ sigma: 0.5, ptbw: 250e6 }) });
    // split 1/1: BW = 250e6 on links 0, 2: SAT 0.5, SC 2; SP 2; ct = 0.5*2 + 0.5*2 = 2
    expect(
      model.duration(
        two,
        [
          { machine: 0, cores: 1 },
          { machine: 4, cores: 1 },
        ],
        p,
        100,
      ),
    ).toBeCloseTo(200, 9);
    const plain = oasExecutionModel();
    expect(
      plain.duration(
        two,
        [
          { machine: 2, cores: 1 },
          { machine: 4, cores: 1 },
        ],
        p,
        30,
      ),
    ).toBeCloseTo(60, 9);
  });
});
