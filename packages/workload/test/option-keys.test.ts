import { InvalidInputError } from "@sched/core";
import { describe, expect, it } from "vitest";
import {
  advanceReservationWorkload,
  convergentWorkload,
  createSwfJobStream,
  eloWorkload,
  generateLublin,
  hiddenSpeedModel,
  jobsToSwf,
  lublinHeader,
  multiclusterWorkload,
  oasWorkload,
  parseJobsJsonl,
  parsePlatformJson,
  parseSwf,
  readSwfLinesSync,
  summarizeJobs,
  swfToJobs,
} from "../src/index.js";

/** `fn` throws an InvalidInputError whose message contains `text`. */
function expectRefused(fn: () => unknown, text: string | RegExp): void {
  expect(fn).toThrow(InvalidInputError);
  expect(fn).toThrow(text);
}

describe("unknown option keys are refused", () => {
  it("by every generator, naming the key meant", () => {
    const cases: [() => unknown, string][] = [
      [
        () => generateLublin({ jobs: 10, procs: 8, sed: 3 } as never),
        "@sched/workload/lublin: options.sed is not a known key (did you mean `seed`?)",
      ],
      [
        () => lublinHeader({ proc: 8 } as never),
        "options.proc is not a known key (did you mean `procs`?)",
      ],
      [
        () => oasWorkload({ name: "WL-2" } as never),
        "@sched/workload/oasWorkload: options.name is not a known key, expected one of workload,",
      ],
      [
        () => advanceReservationWorkload({ job: 3 } as never),
        "@sched/workload/advanceReservationWorkload: options.job is not a known key (did you mean `jobs`?)",
      ],
      [
        () => convergentWorkload({ machine: 3 } as never),
        "@sched/workload/convergentWorkload: options.machine is not a known key (did you mean `machines`?)",
      ],
      [
        () => eloWorkload({ Seed: 3 } as never),
        "@sched/workload/eloWorkload: options.Seed is not a known key (did you mean `seed`?)",
      ],
      [
        () => multiclusterWorkload({ cluster: 3 } as never),
        "@sched/workload/multiclusterWorkload: options.cluster is not a known key (did you mean `clusters`?)",
      ],
      [
        () => hiddenSpeedModel({ speeds: [1], seeds: 1 } as never),
        "@sched/workload/hiddenSpeedModel: options.seeds",
      ],
    ];
    for (const [fn, text] of cases) expectRefused(fn, text);
    expectRefused(() => hiddenSpeedModel(null as never), "options is null");
  });

  it("by the trace readers, writers and converters", () => {
    const swf = "1 0 0 10 1 -1 -1 1 10 -1 1 -1 -1 -1 -1 -1 -1 -1\n";
    const trace = parseSwf(swf);
    const { jobs } = swfToJobs(trace.records);
    const cases: [() => unknown, string][] = [
      [
        () => parseSwf(swf, { sourse: "x" } as never),
        "@sched/workload/parseSwf: options.sourse is not a known key (did you mean `source`?)",
      ],
      [
        () => readSwfLinesSync([swf], { onheader: () => {} } as never),
        "@sched/workload/readSwfLinesSync: options.onheader",
      ],
      [
        () => swfToJobs(trace.records, { cleaned: true } as never),
        "@sched/workload/swfToJobs: options.cleaned",
      ],
      [
        () => createSwfJobStream({ maxLine: 3 } as never),
        "@sched/workload/createSwfJobStream: options.maxLine",
      ],
      [
        () => jobsToSwf(jobs, { maxproc: 3 } as never),
        "@sched/workload/jobsToSwf: options.maxproc is not a known key (did you mean `maxProcs`?)",
      ],
      [
        () => summarizeJobs(jobs, { proc: 3 } as never),
        "@sched/workload/summarizeJobs: options.proc",
      ],
      [
        () => parseJobsJsonl("", { src: "x" } as never),
        "@sched/workload/parseJobsJsonl: options.src",
      ],
      [
        () => parsePlatformJson('{"machines":[{}]}', { src: "x" } as never),
        "@sched/workload/parsePlatformJson: options.src",
      ],
    ];
    for (const [fn, text] of cases) expectRefused(fn, text);
  });
});

describe("typed errors and quoted values", () => {
  it("readSwfLinesSync(null) names lines; a string count is quoted", () => {
    expectRefused(
      () => readSwfLinesSync(null as never),
      "@sched/workload/readSwfLinesSync: lines is null, expected an iterable of lines",
    );
    expectRefused(
      () => multiclusterWorkload({ jobs: "5" } as never),
      'options.jobs is "5", expected an integer >= 0',
    );
    expectRefused(() => generateLublin({ jobs: "5" } as never), 'options.jobs is "5"');
  });
});
