import { type FuzzCase, fuzzOptions } from "@sched/tooling/fuzz";
import { describe, it } from "vitest";
import {
  checkSchedule,
  computeMetrics,
  createJob,
  createPlatform,
  firstFitAllocation,
  identicalPool,
  metricsOf,
  type Scheduler,
  simulate,
  simulateStream,
  traceFromJSON,
  traceToJSON,
  validateJobs,
  validatePlatform,
} from "../src/index.js";

// Every public function of the package, called validly, then with one argument, option or field
// made hostile (tooling/fuzz.js): a result or a typed @sched error naming the place, never a raw
// JavaScript error or a silently accepted value of the wrong type. FUZZ_RUNS=n samples more;
// FUZZ_EXHAUSTIVE=1 tries every mutation and lists every defect.
const firstFit = (): Scheduler => ({
  name: "first-fit",
  schedule(ctx) {
    for (const w of ctx.view.waiting) {
      if ((w.job.ready ?? 0) > ctx.view.now) continue;
      const allocation = firstFitAllocation(ctx.view, w.job.cores);
      if (allocation) ctx.start(w.job.id, allocation);
    }
  },
});
const jobSpecs = () => [
  { id: 1, submit: 0, runtime: 100, cores: 2, estimate: 120, licenses: { cad: 1 } },
  { id: 2, submit: 10, runtime: 50, estimate: 50, cores: 4, deadline: 400 },
  { id: 3, submit: 20, runtime: 30, estimate: 40, cores: 1, ready: 25 },
];
const platformSpec = () => ({
  machines: [
    { cores: 4, speed: 1, cluster: 0, name: "a" },
    { cores: 2, speed: 2, cluster: 0 },
  ],
  licenses: [{ name: "cad", copies: 1, kind: "floating" }],
  clusters: [{ name: "c", link: 0 }],
  links: [{ bandwidth: 100, latency: 1 }],
  referenceSpeed: 1,
});
const trace = () => simulate(jobSpecs(), createPlatform(platformSpec() as never), firstFit());
// A trace as a caller builds it by hand (plain, unfrozen objects, so every field can be made
// hostile): the engine's run written out and read back as data, cut by a horizon.
const handTrace = () => {
  const { format: _f, version: _v, ...rest } = JSON.parse(traceToJSON(trace()));
  return { ...rest, horizon: 1e4 };
};
// A trace's `stats.schedulerMs` is NaN when unknown (written without timings)
const unknownTimings = (place: string, value: unknown) =>
  place.endsWith("stats.schedulerMs") && Number.isNaN(value);

const cases: FuzzCase[] = [
  {
    name: "@sched/core/simulate",
    params: ["jobs", "platform", "scheduler", "options"],
    // the platform goes through createPlatform (its spec); an execution model's Infinity names
    // the model (a referenceSpeed of 1e-300 makes every duration infinite)
    names: (place, message) =>
      message.includes(place.split(/[.[]/).pop() ?? place) ||
      (place.startsWith("platform") && /spec|license|executionModel/.test(message)),
    args: () => [
      jobSpecs(),
      platformSpec(),
      firstFit(),
      { until: 1e4, maxEvents: 1000, maxStalledEvents: 50 },
    ],
    call: (j, p, s, o) =>
      simulate(j as never, createPlatform(p as never), s as never, o as never).records.length,
  },
  {
    name: "@sched/core/simulateStream",
    params: ["jobs", "options"],
    // options.metrics is `true`, `false` or { tau }
    accepts: (place, value) => place === "options.metrics" && typeof value === "boolean",
    args: () => [jobSpecs(), { until: 1e4, metrics: { tau: 10 }, onRecord: () => {} }],
    call: (j, o) =>
      simulateStream(
        j as never,
        identicalPool(4, { licenses: [{ name: "cad", copies: 1 }] }),
        firstFit(),
        o as never,
      ),
  },
  {
    name: "@sched/core/createPlatform",
    params: ["spec"],
    args: () => [platformSpec()],
    call: (s) => createPlatform(s as never),
  },
  {
    name: "@sched/core/identicalPool",
    params: ["n", "options"],
    args: () => [
      3,
      { cores: 2, speed: 1.5, referenceSpeed: 1, licenses: [{ name: "x", copies: 2 }] },
    ],
    call: (n, o) => identicalPool(n as never, o as never),
  },
  {
    name: "@sched/core/createJob",
    params: ["spec"],
    args: () => [{ ...jobSpecs()[0], deadline: 500, ready: 5, maxParallelism: 2, benchmark: 1 }],
    call: (s) => createJob(s as never),
  },
  {
    name: "@sched/core/validateJobs",
    params: ["jobs"],
    args: () => [jobSpecs()],
    call: (s) => validateJobs(s as never),
  },
  {
    name: "@sched/core/computeMetrics",
    params: ["trace", "options"],
    // a trace built by hand: every field down to an allocation part's cores
    args: () => [handTrace(), { tau: 10 }],
    depth: 8,
    accepts: unknownTimings,
    call: (t, o) => computeMetrics(t as never, o as never),
  },
  {
    name: "@sched/core/checkSchedule",
    params: ["trace", "options"],
    // a trace built by hand: every field down to an allocation part's cores
    // a well-typed value that breaks an invariant is a reported violation, not an error
    args: () => [handTrace(), { deadlinesAreHard: true, tolerance: 1e-9 }],
    depth: 8,
    accepts: unknownTimings,
    call: (t, o) => checkSchedule(t as never, o as never),
  },
  {
    name: "@sched/core/traceToJSON",
    params: ["trace", "options"],
    // a trace built by hand: every field down to an allocation part's cores
    args: () => [handTrace(), { timings: false }],
    depth: 8,
    accepts: unknownTimings,
    call: (t, o) => traceToJSON(t as never, o as never),
  },
  {
    name: "@sched/core/metricsOf",
    params: ["records", "capacity", "options"],
    args: () => {
      const t = handTrace();
      return [t.records, t.platform, { tau: 10, horizon: 1e4, stats: t.stats }];
    },
    depth: 7,
    accepts: unknownTimings,
    call: (r, c, o) => metricsOf(r as never, c as never, o as never),
  },
  {
    name: "@sched/core/metricsOf (a core count)",
    params: ["records", "capacity", "options"],
    args: () => [handTrace().records, { totalCores: 6 }],
    depth: 7,
    call: (r, c) => metricsOf(r as never, c as never),
  },
  {
    name: "@sched/core/validatePlatform",
    params: ["platform", "where"],
    args: () => [handTrace().platform, "@sched/x/y"],
    depth: 4,
    call: (p, w) => validatePlatform(p as never, w as never),
  },
  {
    name: "@sched/core/traceFromJSON",
    params: ["json"],
    names: (_place, message) => message.includes("trace JSON"),
    args: () => [JSON.parse(JSON.stringify(traceToJSON(trace())))],
    depth: 4,
    call: (j) => traceFromJSON(j as never),
  },
];

describe("options fuzz: @sched/core ends in a result or an error naming the place", () => {
  for (const c of cases) it(c.name, () => fuzzOptions(c));
});
