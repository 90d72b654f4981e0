import { type FuzzCase, fuzzOptions } from "@sched/tooling/fuzz";
import { describe, it } from "vitest";
import {
  benchmarkOf,
  createJob,
  createSimulation,
  defaultExecutionModel,
  eligibleMachines,
  firstFitAllocation,
  fitsMachine,
  identicalPool,
  licensesFreeOn,
  MetricSums,
  maxCoresOf,
  ResourceLedger,
  type Scheduler,
  whyNeverFits,
} from "../src/index.js";
import { makeView } from "../src/testing/index.js";

// The public functions and classes of the package that options-fuzz.property.test.ts does not
// call: eligibility, the ledger, the metric sums, the fed simulation and the small helpers. Each
// called validly, then with one argument, field or option made hostile (tooling/fuzz.js): a
// result or a typed @sched error naming the place. FUZZ_RUNS=n samples more; FUZZ_EXHAUSTIVE=1
// tries every mutation and lists every defect. `defaultExecutionModel.duration` is here too: the
// engine inlines its formula for the jobs and platform it checked, but a policy reaches it through
// `view.duration`, and a custom model may call it.

/** A platform as plain data (as a caller builds one by hand): 2 machines, two licenses. */
const platform = () => ({
  machines: [
    { id: 0, name: "a", cores: 4, speed: 1, cluster: 0 },
    { id: 1, name: "b", cores: 2, speed: 2, cluster: 0 },
  ],
  licenses: [
    { name: "cad", kind: "floating", copies: 2 },
    { name: "nl", kind: "node-locked", copies: 1, machines: [1] },
  ],
  clusters: [{ id: 0, name: "c0", link: 0 }],
  links: [{ id: 0, bandwidth: 100, latency: 1 }],
  referenceSpeed: 1,
  totalCores: 6,
});
/**
 * A job as a policy's pass state carries it: only the fields resource questions read (the
 * others are not looked at, so a hostile value there is no defect).
 */
const job = () => ({ cores: 2, licenses: { cad: 1 }, maxParallelism: 3 });
const firstFit = (): Scheduler => ({
  name: "first-fit",
  schedule(ctx) {
    for (const w of ctx.view.waiting) {
      const allocation = firstFitAllocation(ctx.view, w.job.cores);
      if (allocation) ctx.start(w.job.id, allocation);
    }
  },
});
// `where` of the ledger names the caller in the messages: any string goes
const anyString = (place: string, value: unknown) => place === "where" && typeof value === "string";

const cases: FuzzCase[] = [
  {
    name: "@sched/core/defaultExecutionModel.duration",
    params: ["job", "allocation", "platform", "seconds"],
    args: () => [{ benchmark: 2 }, [{ machine: 1, cores: 1 }], platform(), 10],
    call: (j, a, p, s) =>
      defaultExecutionModel.duration(j as never, a as never, p as never, s as never),
    // the model reads a part's machine only: its cores are the ledger's business
    accepts: (place) => /^allocation\[\d+\]\.cores$/.test(place),
  },
  {
    name: "@sched/core/fitsMachine",
    params: ["job", "platform", "machine"],
    args: () => [job(), platform(), 1],
    call: (j, p, m) => fitsMachine(j as never, p as never, m as never),
  },
  {
    name: "@sched/core/eligibleMachines",
    params: ["job", "platform"],
    args: () => [job(), platform()],
    call: (j, p) => eligibleMachines(j as never, p as never),
  },
  {
    name: "@sched/core/whyNeverFits",
    params: ["job", "platform", "options"],
    args: () => [job(), platform(), { singleMachine: true }],
    call: (j, p, o) => whyNeverFits(j as never, p as never, o as never),
  },
  {
    name: "@sched/core/licensesFreeOn",
    params: ["job", "view", "machine", "options"],
    args: () => [
      { ...job(), licenses: { cad: 1, nl: 1 } },
      { platform: platform(), freeLicenses: () => 1 },
      1,
      { first: true },
    ],
    call: (j, v, m, o) => licensesFreeOn(j as never, v as never, m as never, o as never),
  },
  {
    name: "@sched/core/ResourceLedger",
    params: ["platform", "job", "allocation", "where"],
    accepts: anyString,
    // a platform whose licenses no longer hold the job's: the ledger names the job and license
    names: (place, message) =>
      message.includes(place.split(/[.[]/).pop() ?? place) ||
      (place.startsWith("platform.licenses") && /license/.test(message)) ||
      // without maxParallelism the job is rigid: its 3-core allocation is refused as such
      (place === "job.maxParallelism" && /allocation: gives 3 cores/.test(message)),
    args: () => [
      platform(),
      { id: 1, ...job() },
      [
        { machine: 0, cores: 2 },
        { machine: 1, cores: 1 },
      ],
      "@sched/x/y",
    ],
    call: (p, j, a, w) => {
      const ledger = new ResourceLedger(p as never);
      ledger.take(j as never, a as never, w as never);
      const taken = [ledger.freeCores(0), ledger.freeLicenses("cad", 0), ledger.nextFreeMachine(0)];
      ledger.give(j as never, a as never);
      return [...taken, ledger.totalFreeCores];
    },
  },
  {
    name: "@sched/core/ResourceLedger (queries and give)",
    params: ["machine", "license", "from", "given"],
    args: () => [1, "cad", 0, [{ machine: 1, cores: 1 }]],
    call: (m, l, f, given) => {
      const ledger = new ResourceLedger(identicalPool(2, { cores: 2 }));
      const j = createJob({ id: 1, submit: 0, runtime: 1, cores: 1 });
      ledger.take(j, [{ machine: 1, cores: 1 }]);
      const out = [
        ledger.freeCores(m as never),
        ledger.freeLicenses(l as never, m as never),
        ledger.nextFreeMachine(f as never),
      ];
      ledger.give(j, given as never);
      return out;
    },
  },
  {
    name: "@sched/core/MetricSums",
    params: ["totalCores", "options", "submit", "start", "end", "cores", "missed", "result"],
    // a machine usage not computed is NaN, the default
    accepts: (place, value) => place === "result.machineUsage" && Number.isNaN(value),
    args: () => [
      8,
      { tau: 10 },
      0,
      5,
      20,
      2,
      true,
      {
        horizon: 30,
        machineUsage: 0.5,
        stats: { events: 1, decisions: 1, schedulerMs: 1 },
        licenseUsage: 0.5,
        licenseUsageByName: { cad: 0.5 },
      },
    ],
    call: (tc, o, s, st, e, c, missed, result) => {
      const sums = new MetricSums(tc as never, o as never);
      sums.addCompletedRun(s as never, st as never, e as never, c as never);
      const ran = sums.addInterval(st as never, e as never, c as never);
      sums.addCompleted(s as never, st as never, e as never, ran);
      sums.addRejected(s as never, e as never);
      sums.addUnfinished(s as never, e as never);
      sums.addDeadline(missed as never);
      return [sums.window(e as never), sums.makespan(e as never), sums.metrics(result as never)];
    },
  },
  {
    name: "@sched/core/createSimulation",
    params: ["platform", "scheduler", "options", "jobs"],
    // options.metrics is `true`, `false` or { tau }; a platform whose licenses no longer hold a
    // job's is refused by the engine naming the job and the license; a referenceSpeed of 1e308
    // makes the execution model's durations infinite (named by the model)
    accepts: (place, value) => place === "options.metrics" && typeof value === "boolean",
    names: (place, message) =>
      message.includes(place.split(/[.[]/).pop() ?? place) ||
      (place.startsWith("platform") && /license|executionModel/.test(message)),
    args: () => [
      platform(),
      firstFit(),
      { until: 1e4, maxEvents: 1000, metrics: { tau: 10 }, onRecord: () => {} },
      [
        { id: 1, submit: 0, runtime: 100, estimate: 120, cores: 2, licenses: { cad: 1 } },
        { id: 2, submit: 10, runtime: 50, estimate: 50, cores: 4, deadline: 400 },
      ],
    ],
    call: (p, s, o, j) => {
      const sim = createSimulation(p as never, s as never, o as never);
      sim.push(j as never);
      return sim.end();
    },
  },
  {
    name: "@sched/core/firstFitAllocation",
    params: ["view", "cores"],
    // the view is the engine's (a policy passes ctx.view on): trusted
    fixed: ["view"],
    args: () => [makeView(identicalPool(3, { cores: 2 })), 3],
    call: (v, c) => firstFitAllocation(v as never, c as never),
  },
  {
    name: "@sched/core/benchmarkOf",
    params: ["job", "platform"],
    args: () => [{ ...job(), benchmark: 2 }, platform()],
    call: (j, p) => benchmarkOf(j as never, p as never),
  },
  {
    name: "@sched/core/maxCoresOf",
    params: ["job"],
    args: () => [job()],
    call: (j) => maxCoresOf(j as never),
  },
  {
    name: "@sched/core/testing/makeView",
    params: ["platform", "options"],
    args: () => {
      const full = createJob({ id: 2, submit: 0, runtime: 10, cores: 1 });
      return [
        platform(),
        {
          now: 5,
          waiting: [
            createJob({ id: 3, submit: 1, runtime: 5, cores: 2 }),
            { job: full, progress: 0.5, preemptions: 1 },
          ],
          running: [
            {
              job: createJob({ id: 1, submit: 0, runtime: 10, cores: 2 }),
              allocation: [{ machine: 0, cores: 2 }],
              start: 0,
              progressAtStart: 0,
              progress: 0.5,
              estimatedEnd: 10,
            },
          ],
          freeLicenses: () => 1,
          executionModel: { name: "m", duration: () => 7 },
        },
      ];
    },
    call: (p, o) => {
      const v = makeView(p as never, o as never);
      return [v.totalFreeCores, v.nextFreeMachine(0), v.waitingAt(0), v.freeLicenses("cad", 0)];
    },
  },
];

describe("API fuzz: @sched/core ends in a result or an error naming the place", () => {
  for (const c of cases) it(c.name, () => fuzzOptions(c));
});
