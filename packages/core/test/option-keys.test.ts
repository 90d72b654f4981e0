import { describe, expect, it } from "vitest";
import {
  checkSchedule,
  computeMetrics,
  createJob,
  createPlatform,
  createSimulation,
  InvalidInputError,
  identicalPool,
  MetricSums,
  metricsOf,
  type Scheduler,
  simulate,
  simulateStream,
  traceFromJSON,
  traceToJSON,
  whyNeverFits,
} from "../src/index.js";

/** `fn` throws an InvalidInputError whose message contains `text`. */
function expectRefused(fn: () => unknown, text: string | RegExp): void {
  expect(fn).toThrow(InvalidInputError);
  expect(fn).toThrow(text);
}

const idle: Scheduler = { name: "idle", schedule: () => [] };

describe("unknown option keys are refused", () => {
  it("by the run functions, the metrics, the trace codecs and whyNeverFits", () => {
    const platform = identicalPool(1);
    const trace = simulate([], platform, idle);
    const cases: [() => unknown, string][] = [
      [
        () => simulate([], platform, idle, { untill: 5 } as never),
        "@sched/core/simulate: options.untill is not a known key (did you mean `until`?)",
      ],
      [
        () => simulateStream([], platform, idle, { onrecord: () => {} } as never),
        "@sched/core/simulateStream: options.onrecord is not a known key (did you mean `onRecord`?)",
      ],
      [
        () => createSimulation(platform, idle, { maxEvent: 3 } as never),
        "@sched/core/createSimulation: options.maxEvent is not a known key (did you mean `maxEvents`?)",
      ],
      [() => checkSchedule(trace, { tol: 1 } as never), "@sched/core/checkSchedule: options.tol"],
      [
        () => computeMetrics(trace, { Tau: 5 } as never),
        "options.Tau is not a known key (did you mean `tau`?)",
      ],
      [() => metricsOf([], platform, { taus: 5 } as never), "@sched/core/metricsOf: options.taus"],
      [() => new MetricSums(4, { t: 1 } as never), "@sched/core/MetricSums: options.t"],
      [() => new MetricSums(4).metrics({ horizont: 1 } as never), "metrics(options).horizont"],
      [
        () => traceToJSON(trace, { timing: false } as never),
        "@sched/core/traceToJSON: options.timing is not a known key (did you mean `timings`?)",
      ],
      [
        () => traceFromJSON(traceToJSON(trace), { src: "x" } as never),
        "@sched/core/traceFromJSON: options.src",
      ],
      [
        () =>
          whyNeverFits(createJob({ id: 1, submit: 0, runtime: 1, cores: 1 }), platform, {
            single: true,
          } as never),
        "@sched/core/whyNeverFits: options.single",
      ],
    ];
    for (const [fn, text] of cases) expectRefused(fn, text);
  });

  it("by createPlatform and identicalPool, at every level of the spec", () => {
    const cases: [() => unknown, string][] = [
      [
        () => identicalPool(2, { core: 4 } as never),
        "@sched/core/identicalPool: options.core is not a known key (did you mean `cores`?)",
      ],
      [
        () => createPlatform({ machines: [{}], referencespeed: 2 } as never),
        "spec.referencespeed is not a known key (did you mean `referenceSpeed`?)",
      ],
      [
        () => createPlatform({ machines: [{ core: 2 }] } as never),
        "spec.machines[0].core is not a known key (did you mean `cores`?)",
      ],
      [
        () => createPlatform({ machines: [{}], clusters: [{ nam: "a" }] } as never),
        "spec.clusters[0].nam",
      ],
      [
        () => createPlatform({ machines: [{}], links: [{ bandwidth: 1, latancy: 2 }] } as never),
        "spec.links[0].latancy is not a known key (did you mean `latency`?)",
      ],
      [
        () => createPlatform({ machines: [{}], licenses: [{ name: "a", copis: 2 }] } as never),
        "spec.licenses[0].copis is not a known key (did you mean `copies`?)",
      ],
    ];
    for (const [fn, text] of cases) expectRefused(fn, text);
  });

  it("a job spec stays open: extra fields are kept for the caller's own use", () => {
    expect(() =>
      createJob({ id: 1, submit: 0, runtime: 1, cores: 1, note: "x" } as never),
    ).not.toThrow();
  });
});

describe("typed errors where a raw TypeError was thrown", () => {
  it("ResourceLedger and firstFitAllocation name their argument", async () => {
    const { ResourceLedger, firstFitAllocation } = await import("../src/index.js");
    expectRefused(
      () => new ResourceLedger(null as never),
      "@sched/core/ResourceLedger: platform is null, expected an object",
    );
    expectRefused(
      () => firstFitAllocation(null as never, 2),
      "@sched/core/firstFitAllocation: view is null, expected a scheduler view",
    );
  });

  it("a string value is quoted, so it does not read as a number", () => {
    expectRefused(
      () => simulate([], identicalPool(1), idle, { maxEvents: "5" } as never),
      'options.maxEvents is "5"',
    );
  });
});

describe("the testing helpers refuse unknown keys too", () => {
  it("arbPlatform, arbJobs, makeView and schedulerSpecs", async () => {
    const t = await import("../src/testing/index.js");
    const platform = identicalPool(1);
    expectRefused(
      () => t.arbPlatform({ maxMachine: 2 } as never),
      "@sched/core/testing/arbPlatform: options.maxMachine is not a known key (did you mean `maxMachines`?)",
    );
    expectRefused(
      () => t.arbJobs(platform, { maxjobs: 2 } as never),
      "options.maxjobs is not a known key (did you mean `maxJobs`?)",
    );
    expectRefused(
      () => t.makeView(platform, { time: 2 } as never),
      "@sched/core/testing/makeView: options.time",
    );
    expectRefused(
      () => t.schedulerSpecs("x", () => idle, { numruns: 1 } as never),
      "options.numruns is not a known key (did you mean `numRuns`?)",
    );
  });
});

describe("the testing helpers check their boolean options", () => {
  it('arbPlatform, arbJobs and schedulerSpecs refuse "false" (it switched the feature on)', async () => {
    const t = await import("../src/testing/index.js");
    const platform = identicalPool(2);
    expectRefused(
      () => t.arbPlatform({ licenses: "false" } as never),
      '@sched/core/testing/arbPlatform: options.licenses is "false", expected true or false',
    );
    expectRefused(
      () => t.arbPlatform({ speeds: 0 } as never),
      "@sched/core/testing/arbPlatform: options.speeds is 0, expected true or false",
    );
    for (const key of ["deadlines", "licenses", "readyTimes", "underestimates", "singleMachine"]) {
      expectRefused(
        () => t.arbJobs(platform, { [key]: "false" } as never),
        `@sched/core/testing/arbJobs: options.${key} is "false", expected true or false`,
      );
    }
    expectRefused(
      () => t.schedulerSpecs("x", () => idle, { deadlinesAreHard: "yes" } as never),
      '@sched/core/testing/schedulerSpecs: options.deadlinesAreHard is "yes", expected true or false',
    );
  });
});

describe("the testing helpers check their other options", () => {
  it("arbPlatform and arbJobs refuse a misspelt shape and counts that are not integers in range (a fast-check error, or a silent 'any', before)", async () => {
    const t = await import("../src/testing/index.js");
    const platform = identicalPool(2);
    expectRefused(
      () => t.arbPlatform({ shape: "Pool" } as never),
      '@sched/core/testing/arbPlatform: options.shape is "Pool", expected one of "pool", "farm", "any"',
    );
    expectRefused(
      () => t.arbPlatform({ maxMachines: "5" } as never),
      '@sched/core/testing/arbPlatform: options.maxMachines is "5", expected an integer >= 1',
    );
    expectRefused(
      () => t.arbPlatform({ maxCores: 0 }),
      "@sched/core/testing/arbPlatform: options.maxCores is 0, expected an integer >= 1",
    );
    expectRefused(
      () => t.arbJobs(platform, { minJobs: 5, maxJobs: 3 }),
      "@sched/core/testing/arbJobs: options.maxJobs is 3, below options.minJobs (5)",
    );
    expectRefused(
      () => t.arbJobs(platform, { maxRuntime: 0.5 }),
      "@sched/core/testing/arbJobs: options.maxRuntime is 0.5, expected an integer >= 1",
    );
    expectRefused(
      () => t.arbJobs(platform, { maxGap: -1 }),
      "@sched/core/testing/arbJobs: options.maxGap is -1, expected an integer >= 0",
    );
    expectRefused(
      () => t.arbJobs(platform, { maxCores: Number.NaN }),
      "@sched/core/testing/arbJobs: options.maxCores is NaN, expected an integer >= 1",
    );
  });
});
