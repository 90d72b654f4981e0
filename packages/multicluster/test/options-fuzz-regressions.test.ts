import { createJob, simulate } from "@sched/core";
import { describe, expect, it } from "vitest";
import {
  adaptivePartitionSize,
  allocationCost,
  allocationOf,
  bruteForceOas,
  buildOasModel,
  candidateResources,
  checkOasSchedule,
  contentionDelays,
  dynamicPartitionSize,
  evaluateCost,
  fitnessFactors,
  jobConfigurations,
  linkSlowdown,
  multiClusterPlatform,
  oasExecutionModel,
  oasHeuristic,
  oasInstance,
  oasPlanScheduler,
  processingSlowdown,
  processorPlatform,
  resourceGroups,
  ruleOrder,
  selectProcessors,
  simulateSpaceSharing,
  simulateSpaceSharingOnCore,
  slotsNeeded,
  slottedListSchedule,
  solveOas,
  spaceSharingPass,
  spaceSharingScheduler,
  taskBunches,
  tasksPerCluster,
  timeCost,
} from "../src/index.js";

// Defects the options fuzz suite found (options-fuzz.property.test.ts), one example each.
const platform = () => multiClusterPlatform([{ nodes: 2, speed: 1 }]);
const jobs = () => [createJob({ id: 1, submit: 0, runtime: 10, cores: 1 })];

describe("multicluster: hostile values end in an InvalidInputError naming the place", () => {
  it("multiClusterPlatform caps the nodes (1e308 ran out of memory)", () => {
    expect(() => multiClusterPlatform([{ nodes: 1e308 }])).toThrow(
      /clusters\[0\]\.nodes is 1e\+308, which makes 1e\+308 nodes in all, expected at most 16777216/,
    );
  });

  it("multiClusterPlatform names coresPerNode and name (core named spec.machines[0].cores; a symbol name threw raw)", () => {
    expect(() => multiClusterPlatform([{ nodes: 1, coresPerNode: 0.5 }])).toThrow(
      /clusters\[0\]\.coresPerNode is 0\.5, expected an integer in \[1, 2147483647\]/,
    );
    expect(() => multiClusterPlatform([{ nodes: 1, name: Symbol() as never }])).toThrow(
      /clusters\[0\]\.name is symbol, expected a string/,
    );
  });

  it("bruteForceOas checks theta, maxNodes and profile (raw RangeError / TypeError before)", () => {
    expect(() =>
      bruteForceOas(jobs(), platform(), { eta: 40, theta: Number.POSITIVE_INFINITY }),
    ).toThrow(/options\.theta is Infinity, expected an integer in \[1, 16777216\]/);
    expect(() =>
      bruteForceOas(jobs(), platform(), { eta: 40, theta: 4, maxNodes: "9" as never }),
    ).toThrow(/options\.maxNodes is "9"/);
    expect(() =>
      bruteForceOas(jobs(), platform(), { eta: 40, theta: 4, profile: 1 as never }),
    ).toThrow(/options\.profile is 1, expected a function/);
  });

  it("timeCost checks its options (NaN and strings passed through)", () => {
    expect(() => timeCost({ sigma: 0.5, sp: "10" as never, sc: 2 })).toThrow(
      '@sched/multicluster/timeCost: options.sp is "10", expected a finite number >= 0',
    );
    expect(timeCost({ sigma: 0.5, sp: 10, sc: 2 })).toBe(6);
  });

  it("a symbol option is named (a raw TypeError came from comparing it)", () => {
    expect(() => spaceSharingScheduler({ executingWeight: Symbol() as never })).toThrow(
      /options\.executingWeight is symbol, expected a number >= 0/,
    );
  });

  it("a hole in state.available is a bad processor, not a skip", () => {
    // biome-ignore lint/suspicious/noSparseArray: the hostile input
    const available = [, 1] as number[];
    expect(() =>
      spaceSharingPass({ platform: platform(), available, queue: [], executing: 0 }),
    ).toThrow(/state\.available\[0\] is undefined/);
  });

  it("taskBunches refuses tasks < weights and overflowing weights (its rounding loop never ended)", () => {
    expect(() => taskBunches([1, 1, 1], 2)).toThrow(
      "@sched/multicluster/taskBunches: tasks is 2, expected an integer >= 3",
    );
    expect(() => taskBunches([1e308, 2, 4], 10)).toThrow(/weights\[0\] is 1e\+308, too large/);
    expect(Array.from(taskBunches([1, 1, 1], 4))).toEqual([2, 1, 1]);
  });

  it("the partition formulas check their arguments (NaN and strings passed through)", () => {
    expect(() =>
      dynamicPartitionSize({ processors: 16, queued: Number.NaN, executing: 0 }),
    ).toThrow(/options\.queued is NaN, expected an integer >= 0/);
    expect(() => adaptivePartitionSize("16" as never, 1)).toThrow(/processors is "16"/);
    expect(() => fitnessFactors([1, 2], 0)).toThrow(/mpl is 0, expected a finite number > 0/);
    expect(() => slotsNeeded({ baseTime: 100, ct: 1, eta: 40, extra: 1 } as never)).toThrow(
      /options\.extra is not a known key/,
    );
  });

  it("oasPlanScheduler checks the schedule, eta and compact (a bad entry silently never started)", () => {
    expect(() => oasPlanScheduler([{ jobId: 1, slot: 0 }] as never, 40)).toThrow(
      "@sched/multicluster/oasPlanScheduler: schedule[0].startSlot is undefined, expected an integer >= 0",
    );
    expect(() => oasPlanScheduler([], 0)).toThrow(/eta is 0, expected a finite number > 0/);
    const a = { jobId: 1, startSlot: 0, slots: 1, allocation: [{ machine: 0, cores: 1 }] };
    expect(() => oasPlanScheduler([a, { ...a, startSlot: 2 }], 40)).toThrow(
      "@sched/multicluster/oasPlanScheduler: schedule[1].jobId is 1, which another assignment has",
    );
    expect(() => oasPlanScheduler([{ ...a, slots: 0 }], 40)).toThrow(
      /schedule\[0\]\.slots is 0, expected an integer >= 1/,
    );
    expect(() => oasPlanScheduler([], 40, { compact: 1 as never })).toThrow(
      /options\.compact is 1, expected true or false/,
    );
    expect(() => oasExecutionModel({ contention: "yes" as never })).toThrow(
      /options\.contention is "yes", expected true or false/,
    );
  });

  it('oasHeuristic checks links (a "false" ran the link-aware rule under its link-aware name)', () => {
    expect(() => oasHeuristic("FCFS", { links: "false" as never })).toThrow(
      '@sched/multicluster/oasHeuristic: options.links is "false", expected true or false',
    );
    expect(() => oasHeuristic("SPT", { links: 0 as never })).toThrow(
      /options\.links is 0, expected true or false/,
    );
    expect(oasHeuristic("FCFS", { links: false }).name).toBe("oas-fcfs-link-blind");
  });

  it("a profile function returning nonsense is named in evaluateCost (was linkDemand's options.ptbw)", () => {
    const model = oasExecutionModel({ profile: () => ({}) as never });
    const p = multiClusterPlatform([{ nodes: 1 }, { nodes: 1 }]);
    const j = [createJob({ id: 1, submit: 0, runtime: 10, cores: 2 })];
    expect(() => simulate(j, p, oasHeuristic("FCFS"), { executionModel: model })).toThrow(
      /set\[0\]\.profile\.sigma is undefined, expected a number in \[0, 1\]/,
    );
  });

  it("still runs a valid space-sharing schedule", () => {
    expect(simulate(jobs(), platform(), spaceSharingScheduler()).records).toHaveLength(1);
  });

  it("selectProcessors checks its arguments (a processor on no machine threw a raw TypeError; a string as available was read)", () => {
    const p = multiClusterPlatform([{ nodes: 2 }, { nodes: 2, speed: 2 }]);
    expect(() => selectProcessors(p, [0, 1, 9], [1, 1, 1], 2)).toThrow(
      "@sched/multicluster/selectProcessors: processorMachine[2] is 9, expected a machine index in [0, 3]",
    );
    expect(() => selectProcessors(p, [0, 1, 2], "111" as never, 2)).toThrow(
      /available is "111", expected an array/,
    );
    expect(() => selectProcessors(p, [0, 1], [1, 1], 1.5)).toThrow(/count is 1\.5/);
    expect(() => selectProcessors(p, [0, 1], [1, 1], 1, { clusters: "fastest" } as never)).toThrow(
      /options\.clusters is not a known key/,
    );
    expect(selectProcessors(p, [0, 1, 2, 3], Uint8Array.of(1, 1, 1, 1), 2)).toEqual([2, 3]);
  });

  it("checkOasSchedule refuses a malformed schedule (raw TypeError / RangeError, a string machine read as an index)", () => {
    const p = multiClusterPlatform([{ nodes: 2 }]);
    const j = [createJob({ id: 1, submit: 0, runtime: 10, cores: 1 })];
    const entry = { jobId: 1, startSlot: 0, slots: 1, allocation: [{ machine: 0, cores: 1 }] };
    expect(() => checkOasSchedule(j, p, 5 as never, { eta: 10 })).toThrow(
      "@sched/multicluster/checkOasSchedule: schedule is 5, expected an array",
    );
    expect(() =>
      checkOasSchedule(j, p, [{ ...entry, slots: Number.POSITIVE_INFINITY }], { eta: 10 }),
    ).toThrow(/schedule\[0\]\.slots is Infinity, expected a finite number/);
    expect(() =>
      checkOasSchedule(j, p, [{ ...entry, allocation: [{ machine: "0", cores: 1 }] }] as never, {
        eta: 10,
      }),
    ).toThrow(/schedule\[0\]\.allocation\[0\]\.machine is "0"/);
    expect(() => checkOasSchedule(j, p, [{ ...entry, startSlot: 2 ** 30 }], { eta: 10 })).toThrow(
      /schedule\[0\]\.startSlot is 1073741824 with 1 slots, which ends after slot 16777216/,
    );
    // a well-typed entry that breaks the model is still a reported violation
    expect(checkOasSchedule(j, p, [{ ...entry, startSlot: -1 }], { eta: 10 })).toEqual([
      "job 1: start slot -1 (16)",
    ]);
  });

  it("slottedListSchedule checks order, eta and theta (an index left out left a hole in the result)", () => {
    const p = multiClusterPlatform([{ nodes: 2 }]);
    const j = [1, 2].map((id) => createJob({ id, submit: 0, runtime: 10, cores: 1 }));
    expect(() => slottedListSchedule(j, p, [1], { eta: 10, theta: 4 })).toThrow(
      "@sched/multicluster/slottedListSchedule: order has 1 entries, expected 2 (each index of jobs once)",
    );
    expect(() => slottedListSchedule(j, p, [0, 7], { eta: 10, theta: 4 })).toThrow(
      /order\[1\] is 7, expected a job index in \[0, 1\]/,
    );
    expect(() => slottedListSchedule(j, p, [0, 1], { eta: -1, theta: 4 })).toThrow(
      /options\.eta is -1, expected a finite number > 0/,
    );
    expect(() => slottedListSchedule(j, p, [0, 1], { eta: 10, theta: 1e308 })).toThrow(
      /options\.theta is 1e\+308, expected an integer in \[1, 16777216\]/,
    );
    expect(slottedListSchedule(j, p, [1, 0], { eta: 10, theta: 4 })).toHaveLength(2);
  });

  it("solveOas checks its flags, budget, incumbents and warmStartScore (raw TypeError / HighsError before, flags read for truthiness)", async () => {
    const p = multiClusterPlatform([{ nodes: 2 }]);
    const j = [createJob({ id: 1, submit: 0, runtime: 10, cores: 1 })];
    await expect(solveOas(j, p, { eta: 10, links: "no" as never })).rejects.toThrow(
      '@sched/multicluster/solveOas: options.links is "no", expected true or false',
    );
    for (const flag of ["symmetryBreaking", "loadCuts", "warmStart", "tightenHorizon"]) {
      await expect(solveOas(j, p, { eta: 10, [flag]: 1 })).rejects.toThrow(
        `@sched/multicluster/solveOas: options.${flag} is 1, expected true or false`,
      );
    }
    await expect(solveOas(j, p, { eta: 10, maxNodes: 2 ** 53 + 1 })).rejects.toThrow(
      /options\.maxNodes is 9007199254740992, expected an integer in \[1, 2147483647\] or Infinity/,
    );
    await expect(
      solveOas(j, p, { eta: 10, relativeGap: Number.POSITIVE_INFINITY }),
    ).rejects.toThrow(/options\.relativeGap is Infinity, expected a finite number >= 0/);
    await expect(
      solveOas(j, p, { eta: 10, warmStart: true, warmStartScore: 1 as never }),
    ).rejects.toThrow(/options\.warmStartScore is 1, expected a function/);
    await expect(
      solveOas(j, p, { eta: 10, warmStart: true, incumbents: [[5]] as never }),
    ).rejects.toThrow(/options\.incumbents\[0\]\[0\] is 5, expected an object/);
    expect((await solveOas(j, p, { eta: 10, warmStart: true })).status).toBe("optimal");
  });

  it("the cost functions check the allocation (a part on no machine threw a raw TypeError, string cores were coerced)", () => {
    const p = multiClusterPlatform([{ nodes: 2 }, { nodes: 2, speed: 0.5 }]);
    const job = createJob({ id: 1, submit: 0, runtime: 10, cores: 2 });
    expect(() => processingSlowdown(job, [{ machine: 7, cores: 1 }], p)).toThrow(
      "@sched/multicluster/processingSlowdown: allocation[0].machine is 7, expected a machine index in [0, 3]",
    );
    expect(() => tasksPerCluster([{ machine: 0, cores: "2" as never }], p)).toThrow(
      /allocation\[0\]\.cores is "2", expected an integer >= 1/,
    );
    expect(() =>
      evaluateCost(p, [{ job, allocation: 3 as never, profile: { sigma: 1, ptbw: 0 } }]),
    ).toThrow(/set\[0\]\.allocation is 3, expected an array/);
    expect(() => linkSlowdown(Number.NaN)).toThrow(/saturation is NaN, expected a number > 0/);
    expect(linkSlowdown(0.5)).toBe(2);
    expect(
      processingSlowdown(
        job,
        [
          { machine: 0, cores: 1 },
          { machine: 2, cores: 1 },
        ],
        p,
      ),
    ).toBe(2);
  });

  it("ruleOrder checks the jobs (null threw a raw TypeError, a number was sorted as a job)", () => {
    expect(() => ruleOrder("SPT", [null] as never)).toThrow(
      "@sched/multicluster/ruleOrder: jobs[0] is null, expected an object",
    );
    expect(() => ruleOrder("constructor" as never, [])).toThrow(/rule is "constructor"/);
  });

  it("the space-sharing simulators check the jobs (raw TypeErrors; the core path blamed createJob's spec.id)", () => {
    const p = multiClusterPlatform([{ nodes: 2 }]);
    expect(() => simulateSpaceSharing([null] as never, p)).toThrow(
      "@sched/multicluster/simulateSpaceSharing: jobs[0] is null, expected an object",
    );
    expect(() => simulateSpaceSharingOnCore([{ id: -1 }] as never, p)).toThrow(
      /simulateSpaceSharingOnCore: jobs\[0\]\.id is -1, expected an integer >= 0/,
    );
    expect(() => processorPlatform(p, 2 ** 53 + 1)).toThrow(
      /slots is 9007199254740992, expected an integer in \[1, 2147483647\]/,
    );
  });

  it("buildOasModel and contentionDelays check their options object (null threw a raw TypeError, unknown keys passed)", () => {
    const p = multiClusterPlatform([{ nodes: 2 }]);
    const j = [createJob({ id: 1, submit: 0, runtime: 10, cores: 1 })];
    expect(() => buildOasModel(j, p, null as never)).toThrow(
      "@sched/multicluster/buildOasModel: options is null, expected an object",
    );
    const trace = simulate(j, p, oasHeuristic("FCFS"));
    expect(() => contentionDelays(trace, { profiles: 1 } as never)).toThrow(
      /options\.profiles is not a known key/,
    );
    expect(() => contentionDelays(trace, { profile: 1 as never })).toThrow(
      /options\.profile is 1, expected a function/,
    );
    expect(contentionDelays(trace)).toEqual([]);
  });

  it("the instance helpers check their arguments (raw TypeErrors; a repeated resource was counted twice)", () => {
    const p = multiClusterPlatform([{ nodes: 2 }, { nodes: 2, speed: 0.5 }]);
    const inst = oasInstance([createJob({ id: 1, submit: 0, runtime: 10, cores: 2 })], p);
    expect(() => allocationOf(inst, [0, 0])).toThrow(
      "@sched/multicluster/allocationOf: resources[1] is 0, expected a resource index in [0, 3] not listed before",
    );
    expect(() => allocationCost(inst, 1, [{ machine: 0, cores: 1 }])).toThrow(
      /allocationCost: j is 1, expected a job index in \[0, 0\]/,
    );
    expect(() => candidateResources(inst, 0, [1, 1])).toThrow(
      /free has 2 entries, expected 4 \(one 0 or 1 per resource\)/,
    );
    expect(allocationOf(inst, [3, 0])).toEqual([
      { machine: 0, cores: 1 },
      { machine: 3, cores: 1 },
    ]);
    expect(candidateResources(inst, 0, [1, 1, 1, 1])[0]).toEqual([0, 1]);
  });

  it("the platform's and the instance's checks take each bound and refuse the value past it", () => {
    expect(multiClusterPlatform([{ nodes: 1, coresPerNode: 2 ** 31 - 1 }]).totalCores).toBe(
      2 ** 31 - 1,
    );
    expect(() => multiClusterPlatform([{ nodes: 0 }])).toThrow(
      "@sched/multicluster/multiClusterPlatform: clusters[0].nodes is 0, expected an integer >= 1",
    );
    expect(() => multiClusterPlatform([{ nodes: 1, coresPerNode: 2 ** 31 }])).toThrow(
      /clusters\[0\]\.coresPerNode is 2147483648, expected an integer in \[1, 2147483647\]/,
    );
    expect(() => multiClusterPlatform([{ nodes: 1, name: 5 as never }])).toThrow(
      /clusters\[0\]\.name is 5, expected a string/,
    );
    expect(() => multiClusterPlatform("c0" as never)).toThrow(
      /multiClusterPlatform: clusters is "c0", expected an array of clusters/,
    );
    const p = multiClusterPlatform([{ nodes: 2 }, { nodes: 2, speed: 0.5 }]);
    const job = createJob({ id: 1, submit: 0, runtime: 10, cores: 2 });
    const at = (sigma: number, ptbw: number) => () =>
      oasInstance([job], p, () => ({ sigma, ptbw }));
    expect(at(1, 0)().sigma[0]).toBe(1);
    expect(at(1.5, 0)).toThrow(/profile\(job 1\)\.sigma is 1\.5, expected a number in \[0, 1\]/);
    expect(at(0.5, Number.POSITIVE_INFINITY)).toThrow(
      /profile\(job 1\)\.ptbw is Infinity, expected a finite number >= 0/,
    );
    const inst = oasInstance([job], p);
    expect(allocationOf(inst, [3])).toEqual([{ machine: 3, cores: 1 }]);
    expect(() => allocationOf(inst, [4])).toThrow(
      /resources\[0\] is 4, expected a resource index in \[0, 3\] not listed before/,
    );
    expect(slotsNeeded({ baseTime: 10, ct: 1, eta: 0.5 })).toBe(20);
    expect(() => slotsNeeded({ baseTime: 10, ct: 1, eta: 0 })).toThrow(/options\.eta is 0/);
  });

  it("jobConfigurations checks groups, j and its options (raw TypeErrors before)", () => {
    const p = multiClusterPlatform([{ nodes: 2 }, { nodes: 2, speed: 0.5 }]);
    const inst = oasInstance([createJob({ id: 1, submit: 0, runtime: 10, cores: 2 })], p);
    const options = { eta: 10, theta: 8, links: true, maxConfigurations: 100, where: "mine" };
    expect(() => jobConfigurations(inst, "x" as never, 0, options)).toThrow(
      '@sched/multicluster/jobConfigurations: groups is "x", expected an array',
    );
    expect(() => jobConfigurations(inst, resourceGroups(inst), 3, options)).toThrow(
      /j is 3, expected a job index in \[0, 0\]/,
    );
    expect(() =>
      jobConfigurations(inst, resourceGroups(inst), 0, { ...options, links: "no" as never }),
    ).toThrow(/options\.links is "no", expected true or false/);
    expect(jobConfigurations(inst, resourceGroups(inst), 0, options).length).toBe(3);
  });
});
