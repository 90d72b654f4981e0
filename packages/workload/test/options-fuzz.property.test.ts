import { createJob } from "@sched/core";
import { type FuzzCase, fuzzOptions } from "@sched/tooling/fuzz";
import { describe, it } from "vitest";
import {
  advanceReservationWorkload,
  convergentWorkload,
  eloWorkload,
  generateLublin,
  hiddenSpeedModel,
  JobsJsonlWriter,
  jobsToSwf,
  multiclusterWorkload,
  oasWorkload,
  parseModelOption,
  parseSwf,
  SwfWriter,
  summarizeJobs,
  swfToJobs,
} from "../src/index.js";

// Every workload generator and the
// helpers that take options, called validly, then with one option made hostile
// (tooling/fuzz.js): a result or an InvalidInputError naming the option, never a raw JavaScript
// error or a silently accepted value of the wrong type. FUZZ_RUNS=n samples more;
// FUZZ_EXHAUSTIVE=1 tries every mutation and lists every defect.
const cases: FuzzCase[] = [
  {
    name: "@sched/workload/advanceReservationWorkload",
    params: ["options"],
    args: () => [
      {
        jobs: 20,
        procs: 1024,
        uMed: 6,
        artimeFactor: 3,
        deadlineFactor: 3,
        arrivalFactor: 1,
        runtimeClasses: [60, 300, 900, 1800, 3600, 10800],
        runtimeMapping: "nearest-log",
        arrivals: "generic",
        lublin: { uProb: 0.8 },
        seed: 2,
      },
    ],
    call: (o) => advanceReservationWorkload(o as never).jobs.length,
  },
  {
    name: "@sched/workload/generateLublin",
    params: ["options"],
    args: () => [
      {
        jobs: 20,
        procs: 64,
        seed: 1,
        jobTypes: true,
        arrivalFactor: 1,
        maxLogRuntime: 10,
        maxLogInterArrival: 8,
      },
    ],
    call: (o) => generateLublin(o as never).records.length,
  },
  {
    name: "@sched/workload/convergentWorkload",
    params: ["options"],
    args: () => [
      {
        jobs: 20,
        machines: 5,
        licenses: 3,
        meanInterArrival: 10,
        estimated: [1, 2],
        deadlineSlack: [1.5, 3],
        cpus: [1, 4],
        licenseRatio: [0.2, 0.8],
        licenseSuitability: 0.5,
        licenseNeed: 0.3,
        noDeadline: 0.2,
        seed: 4,
      },
    ],
    call: (o) => convergentWorkload(o as never).jobs.length,
  },
  {
    name: "@sched/workload/eloWorkload",
    params: ["options"],
    args: () => [
      {
        jobs: 20,
        machines: 4,
        speedMflops: [1, 9],
        pinFastest: true,
        operations: [100, 1000],
        sizes: "uniform",
        load: 0.5,
        levels: 4,
        seed: 2,
      },
    ],
    call: (o) => eloWorkload(o as never).jobs.length,
  },
  {
    name: "@sched/workload/multiclusterWorkload",
    params: ["options"],
    args: () => [
      {
        jobs: 20,
        clusters: 2,
        processorsPerCluster: 4,
        speeds: [1, 2],
        load: 0.5,
        loadBasis: "capacity",
        meanServiceDemand: 100,
        serviceCV: 1,
        arrivalCV: 1,
        maxParallelism: [1, 4],
        jobSizeKB: [1, 10],
        linkBandwidth: 1e6,
        seed: 3,
      },
    ],
    call: (o) => multiclusterWorkload(o as never).jobs.length,
  },
  {
    name: "@sched/workload/oasWorkload",
    params: ["options"],
    args: () => [
      {
        workload: "random",
        jobs: 10,
        nodesPerCluster: 2,
        powers: [1, 0.75, 0.5],
        tasks: [1, 4],
        baseTime: [10, 100],
        sigma: [0.1, 0.9],
        bandwidth: "heavy",
        seed: 5,
      },
    ],
    call: (o) => oasWorkload(o as never).jobs.length,
  },
  {
    name: "@sched/workload/hiddenSpeedModel",
    params: ["options"],
    args: () => [{ speeds: [1, 2], fluctuation: 0.1, seed: 3 }],
    call: (o) => hiddenSpeedModel(o as never).name,
  },
  {
    name: "@sched/workload/summarizeJobs",
    params: ["jobs", "options"],
    args: () => [
      [
        createJob({ id: 1, submit: 0, runtime: 10, cores: 2 }),
        createJob({ id: 2, submit: 5, runtime: 20, cores: 1 }),
      ],
      { procs: 4 },
    ],
    fixed: ["jobs"],
    call: (j, o) => summarizeJobs(j as never, o as never),
  },
  {
    name: "@sched/workload/parseSwf",
    params: ["text", "options"],
    // a text that is not a trace is a ParseError at its line
    names: (place, message) =>
      message.includes(place.split(/[.[]/).pop() ?? place) || message.includes("t.swf:1"),
    args: () => ["1 0 -1 10 2 -1 -1 2 20 -1 1 -1 -1 -1 -1 -1 -1 -1\n", { source: "t.swf" }],
    call: (t, o) => parseSwf(t as never, o as never).records.length,
  },
  {
    name: "@sched/workload/swfToJobs",
    params: ["records", "options"],
    args: () => [
      parseSwf("1 0 -1 10 2 -1 -1 2 20 -1 1 -1 -1 -1 -1 -1 -1 -1\n").records,
      { clean: true, estimate: "runtime" },
    ],
    fixed: ["records"],
    call: (r, o) => swfToJobs(r as never, o as never).jobs.length,
  },
  {
    name: "@sched/workload/SwfWriter",
    params: ["sink", "options"],
    args: () => [() => {}, { chunkBytes: 4096 }],
    call: (sink, o) => {
      const trace = jobsToSwf([createJob({ id: 1, submit: 0, runtime: 10, cores: 2 })]);
      const w = new SwfWriter(sink as never, o as never);
      w.header(trace.header);
      for (const r of trace.records) w.record(r);
      w.flush();
    },
  },
  {
    name: "@sched/workload/JobsJsonlWriter",
    params: ["sink", "options"],
    args: () => [() => {}, { chunkBytes: 4096 }],
    call: (sink, o) => {
      const j = new JobsJsonlWriter(sink as never, o as never);
      j.header();
      j.job(createJob({ id: 1, submit: 0, runtime: 10, cores: 2 }));
      j.flush();
    },
  },
  {
    name: "@sched/workload/jobsToSwf",
    params: ["jobs", "options"],
    args: () => [[createJob({ id: 1, submit: 0, runtime: 10, cores: 2 })], {}],
    fixed: ["jobs"],
    call: (j, o) => jobsToSwf(j as never, o as never).records.length,
  },
  {
    name: "@sched/workload/parseModelOption",
    params: ["model", "name", "text"],
    // the option is named as the model's option (options.<name>), the CLI's flag
    names: (place, message) =>
      message.includes(place) || /: options\.\S* (is|is not)/.test(message),
    args: () => ["lublin", "jobs", "5"],
    call: (m, n, t) => parseModelOption(m as never, n as never, t as never),
  },
];

describe("options fuzz: @sched/workload ends in a result or an error naming the option", () => {
  for (const c of cases) it(c.name, () => fuzzOptions(c));
});
