import { describe, expect, it } from "vitest";
import {
  advanceReservationWorkload,
  eloWorkload,
  generateLublin,
  hiddenSpeedModel,
  JobsJsonlWriter,
  multiclusterWorkload,
  oasWorkload,
  parseModelOption,
  parseSwf,
  SwfWriter,
  swfToJobs,
} from "../src/index.js";

// Defects the options fuzz suite found (options-fuzz.property.test.ts), one example each.
describe("workload generators: hostile options end in an InvalidInputError naming the option", () => {
  it("a bigint in a range is named (JSON.stringify threw a raw TypeError)", () => {
    expect(() => eloWorkload({ operations: [1n, 5] as never })).toThrow(
      "@sched/workload/eloWorkload: options.operations is [bigint,5], expected [lo, hi] with finite",
    );
    expect(() => oasWorkload({ workload: 1n as never })).toThrow(/options\.workload is bigint/);
  });

  it("advanceReservationWorkload: a symbol factor or class, a hole, a non-array classes list, a non-object lublin", () => {
    const ar = (o: object) => () => advanceReservationWorkload({ jobs: 5, ...o } as never);
    expect(ar({ artimeFactor: Symbol() })).toThrow(
      "@sched/workload/advanceReservationWorkload: options.artimeFactor is symbol, expected a finite number >= 0",
    );
    expect(ar({ runtimeClasses: [60, Symbol(), 900] })).toThrow(
      "options.runtimeClasses[1] is symbol, expected finite run times > 0",
    );
    // biome-ignore lint/suspicious/noSparseArray: the hole is the case under test
    expect(ar({ runtimeClasses: [60, , 900] })).toThrow("options.runtimeClasses[1] is a hole");
    expect(ar({ runtimeClasses: "60,300" })).toThrow(
      'options.runtimeClasses is "60,300", expected an array',
    );
    expect(ar({ lublin: 5 })).toThrow("options.lublin is 5, expected an object");
    expect(ar({ lublin: [] })).toThrow("options.lublin is an array, expected an object");
  });

  it("generateLublin's jobTypes is a boolean (a number was read for its truthiness)", () => {
    expect(() => generateLublin({ jobs: 5, jobTypes: 1 as never })).toThrow(
      "@sched/workload/lublin: options.jobTypes is 1, expected true or false",
    );
    // null is not the default here
    expect(() => generateLublin({ jobs: 5, jobTypes: null as never })).toThrow(
      "@sched/workload/lublin: options.jobTypes is null, expected true or false",
    );
  });

  it("swfToJobs' clean and eloWorkload's pinFastest are true or false", () => {
    expect(() => swfToJobs([], { clean: "false" as never })).toThrow(
      '@sched/workload/swfToJobs: options.clean is "false", expected true or false',
    );
    expect(() => eloWorkload({ machines: 2, jobs: 2, pinFastest: 1 as never })).toThrow(
      "@sched/workload/eloWorkload: options.pinFastest is 1, expected true or false",
    );
  });

  it("a symbol option is named (a raw TypeError came from a template or a comparison)", () => {
    expect(() => generateLublin({ jobs: 5, arrivalFactor: Symbol() as never })).toThrow(
      /options\.arrivalFactor is symbol/,
    );
    expect(() => eloWorkload({ load: Symbol() as never })).toThrow(/options\.load is symbol/);
    expect(() => multiclusterWorkload({ serviceCV: Symbol() as never })).toThrow(
      /options\.serviceCV is symbol/,
    );
  });

  it("hiddenSpeedModel checks speeds' type (a number became an empty list, a string's digits speeds)", () => {
    expect(() => hiddenSpeedModel({ speeds: 5 as never })).toThrow(
      "@sched/workload/hiddenSpeedModel: options.speeds is 5, expected an array of speeds, one per machine",
    );
    expect(() => hiddenSpeedModel({ speeds: ["5"] as never })).toThrow(
      /options\.speeds\[0\] is "5"/,
    );
  });

  it("a hole in a list of speeds is a bad speed, not a skip", () => {
    // biome-ignore lint/suspicious/noSparseArray: the hostile input
    const speeds = [, 1] as number[];
    expect(() => multiclusterWorkload({ jobs: 5, speeds })).toThrow(
      /options\.speeds\[0\] is undefined/,
    );
  });
});

describe("workload readers and writers: hostile options end in an InvalidInputError", () => {
  it("a non-string source is refused (it was read as its text in every message)", () => {
    expect(() => parseSwf("", { source: 5 as never })).toThrow(
      "@sched/workload/parseSwf: options.source is 5, expected a string (the trace's name in messages)",
    );
  });

  it("swfToJobs names a bigint estimate (JSON.stringify threw raw)", () => {
    expect(() => swfToJobs([], { estimate: 1n as never })).toThrow(/options\.estimate is bigint/);
  });

  it("parseModelOption names a non-string model, name or text (raw TypeErrors before)", () => {
    expect(() => parseModelOption(Symbol() as never, "jobs", "5")).toThrow(/model is symbol/);
    expect(() => parseModelOption("lublin", "jobs", 5 as never)).toThrow(
      "@sched/workload/parseModelOption: text is 5, expected the option's value as written (a string)",
    );
  });

  it("the writers check their options (a number was taken for no options; 1e308 threw a raw RangeError)", () => {
    expect(() => new SwfWriter(() => {}, 5 as never)).toThrow(/options is 5, expected an object/);
    expect(() => new JobsJsonlWriter(() => {}, { chunkBytes: 1e308 })).toThrow(
      "@sched/workload/JobsJsonlWriter: options.chunkBytes is 1e+308, expected an integer from 4096 to 1073741824 (1 GiB)",
    );
  });
});
