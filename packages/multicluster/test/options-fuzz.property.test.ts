import { createJob, simulate } from "@sched/core";
import { type FuzzCase, fuzzOptions } from "@sched/tooling/fuzz";
import { describe, it } from "vitest";
import {
  adaptivePartitionSize,
  allocationCost,
  allocationOf,
  bruteForceOas,
  buildOasModel,
  candidateResources,
  checkOasSchedule,
  clusterBandwidths,
  contentionDelays,
  dynamicPartitionSize,
  evaluateCost,
  fitnessFactors,
  jobConfigurations,
  linkDemand,
  linkLoadViolations,
  linkSaturation,
  linkSlowdown,
  mapPartitionSize,
  multiClusterPlatform,
  oasExecutionModel,
  oasHeuristic,
  oasInstance,
  oasPlanScheduler,
  oasSlotDefaults,
  processingSlowdown,
  processorPlatform,
  resourceGroups,
  ruleOrder,
  selectProcessors,
  simulateSpaceSharing,
  simulateSpaceSharingOnCore,
  slotsNeeded,
  slottedListSchedule,
  slottedPlanFromTrace,
  solveOas,
  spaceSharingExecutionModel,
  spaceSharingPass,
  spaceSharingScheduler,
  taskBunches,
  tasksPerCluster,
  timeCost,
} from "../src/index.js";

// Every public function of the package, called validly, then with one argument, option or field
// made hostile (tooling/fuzz.js): a result or a typed @sched error naming the place, never a raw
// JavaScript error or a silently accepted value of the wrong type. FUZZ_RUNS=n samples more;
// FUZZ_EXHAUSTIVE=1 tries every mutation and lists every defect.
const clusters = () => [
  { nodes: 2, speed: 1, coresPerNode: 1, bandwidth: 1e9, latency: 0.001, name: "a" },
  { nodes: 2, speed: 0.5 },
];
const platform = () =>
  multiClusterPlatform([
    { nodes: 2, speed: 1 },
    { nodes: 2, speed: 0.5 },
  ]);
const jobs = () => [
  createJob({ id: 1, submit: 0, runtime: 100, cores: 3, maxParallelism: 3 }),
  createJob({ id: 2, submit: 0, runtime: 30, cores: 1 }),
  createJob({ id: 3, submit: 5, runtime: 60, cores: 2 }),
];
const profile = () => ({ sigma: 0.5, ptbw: 50e6 });

// A feasible slotted schedule (the list schedule in job order), as checkOasSchedule and
// solveOas's incumbents take it.
const oasSchedule = (n = 3) =>
  slottedListSchedule(jobs().slice(0, n), platform(), [0, 1, 2].slice(0, n), {
    eta: 40,
    theta: 20,
    profile,
  }) as NonNullable<ReturnType<typeof slottedListSchedule>>;

// A trace of the OAS heuristic with the contention model (trusted input: the engine's).
const oasTrace = () =>
  simulate(jobs(), platform(), oasHeuristic("FCFS", { profile }), {
    executionModel: oasExecutionModel({ profile }),
  });

const cases: FuzzCase[] = [
  {
    name: "@sched/multicluster/resourceGroups and jobConfigurations",
    params: ["instance", "groups", "j", "options"],
    fixed: ["instance"],
    args: () => {
      const inst = oasInstance(jobs(), platform(), profile);
      return [
        inst,
        resourceGroups(inst),
        0,
        { eta: 40, theta: 20, links: true, maxConfigurations: 1000, where: "mine" },
      ];
    },
    call: (inst, g, j, o) => [
      resourceGroups(inst as never),
      jobConfigurations(inst as never, g as never, j as never, o as never),
    ],
  },
  {
    name: "@sched/multicluster/oasInstance and clusterBandwidths",
    params: ["jobs", "platform", "profile"],
    fixed: ["platform"],
    args: () => [jobs(), platform(), profile],
    call: (j, p, f) => [
      oasInstance(j as never, p as never, f as never).tasks,
      clusterBandwidths(p as never),
    ],
  },
  {
    name: "@sched/multicluster/allocationOf, allocationCost and candidateResources",
    params: ["instance", "resources", "j", "allocation", "free"],
    fixed: ["instance"],
    args: () => [
      oasInstance(jobs(), platform(), profile),
      [0, 2, 3],
      0,
      [
        { machine: 0, cores: 1 },
        { machine: 2, cores: 2 },
      ],
      Uint8Array.of(1, 1, 0, 1),
    ],
    call: (inst, r, j, a, free) => [
      allocationOf(inst as never, r as never),
      allocationCost(inst as never, j as never, a as never),
      candidateResources(inst as never, j as never, free as never),
    ],
  },
  {
    name: "@sched/multicluster/buildOasModel and oasSlotDefaults",
    params: ["jobs", "platform", "options"],
    fixed: ["platform"],
    args: () => [
      jobs().slice(0, 2),
      platform(),
      {
        eta: 40,
        profile,
        formulation: "resources",
        links: true,
        symmetryBreaking: false,
        loadCuts: true,
        maxConfigurations: 1000,
      },
    ],
    call: (j, p, o) => [
      oasSlotDefaults(j as never, p as never, o as never),
      buildOasModel(j as never, p as never, o as never).variables,
    ],
  },
  {
    name: "@sched/multicluster/slottedPlanFromTrace",
    params: ["trace", "jobs", "options"],
    fixed: ["trace"],
    args: () => [oasTrace(), jobs(), { eta: 40, theta: 40, profile }],
    call: (t, j, o) => slottedPlanFromTrace(t as never, j as never, o as never),
  },
  {
    name: "@sched/multicluster/contentionDelays and linkLoadViolations",
    params: ["trace", "options", "profile"],
    fixed: ["trace"],
    args: () => [oasTrace(), { profile }, profile],
    call: (t, o, p) => [
      contentionDelays(t as never, o as never),
      linkLoadViolations(t as never, p as never),
    ],
  },
  {
    name: "@sched/multicluster/ruleOrder and linkSlowdown",
    params: ["rule", "jobs", "saturation"],
    args: () => ["SPT", jobs(), 0.5],
    call: (r, j, s) => [ruleOrder(r as never, j as never), linkSlowdown(s as never)],
  },
  {
    name: "@sched/multicluster/processingSlowdown, tasksPerCluster and evaluateCost",
    params: ["job", "allocation", "platform", "set"],
    fixed: ["platform", "job"],
    args: () => [
      jobs()[0],
      [
        { machine: 0, cores: 1 },
        { machine: 2, cores: 1 },
      ],
      platform(),
      [
        {
          job: jobs()[0],
          allocation: [
            { machine: 0, cores: 1 },
            { machine: 2, cores: 1 },
          ],
          profile: { sigma: 0.5, ptbw: 50e6 },
        },
      ],
    ],
    call: (j, a, p, set) => [
      processingSlowdown(j as never, a as never, p as never),
      tasksPerCluster(a as never, p as never),
      evaluateCost(p as never, set as never),
    ],
  },
  {
    name: "@sched/multicluster/processorPlatform",
    params: ["platform", "slots"],
    fixed: ["platform"],
    args: () => [platform(), 2],
    call: (p, s) => processorPlatform(p as never, s as never).machines.length,
  },
  {
    name: "@sched/multicluster/simulateSpaceSharingOnCore",
    params: ["jobs", "platform", "options"],
    fixed: ["platform"],
    args: () => [jobs(), platform(), { policy: "dynamic", alpha: 2, backgroundLoad: 0.2, seed: 4 }],
    call: (j, p, o) => simulateSpaceSharingOnCore(j as never, p as never, o as never).meanResponse,
  },
  {
    name: "@sched/multicluster/simulateSpaceSharing (jobs)",
    params: ["jobs", "platform", "options"],
    fixed: ["platform"],
    args: () => [jobs(), platform(), { policy: "adaptive" }],
    call: (j, p, o) => simulateSpaceSharing(j as never, p as never, o as never).meanResponse,
  },
  {
    name: "@sched/multicluster/spaceSharingExecutionModel",
    params: ["options"],
    args: () => [{ bunching: "equal" }],
    call: (o) =>
      simulate(jobs(), platform(), spaceSharingScheduler(), {
        executionModel: spaceSharingExecutionModel(o as never),
      }).records.length,
  },
  {
    name: "@sched/multicluster/solveOas",
    params: ["jobs", "platform", "options"],
    fixed: ["platform"],
    args: () => [
      jobs().slice(0, 2),
      platform(),
      {
        eta: 40,
        theta: 8,
        profile,
        formulation: "configurations",
        links: true,
        symmetryBreaking: true,
        loadCuts: true,
        maxConfigurations: 1000,
        maxNodes: 200,
        relativeGap: 0,
        warmStart: true,
        incumbents: [oasSchedule(2)],
        tightenHorizon: true,
        warmStartScore: (s: readonly { startSlot: number; slots: number }[]) => s.length,
      },
    ],
    call: (j, p, o) => solveOas(j as never, p as never, o as never),
  },
  {
    name: "@sched/multicluster/checkOasSchedule",
    params: ["jobs", "platform", "schedule", "options"],
    fixed: ["platform"],
    args: () => [jobs(), platform(), oasSchedule(), { eta: 40, theta: 20, profile }],
    call: (j, p, s, o) => checkOasSchedule(j as never, p as never, s as never, o as never),
  },
  {
    name: "@sched/multicluster/slottedListSchedule",
    params: ["jobs", "platform", "order", "options"],
    fixed: ["platform"],
    args: () => [jobs(), platform(), [1, 0, 2], { eta: 40, theta: 12, profile }],
    call: (j, p, order, o) =>
      slottedListSchedule(j as never, p as never, order as never, o as never),
  },
  {
    name: "@sched/multicluster/selectProcessors",
    params: ["platform", "processorMachine", "available", "count", "options"],
    fixed: ["platform"],
    args: () => [platform(), [0, 1, 2, 3], Uint8Array.of(1, 0, 1, 1), 2, { cluster: "best-fit" }],
    call: (p, pm, a, c, o) =>
      selectProcessors(p as never, pm as never, a as never, c as never, o as never),
  },
  {
    name: "@sched/multicluster/multiClusterPlatform",
    params: ["clusters", "options"],
    args: () => [clusters(), { referenceSpeed: 1 }],
    call: (c, o) => multiClusterPlatform(c as never, o as never),
  },
  {
    name: "@sched/multicluster/spaceSharingPass",
    params: ["state", "options"],
    strictKeys: ["state", "options"],
    args: () => [
      {
        platform: multiClusterPlatform([
          { nodes: 4, speed: 1 },
          { nodes: 2, speed: 2 },
        ]),
        available: [0, 1, 2, 3, 4, 5],
        queue: [6, 6, 2].map((max, i) => ({ id: i + 1, minProcessors: 1, maxProcessors: max })),
        executing: 0,
      },
      {
        policy: "adaptive",
        alpha: 2,
        baselinePartition: "rosti",
        executingWeight: 1,
        baselineSelection: "fastest",
      },
    ],
    call: (s, o) => spaceSharingPass(s as never, o as never),
  },
  {
    name: "@sched/multicluster/spaceSharingScheduler",
    params: ["options"],
    args: () => [
      {
        policy: "dynamic",
        alpha: 2,
        clusterSelection: "best-fit",
        dynamicAllotment: "target",
        baselinePartition: "map",
        executingWeight: 1,
        baselineSelection: "random",
        seed: 3,
      },
    ],
    call: (o) => simulate(jobs(), platform(), spaceSharingScheduler(o as never)).records.length,
  },
  {
    name: "@sched/multicluster/simulateSpaceSharing",
    params: ["options"],
    args: () => [
      { policy: "dynamic", alpha: 2, clusterSelection: "lowest-index", dynamicAllotment: "target" },
    ],
    call: (o) => simulateSpaceSharing(jobs(), platform(), o as never),
  },
  {
    name: "@sched/multicluster/oasHeuristic",
    params: ["rule", "options"],
    args: () => ["SJF", { profile }],
    call: (r, o) =>
      simulate(jobs(), platform(), oasHeuristic(r as never, o as never)).records.length,
  },
  {
    name: "@sched/multicluster/bruteForceOas",
    params: ["options"],
    args: () => [{ eta: 40, theta: 8, profile, maxNodes: 2000 }],
    call: (o) => bruteForceOas(jobs().slice(0, 2), platform(), o as never),
  },
  {
    name: "@sched/multicluster/timeCost",
    params: ["options"],
    args: () => [{ sigma: 0.5, sp: 10, sc: 2 }],
    call: (o) => timeCost(o as never),
  },
  {
    name: "@sched/multicluster/dynamicPartitionSize",
    params: ["options"],
    args: () => [{ processors: 16, queued: 3, executing: 2 }],
    call: (o) => dynamicPartitionSize(o as never),
  },
  {
    name: "@sched/multicluster/mapPartitionSize",
    params: ["options"],
    args: () => [{ processors: 16, queued: 3, executing: 2, executingWeight: 0.5 }],
    call: (o) => mapPartitionSize(o as never),
  },
  {
    name: "@sched/multicluster/adaptivePartitionSize",
    params: ["processors", "queued"],
    args: () => [16, 3],
    call: (p, q) => adaptivePartitionSize(p as never, q as never),
  },
  {
    name: "@sched/multicluster/fitnessFactors",
    params: ["speeds", "mpl"],
    args: () => [[1, 2, 4], 2],
    call: (s, m) => fitnessFactors(s as never, m as never),
  },
  {
    name: "@sched/multicluster/taskBunches",
    params: ["weights", "tasks"],
    args: () => [[1, 2, 4], 10],
    call: (w, t) => taskBunches(w as never, t as never),
  },
  {
    name: "@sched/multicluster/linkDemand",
    params: ["options", "maxBandwidth", "demand"],
    args: () => [{ tasksInCluster: 2, tasks: 4, ptbw: 1e6 }, 1e9, 5e8],
    call: (o, b, d) => [linkDemand(o as never), linkSaturation(b as never, d as never)],
  },
  {
    name: "@sched/multicluster/slotsNeeded",
    params: ["options"],
    args: () => [{ baseTime: 100, ct: 50, eta: 40 }],
    call: (o) => slotsNeeded(o as never),
  },
  {
    name: "@sched/multicluster/oasExecutionModel",
    params: ["options"],
    args: () => [{ profile, contention: true }],
    call: (o) =>
      simulate(jobs(), platform(), oasHeuristic("FCFS", { profile }), {
        executionModel: oasExecutionModel(o as never),
      }).records.length,
  },
  {
    name: "@sched/multicluster/oasPlanScheduler",
    params: ["schedule", "eta", "options"],
    args: () => [
      [
        {
          jobId: 1,
          startSlot: 0,
          slots: 3,
          allocation: [
            { machine: 0, cores: 1 },
            { machine: 1, cores: 1 },
            { machine: 2, cores: 1 },
          ],
        },
        { jobId: 2, startSlot: 0, slots: 1, allocation: [{ machine: 3, cores: 1 }] },
        {
          jobId: 3,
          startSlot: 3,
          slots: 2,
          allocation: [
            { machine: 0, cores: 1 },
            { machine: 1, cores: 1 },
          ],
        },
      ],
      40,
      { compact: true, profile },
    ],
    call: (s, e, o) =>
      simulate(jobs(), platform(), oasPlanScheduler(s as never, e as never, o as never)).records
        .length,
  },
];

describe("options fuzz: @sched/multicluster ends in a result or an error naming the place", () => {
  for (const c of cases) it(c.name, () => fuzzOptions(c));
});
