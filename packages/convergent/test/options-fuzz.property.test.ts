import { createJob, createPlatform, type Scheduler, simulate } from "@sched/core";
import { type FuzzCase, fuzzOptions } from "@sched/tooling/fuzz";
import { describe, it } from "vitest";
import {
  antiAgingHeuristic,
  bandwidth,
  buildMatrix,
  compareLicenseWeight,
  convergent,
  convergentPass,
  convergentPriority,
  convergentVariant,
  deadlineDeltas,
  deadlineHeuristic,
  f1,
  IncrementalMatrix,
  inputHeuristic,
  licenseOffer,
  licenseRho,
  licensesHeuristic,
  licenseWeight,
  makePlan,
  matrixSource,
  minimalRequirementsHeuristic,
  overheadHeuristic,
  PlanMemory,
  paperHeuristics,
  remainingTime,
  rowMeans,
  scaled,
  transferTime,
  waitMinimizationHeuristic,
} from "../src/index.js";

// Every public function of the package, called validly, then with one argument, option or field
// made hostile (tooling/fuzz.js): a result or a typed @sched error naming the place, never a raw
// JavaScript error or a silently accepted value of the wrong type. FUZZ_RUNS=n samples more;
// FUZZ_EXHAUSTIVE=1 tries every mutation and lists every defect.
const platform = () =>
  createPlatform({
    machines: [{ speed: 1 }, { speed: 4 }],
    licenses: [{ name: "cad", copies: 1 }],
  });
const run = (policy: unknown) =>
  simulate(
    [
      createJob({ id: 1, submit: 0, runtime: 100, cores: 1 }),
      createJob({ id: 2, submit: 0, runtime: 100, cores: 1, deadline: 40 }),
      createJob({ id: 3, submit: 10, runtime: 20, cores: 1, deadline: 60, licenses: { cad: 1 } }),
    ],
    platform(),
    policy as never,
  ).records.length;

// The matrix functions' inputs: three rows (one running), two machines, a floating license
// two jobs ask for (critical: the pre-matching runs).
const rows = () => [
  {
    job: createJob({ id: 1, submit: 0, runtime: 100, cores: 1, licenses: { cad: 1 } }),
    progress: 0.5,
    machine: 1,
  },
  {
    job: createJob({ id: 2, submit: 0, runtime: 50, cores: 1, deadline: 80 }),
    progress: 0,
    machine: -1,
  },
  {
    job: createJob({ id: 3, submit: 5, runtime: 20, cores: 1, licenses: { cad: 1 } }),
    progress: 0,
    machine: -1,
  },
];
const matrixInput = () => ({
  now: 10,
  platform: platform(),
  jobs: rows(),
  previous: Int32Array.of(1, -1, 0),
  eligibility: () => Uint8Array.of(1, 1),
});
const firstPlan = () => makePlan(buildMatrix(matrixInput(), paperHeuristics()), { matcher: "mfs" });

// Ranks the waiting jobs with `priority` at every event and starts the best one on a free machine.
const byPriority = (priority: ReturnType<typeof convergentPriority>) => ({
  name: "by-priority",
  schedule(ctx: Parameters<Scheduler["schedule"]>[0]) {
    const waiting = [...ctx.view.waiting].sort(
      (a, b) => priority(b, ctx.view) - priority(a, ctx.view) || a.job.id - b.job.id,
    );
    for (const w of waiting) {
      for (let m = 0; m < ctx.view.platform.machines.length; m++) {
        if (ctx.view.freeCores(m) >= w.job.cores && ctx.view.freeLicenses("cad", m) >= 1) {
          ctx.start(w.job.id, [{ machine: m, cores: w.job.cores }]);
          break;
        }
      }
    }
  },
});

const cases: FuzzCase[] = [
  {
    name: "@sched/convergent/convergentPriority",
    params: ["options"],
    args: () => [
      {
        heuristics: [minimalRequirementsHeuristic(), antiAgingHeuristic()],
        constants: { base: 1 },
        readings: { waitSup: "row" },
      },
    ],
    call: (o) => run(byPriority(convergentPriority(o as never))),
  },
  {
    name: "@sched/convergent/remainingTime, transferTime and bandwidth",
    params: ["row", "platform", "m", "job", "options", "a", "b", "defaultBandwidth"],
    fixed: ["platform", "job"],
    args: () => [
      rows()[0],
      platform(),
      1,
      createJob({ id: 9, submit: 0, runtime: 5, cores: 1, input: [{ size: 1e6, machine: 0 }] }),
      { defaultBandwidth: 1e6 },
      0,
      1,
      1e6,
    ],
    call: (row, p, m, job, o, a, b, d) => [
      remainingTime(row as never, p as never, m as never),
      transferTime(job as never, p as never, m as never, o as never),
      bandwidth(p as never, a as never, b as never, d as never),
    ],
  },
  {
    name: "@sched/convergent/licenseOffer, licenseRho, licenseWeight and compareLicenseWeight",
    params: ["jobs", "platform", "licenses", "rho", "licenseCount", "a", "b"],
    fixed: ["platform"],
    args: () => [
      rows(),
      platform(),
      { cad: 1 },
      { cad: 2 },
      1,
      { critical: 2, nonCritical: 0, w: 2 },
      { critical: 1, nonCritical: 1, w: 2 },
    ],
    // w is not read by the comparison
    accepts: (place) => place === "a.w" || place === "b.w",
    call: (j, p, l, r, n, a, b) => [
      licenseOffer(p as never),
      licenseRho(j as never, p as never),
      licenseWeight(l as never, r as never, n as never),
      compareLicenseWeight(a as never, b as never),
    ],
  },
  {
    name: "@sched/convergent/rowMeans and scaled",
    params: ["weights", "rows", "cols", "h", "factor"],
    args: () => [
      Float64Array.of(0, 4, 2, 0, 0, 0),
      2,
      3,
      { name: "mine", apply: () => undefined },
      2,
    ],
    call: (w, r, c, h, f) => [
      rowMeans(w as never, r as never, c as never),
      buildMatrix(matrixInput(), [scaled(h as never, f as never)]).weights,
    ],
  },
  {
    name: "@sched/convergent/buildMatrix",
    params: ["input", "heuristics"],
    args: () => [matrixInput(), paperHeuristics()],
    call: (i, h) => buildMatrix(i as never, h as never).weights,
  },
  {
    name: "@sched/convergent/makePlan",
    params: ["matrix", "options", "previous", "matching"],
    opaque: ["matching"],
    args: () => {
      const first = firstPlan();
      return [
        buildMatrix(matrixInput(), paperHeuristics()),
        {
          matcher: "imfs",
          knapsack: "exact",
          changedRows: [0],
          costs: [2, 3, 4],
          clearInPlace: false,
          memory: new PlanMemory(),
          onPreMatch: () => undefined,
        },
        { rowIds: [...first.rowIds], weights: first.weights, cleared: [...first.cleared] },
        first.matching,
      ];
    },
    call: (m, o, p, match) =>
      makePlan(
        m as never,
        // a hostile options value is passed as is; otherwise previous is put back together
        (o !== null && typeof o === "object" && !Array.isArray(o)
          ? { ...o, previous: p === undefined ? undefined : { ...(p as object), matching: match } }
          : o) as never,
      ).rowToCol,
  },
  {
    name: "@sched/convergent/matrixSource (paper heuristics, incremental) and update",
    params: ["options", "input", "input"],
    names: (place, message) =>
      message.includes(place.split(/[.[]/).pop() ?? place) ||
      (place.startsWith("options.constants") && message.includes("options.constants")),
    args: () => [
      { incremental: true, refreshTolerance: 0.1, shiftHorizon: 1000, constants: { base: 2 } },
      matrixInput(),
      { ...matrixInput(), now: 20 },
    ],
    call: (o, i, i2) => {
      const source = matrixSource(o as never);
      source.update(i as never);
      const u = source.update(i2 as never);
      source.reset();
      return [u.matrix.weights, u.changedRows, u.costs];
    },
  },
  {
    name: "@sched/convergent/matrixSource (given heuristics, from scratch) and update",
    params: ["options", "input"],
    args: () => [{ heuristics: paperHeuristics(), incremental: false }, matrixInput()],
    call: (o, i) => matrixSource(o as never).update(i as never).matrix.weights,
  },
  {
    name: "@sched/convergent/IncrementalMatrix and its methods",
    params: ["options", "input", "input", "id"],
    args: () => [
      { heuristics: paperHeuristics(), tolerance: 0.1, horizon: 1000 },
      matrixInput(),
      { ...matrixInput(), now: 20 },
      2,
    ],
    call: (o, i, i2, id) => {
      const m = new IncrementalMatrix(o as never);
      m.update(i as never);
      m.forget(id as never);
      const u = m.update(i2 as never);
      const size = m.size;
      m.reset();
      return [u.matrix.weights, u.changedRows, u.costs, size];
    },
  },
  {
    name: "@sched/convergent/convergent",
    params: ["options"],
    // a constant so large that a row's sum overflows is named as options.constants (which one
    // overflowed is not known where the sum is seen)
    names: (place, message) =>
      message.includes(place.split(/[.[]/).pop() ?? place) ||
      (place.startsWith("options.constants") && message.includes("options.constants")),
    args: () => [
      {
        name: "cs",
        preemption: false,
        knapsack: "exact",
        refreshTolerance: 0.1,
        constants: {
          base: 1,
          deadlineMax: 10,
          deadlineMin: 0.1,
          deadlineK: 1.3,
          licenses: 2.5,
          antiAging: 0.02,
        },
        readings: { deadlineLate: "max", deadlineAllLate: "zero", waitSup: "row" },
      },
    ],
    call: (o) => run(convergent(o as never)),
  },
  {
    name: "@sched/convergent/convergentVariant",
    params: ["variant", "options"],
    args: () => ["CS_ip", { knapsack: "greedy", name: "v" }],
    call: (v, o) => run(convergentVariant(v as never, o as never)),
  },
  {
    name: "@sched/convergent/convergentPass",
    params: ["state", "options"],
    strictKeys: ["state", "options"],
    args: () => [
      {
        now: 10,
        platform: createPlatform({
          machines: [
            { cores: 4, speed: 1 },
            { cores: 4, speed: 4 },
          ],
        }),
        running: [{ id: 1, cores: 2, estimate: 100, submit: 0, machine: 1, progress: 0.4 }],
        queue: [{ id: 2, cores: 2, estimate: 40, submit: 10, deadline: 25, ready: 10 }],
      },
      { preemption: true, knapsack: "greedy" },
    ],
    call: (s, o) => convergentPass(s as never, o as never),
  },
  {
    name: "@sched/convergent/f1",
    params: ["options"],
    args: () => [{ extime: 50, t: 10, deadline: 100, min: 0.1, max: 10, late: 10 }],
    call: (o) => f1(o as never),
  },
  {
    name: "@sched/convergent/heuristics (anti-aging, input, licenses, overhead, wait, minimal)",
    params: ["antiAging", "input", "licenses", "overhead", "wait", "minimal"],
    args: () => [
      { weight: 0.02 },
      { weight: 3, defaultBandwidth: 10 },
      { weight: 2.5 },
      { weight: 100 },
      { weight: 4, sup: "row" },
      { base: 1 },
    ],
    call: (a, i, l, o, w, m) =>
      run(
        convergent({
          heuristics: [
            minimalRequirementsHeuristic(m as never),
            antiAgingHeuristic(a as never),
            inputHeuristic(i as never),
            licensesHeuristic(l as never),
            overheadHeuristic(o as never),
            waitMinimizationHeuristic(w as never),
          ],
        }),
      ),
  },
  {
    name: "@sched/convergent/deadlineHeuristic",
    params: ["options"],
    args: () => [{ max: 10, min: 0.1, k: 1.3, late: "max", allLate: "zero" }],
    call: (o) =>
      run(
        convergent({ heuristics: [minimalRequirementsHeuristic(), deadlineHeuristic(o as never)] }),
      ),
  },
  {
    name: "@sched/convergent/deadlineDeltas",
    params: ["now", "deadline", "nxtime", "options"],
    args: () => [0, 100, [20, 120], { max: 10, min: 0.1, k: 1.3 }],
    call: (n, d, x, o) => deadlineDeltas(n as never, d as never, x as never, o as never),
  },
];

describe("options fuzz: @sched/convergent ends in a result or an error naming the place", () => {
  for (const c of cases) it(c.name, () => fuzzOptions(c));
});
