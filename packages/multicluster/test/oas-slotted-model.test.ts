import { createJob, type Job, simulate } from "@sched/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { OasProfile } from "../src/cost.js";
import { bruteForceOas } from "../src/oas-brute.js";
import { checkOasSchedule } from "../src/oas-check.js";
import { jobConfigurations, resourceGroups } from "../src/oas-configurations.js";
import { oasHeuristic, ruleOrder } from "../src/oas-heuristics.js";
import { type OasAssignment, oasInstance, slotsNeeded } from "../src/oas-instance.js";
import { slottedListSchedule } from "../src/oas-slotted.js";
import { multiClusterPlatform } from "../src/platform.js";

// The slotted model's pieces that the MIP tests take as their oracle (the slot count, eq. 8,
// the brute-force optimum, the independent check of a schedule), the configurations the
// default MIP is built on, and the allocation rule's order among equal candidates.

const paper = multiClusterPlatform([
  { nodes: 2, speed: 1 },
  { nodes: 2, speed: 0.75 },
  { nodes: 2, speed: 0.5 },
]);

describe("slotsNeeded (eq. 8)", () => {
  it("is ceil(Tb * ct / eta), at least 1; a whole quotient spoilt by rounding stays whole", () => {
    // 100 * 1.1 / 10 is 11.000000000000002 in doubles (ct 1.1: sigma 0.5, SP 1.2)
    expect(slotsNeeded({ baseTime: 100, ct: 1.1, eta: 10 })).toBe(11);
    expect(slotsNeeded({ baseTime: 100, ct: 1.1, eta: 9 })).toBe(13); // 12.2
    expect(slotsNeeded({ baseTime: 0.3, ct: 1, eta: 0.1 })).toBe(3); // 2.9999999999999996
    expect(slotsNeeded({ baseTime: 100, ct: 1, eta: 50 })).toBe(2);
    expect(slotsNeeded({ baseTime: 101, ct: 1, eta: 50 })).toBe(3);
    expect(slotsNeeded({ baseTime: 1, ct: 1, eta: 50 })).toBe(1);
  });
});

describe("bruteForceOas", () => {
  const tiny = fc.record({
    nodes: fc.array(fc.integer({ min: 1, max: 2 }), { minLength: 1, maxLength: 2 }),
    speeds: fc.array(fc.constantFrom(1, 0.75, 0.5), { minLength: 2, maxLength: 2 }),
    jobs: fc.array(
      fc.record({
        runtime: fc.integer({ min: 10, max: 60 }),
        cores: fc.integer({ min: 1, max: 3 }),
        ptbw: fc.constantFrom(0, 40e6, 100e6),
      }),
      { minLength: 1, maxLength: 3 },
    ),
  });
  it("a horizon equal to the optimum still holds it, one slot less holds no schedule", () => {
    fc.assert(
      fc.property(tiny, (c) => {
        const platform = multiClusterPlatform(
          c.nodes.map((n, k) => ({ nodes: n, speed: c.speeds[k]!, bandwidth: 50e6 })),
        );
        const jobs: Job[] = c.jobs.map((j, i) =>
          createJob({
            id: i,
            submit: 0,
            runtime: j.runtime,
            cores: Math.min(j.cores, platform.totalCores),
          }),
        );
        const profile = (job: Job): OasProfile => ({ sigma: 0.5, ptbw: c.jobs[job.id]!.ptbw });
        const eta = 20;
        const wide = bruteForceOas(jobs, platform, { eta, theta: 12, profile });
        if (wide.makespanSlots === null) return;
        const best = wide.makespanSlots;
        // the schedule is valid and ends at the optimum
        expect(
          checkOasSchedule(jobs, platform, wide.schedule!, { eta, theta: best, profile }),
        ).toEqual([]);
        expect(Math.max(...wide.schedule!.map((a) => a.startSlot + a.slots))).toBe(best);
        expect(bruteForceOas(jobs, platform, { eta, theta: best, profile }).makespanSlots).toBe(
          best,
        );
        if (best > 1) {
          expect(bruteForceOas(jobs, platform, { eta, theta: best - 1, profile })).toEqual({
            makespanSlots: null,
            schedule: null,
          });
        }
      }),
      { numRuns: 100 },
    );
  });
  it("hand-worked: a lone job exactly as long as the horizon", () => {
    // 2 tasks of 100 s on the two speed-1 nodes: 2 slots of 50 s
    const jobs = [createJob({ id: 1, submit: 0, runtime: 100, cores: 2 })];
    expect(bruteForceOas(jobs, paper, { eta: 50, theta: 2 })).toEqual({
      makespanSlots: 2,
      schedule: [
        {
          jobId: 1,
          startSlot: 0,
          slots: 2,
          allocation: [
            { machine: 0, cores: 1 },
            { machine: 1, cores: 1 },
          ],
        },
      ],
    });
    expect(bruteForceOas(jobs, paper, { eta: 50, theta: 1 }).makespanSlots).toBeNull();
  });
});

describe("checkOasSchedule reports each broken constraint", () => {
  // job 1: 2 tasks of 100 s on the speed-1 nodes, 2 slots of 50 s; job 2: 1 task of 60 s on a
  // speed-0.75 node, 60 / 0.75 = 80 s, 2 slots
  const jobs = [
    createJob({ id: 1, submit: 0, runtime: 100, cores: 2 }),
    createJob({ id: 2, submit: 0, runtime: 60, cores: 1 }),
  ];
  const one: OasAssignment = {
    jobId: 1,
    startSlot: 0,
    slots: 2,
    allocation: [
      { machine: 0, cores: 1 },
      { machine: 1, cores: 1 },
    ],
  };
  const two: OasAssignment = {
    jobId: 2,
    startSlot: 0,
    slots: 2,
    allocation: [{ machine: 2, cores: 1 }],
  };
  const check = (schedule: OasAssignment[], theta?: number, profile?: () => OasProfile) =>
    checkOasSchedule(jobs, paper, schedule, {
      eta: 50,
      ...(theta === undefined ? {} : { theta }),
      ...(profile === undefined ? {} : { profile }),
    });

  it("a valid schedule: none", () => {
    expect(check([one, two], 2)).toEqual([]);
  });
  it("the wrong number of slots, more or fewer (19-20)", () => {
    expect(check([{ ...one, slots: 3 }, two])).toEqual(["job 1: 3 slots, needs 2 (19-20)"]);
    expect(check([one, { ...two, slots: 1 }])).toEqual(["job 2: 1 slots, needs 2 (19-20)"]);
  });
  it("a core used twice in a slot (10), the wrong number of cores (12), past theta", () => {
    expect(check([one, { ...two, startSlot: 1, allocation: [{ machine: 1, cores: 1 }] }])).toEqual([
      "machine 1 slot 1: 2 cores used of 1 (10)",
    ]);
    expect(
      check([
        one,
        {
          ...two,
          allocation: [
            { machine: 2, cores: 1 },
            { machine: 3, cores: 1 },
          ],
        },
      ]),
    ).toContain("job 2: 2 cores, needs 1 (12)");
    expect(check([one, { ...two, startSlot: 1 }], 2)).toEqual(["job 2: ends in slot 3 > theta 2"]);
  });
  it("an allocation naming a machine twice (11), not counted as cores", () => {
    const twice: OasAssignment = {
      ...one,
      allocation: [
        { machine: 0, cores: 1 },
        { machine: 0, cores: 1 },
      ],
    };
    expect(check([twice, two])).toEqual([
      'job 1: bad allocation part {"machine":0,"cores":1} (11)',
      "job 1: 1 cores, needs 2 (12)",
    ]);
  });
  it("a job missing or placed twice (15)", () => {
    expect(check([one])).toEqual(["job 2: not placed (15)"]);
    expect(check([one, two, { ...two, startSlot: 2 }])).toEqual(["job 2: placed twice (15)"]);
  });
  it("a link carrying more than its bandwidth (22), summed over the jobs running in a slot", () => {
    // job 1 split over clusters 0 and 1 (nodes 0 and 2): 1 x ptbw x 1 / 1 on each link; job 2
    // then on node 4 (cluster 2) alone uses no link
    const split: OasAssignment = {
      jobId: 1,
      startSlot: 0,
      slots: 2,
      allocation: [
        { machine: 0, cores: 1 },
        { machine: 2, cores: 1 },
      ],
    };
    // SP 1 / 0.75, ct = 0.5 * 4/3 + 0.5 = 7/6: 100 s x 7/6 = 116.7 s, 3 slots
    const slow = { ...split, slots: 3 };
    // job 2 on node 4 (speed 0.5): ct = 0.5 * 2 + 0.5 = 1.5, 90 s, 2 slots
    const on4: OasAssignment = { ...two, allocation: [{ machine: 4, cores: 1 }] };
    const heavy = () => ({ sigma: 0.5, ptbw: 200e6 });
    expect(check([slow, on4], undefined, heavy)).toEqual([
      "link 0 slot 0: 200000000 B/s > 125000000 (22)",
      "link 0 slot 1: 200000000 B/s > 125000000 (22)",
      "link 0 slot 2: 200000000 B/s > 125000000 (22)",
      "link 1 slot 0: 200000000 B/s > 125000000 (22)",
      "link 1 slot 1: 200000000 B/s > 125000000 (22)",
      "link 1 slot 2: 200000000 B/s > 125000000 (22)",
    ]);
    // 80 MB/s each: job 1 alone fits; job 1 and a second split job on the same links do not,
    // in the one slot they share
    const jobs3 = [...jobs, createJob({ id: 3, submit: 0, runtime: 100, cores: 2 })];
    const three: OasAssignment = {
      jobId: 3,
      startSlot: 2,
      slots: 3,
      allocation: [
        { machine: 1, cores: 1 },
        { machine: 3, cores: 1 },
      ],
    };
    const medium = () => ({ sigma: 0.5, ptbw: 80e6 });
    const at = (s: number) =>
      checkOasSchedule(jobs3, paper, [slow, on4, { ...three, startSlot: s }], {
        eta: 50,
        profile: medium,
      });
    expect(at(3)).toEqual([]);
    expect(at(2)).toEqual([
      "link 0 slot 2: 160000000 B/s > 125000000 (22)",
      "link 1 slot 2: 160000000 B/s > 125000000 (22)",
    ]);
  });
});

describe("jobConfigurations", () => {
  it("with links, drops the configurations that saturate a link alone, and only those", () => {
    // a 2-task job at 150 MB/s per task: a 1/1 split puts 150 MB/s on two 125 MB/s links
    const jobs = [createJob({ id: 1, submit: 0, runtime: 100, cores: 2 })];
    const inst = oasInstance(jobs, paper, () => ({ sigma: 0.5, ptbw: 150e6 }));
    const groups = resourceGroups(inst);
    const of = (links: boolean) =>
      jobConfigurations(inst, groups, 0, {
        eta: 50,
        theta: 10,
        links,
        maxConfigurations: 100,
        where: "test",
      });
    const counts = (cs: ReturnType<typeof of>) => cs.map((c) => Array.from(c.counts));
    expect(counts(of(false))).toEqual([
      [0, 0, 2],
      [0, 1, 1],
      [0, 2, 0],
      [1, 0, 1],
      [1, 1, 0],
      [2, 0, 0],
    ]);
    expect(counts(of(true))).toEqual([
      [0, 0, 2],
      [0, 2, 0],
      [2, 0, 0],
    ]);
    // the same as the link-blind list without those that exceed a bandwidth
    const fits = of(false).filter((c) => c.demand.every((d, l) => d <= paper.links[l]!.bandwidth));
    expect(counts(of(true))).toEqual(counts(fits));
  });
});

describe('the allocation rule among equal candidates ("union"): the first', () => {
  // two clusters of one speed-1 node: a 1-task job's candidates are [node 0] and [node 1], the
  // same ct and no link demand: the first, node 0
  const two = multiClusterPlatform([{ nodes: 1 }, { nodes: 1 }]);
  const jobs = [createJob({ id: 1, submit: 0, runtime: 10, cores: 1 })];
  it("oasHeuristic", () => {
    const trace = simulate(jobs, two, oasHeuristic("FCFS", { allocationCandidates: "union" }));
    expect(trace.records[0]!.intervals[0]!.allocation).toEqual([{ machine: 0, cores: 1 }]);
  });
  it("slottedListSchedule", () => {
    const s = slottedListSchedule(jobs, two, [0], {
      eta: 5,
      theta: 4,
      allocationCandidates: "union",
    });
    expect(s![0]!.allocation).toEqual([{ machine: 0, cores: 1 }]);
  });
});

describe("the heuristics plan with estimates, and keep links within bandwidth under every candidate set", () => {
  it("SPT and LPT order by estimate, not run time", () => {
    const jobs = [
      createJob({ id: 1, submit: 0, runtime: 10, estimate: 100, cores: 1 }),
      createJob({ id: 2, submit: 0, runtime: 50, estimate: 20, cores: 1 }),
    ];
    expect(ruleOrder("LPT", jobs)).toEqual([0, 1]);
    expect(ruleOrder("SPT", jobs)).toEqual([1, 0]);
  });
  it('a job whose only allocation saturates a link is rejected ("union", "fastest")', () => {
    // two clusters of one node, 100 MB/s links: a 2-task job must split 1/1, 150 MB/s per link
    const two = multiClusterPlatform([
      { nodes: 1, bandwidth: 100e6 },
      { nodes: 1, bandwidth: 100e6 },
    ]);
    const jobs = [createJob({ id: 1, submit: 0, runtime: 10, cores: 2 })];
    const profile = () => ({ sigma: 0.5, ptbw: 150e6 });
    for (const allocationCandidates of ["union", "fastest", "exhaustive"] as const) {
      const trace = simulate(jobs, two, oasHeuristic("FCFS", { profile, allocationCandidates }));
      expect(trace.records[0]!.outcome).toBe("rejected");
    }
  });
});
