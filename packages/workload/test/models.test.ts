import { InvalidInputError, validateJobs } from "@sched/core";
import { describe, expect, it } from "vitest";
import { advanceReservationWorkload } from "../src/advance-reservation.js";
import { convergentWorkload } from "../src/convergent.js";
import { eloWorkload } from "../src/elo.js";
import { generateLublin } from "../src/lublin.js";
import { parseModelOption, WORKLOAD_MODELS } from "../src/models.js";
import { multiclusterWorkload } from "../src/multicluster.js";
import { oasWorkload } from "../src/oas.js";

const byName = (name: string) => WORKLOAD_MODELS.find((m) => m.name === name)!;

describe("WORKLOAD_MODELS", () => {
  it("lists the six generators", () => {
    expect(WORKLOAD_MODELS.map((m) => m.name)).toEqual([
      "lublin",
      "convergent",
      "advance-reservation",
      "multicluster",
      "elo",
      "oas",
    ]);
  });

  it("runs each generator with its defaults", () => {
    expect(byName("lublin").generate({}).swf).toEqual(generateLublin());
    expect(byName("convergent").generate({})).toEqual(convergentWorkload());
    expect(byName("advance-reservation").generate({ jobs: 500 })).toEqual(
      advanceReservationWorkload({ jobs: 500 }),
    );
    expect(byName("multicluster").generate({})).toEqual(multiclusterWorkload());
    expect(byName("elo").generate({})).toEqual(eloWorkload());
    expect(byName("oas").generate({})).toEqual(oasWorkload());
  });

  it("lists the true defaults: passing every literal default explicitly changes nothing", () => {
    for (const m of WORKLOAD_MODELS) {
      const explicit: Record<string, unknown> = {};
      for (const o of m.options) {
        if (/[a-z(]/i.test(o.default) && o.kind !== "boolean" && o.kind !== "choice") continue; // depends on another option
        explicit[o.name] = parseModelOption(m.name, o.name, o.default);
      }
      const small = m.name === "advance-reservation" ? { jobs: 300 } : {};
      expect(m.generate({ ...explicit, ...small })).toEqual(m.generate(small));
    }
  });

  it("gathers every option of one dotted group (typeless.uMed and typeless.uProb) into one object", () => {
    const dotted = {
      jobs: 200,
      procs: 64,
      jobTypes: false,
      "typeless.uMed": 3,
      "typeless.uProb": 0.5,
    };
    const nested = { jobs: 200, procs: 64, jobTypes: false, typeless: { uMed: 3, uProb: 0.5 } };
    const want = generateLublin(nested);
    // each option alone gives another workload, so each of the two counts
    expect(generateLublin({ ...nested, typeless: { uMed: 3 } })).not.toEqual(want);
    expect(generateLublin({ ...nested, typeless: { uProb: 0.5 } })).not.toEqual(want);
    expect(byName("lublin").generate(dotted).swf).toEqual(want);
    const streamed = byName("lublin").stream(dotted);
    expect([...streamed.swf!.records]).toEqual(want.records);
  });

  it("gives jobs valid for the platform, Lublin's included (estimate = run time)", () => {
    const { jobs, platform, swf } = byName("lublin").generate({
      jobs: 500,
      procs: 64,
      "typeless.uMed": 3,
      jobTypes: false,
    });
    expect(validateJobs(jobs)).toEqual(jobs);
    expect(platform.totalCores).toBe(64);
    expect(swf!.header.notes.join(" ")).toContain("uMed=3");
    expect(jobs.every((j) => j.cores <= 64 && j.estimate === j.runtime)).toBe(true);
  });

  it("streams the workload generate gives: same jobs, platform and SWF, each model", () => {
    const cases: [string, Record<string, unknown>][] = [
      ["lublin", { jobs: 700, procs: 64, seed: 3 }],
      ["lublin", { jobs: 300, jobTypes: false }],
      ["convergent", { jobs: 200 }],
      ["advance-reservation", { jobs: 300 }],
      ["multicluster", { jobs: 100 }],
      ["elo", {}],
      ["oas", {}],
    ];
    for (const [name, options] of cases) {
      const m = byName(name);
      const whole = m.generate(options);
      const stream = m.stream(options);
      expect(stream.platform).toEqual(whole.platform);
      expect(stream.jobCount).toBe(whole.jobs.length);
      expect([...stream.jobs]).toEqual(whole.jobs);
      // Read twice: each read generates again, the same.
      expect([...stream.jobs]).toEqual(whole.jobs);
      if (whole.swf === undefined) expect(stream.swf).toBeUndefined();
      else {
        expect(stream.swf!.header).toEqual(whole.swf.header);
        expect([...stream.swf!.records]).toEqual(whole.swf.records);
      }
    }
    expect(() => byName("lublin").stream({ jobs: -1 })).toThrow(InvalidInputError);
  });

  it("rejects an unknown option, naming the model's options", () => {
    expect(() => byName("elo").generate({ colour: 1 })).toThrow(InvalidInputError);
    expect(() => byName("elo").generate({ colour: 1 })).toThrow(
      "@sched/workload/elo: options.colour is not an option of elo (options: jobs, machines, speedMflops, pinFastest, operations, sizes, load, levels, seed)",
    );
  });
});

describe("the generators' ranges and probabilities", () => {
  it("take a range of one value [x, x] and a probability of 0 or 1 (the bounds are inclusive)", () => {
    const elo = eloWorkload({ machines: 4, jobs: 5, speedMflops: [7, 7], operations: [5e6, 5e6] });
    expect(elo.platform.machines.map((m) => m.speed)).toEqual([7, 7, 7, 7]);
    expect(elo.operations).toEqual([5e6, 5e6, 5e6, 5e6, 5e6]);
    const mc = multiclusterWorkload({ jobs: 20, jobSizeKB: [4, 4], maxParallelism: [3, 3] });
    expect(mc.jobs.every((j) => j.input![0]!.size === 4096 && j.tasks === 3)).toBe(true);
    for (const p of [0, 1]) {
      const { jobs } = convergentWorkload({ jobs: 30, licenseNeed: p, noDeadline: p });
      expect(jobs.every((j) => (j.deadline === undefined) === (p === 1))).toBe(true);
    }
  });
});

describe("parseModelOption", () => {
  it("reads each kind", () => {
    expect(parseModelOption("lublin", "jobs", "10000")).toBe(10000);
    expect(parseModelOption("lublin", "typeless.uMed", "5.5")).toBe(5.5);
    expect(parseModelOption("lublin", "jobTypes", "false")).toBe(false);
    expect(parseModelOption("convergent", "estimated", "500,3000")).toEqual([500, 3000]);
    expect(parseModelOption("oas", "workload", "WL-2")).toBe("WL-2");
    expect(parseModelOption("oas", "powers", "1,0.75,0.5")).toEqual([1, 0.75, 0.5]);
    // signs, as the numbers of a command line are written
    expect(parseModelOption("elo", "seed", "-3")).toBe(-3);
    expect(parseModelOption("elo", "seed", "+3")).toBe(3);
    expect(parseModelOption("lublin", "typeless.uLow", "-0.5")).toBe(-0.5);
    expect(parseModelOption("elo", "operations", "-1,2e3")).toEqual([-1, 2000]);
    // a number may start at its point, as a command line writes it
    expect(parseModelOption("lublin", "typeless.uMed", ".5")).toBe(0.5);
    expect(parseModelOption("oas", "powers", ".5,-.25")).toEqual([0.5, -0.25]);
  });

  it("says what was wrong", () => {
    const cases: [string, string, string, string][] = [
      [
        "lublin",
        "jobs",
        "ten",
        '@sched/workload/lublin: options.jobs is "ten", expected an integer',
      ],
      [
        "lublin",
        "jobs",
        "1.5",
        '@sched/workload/lublin: options.jobs is "1.5", expected an integer',
      ],
      [
        "lublin",
        "jobTypes",
        "yes",
        '@sched/workload/lublin: options.jobTypes is "yes", expected true or false',
      ],
      [
        "convergent",
        "cpus",
        "1-8",
        '@sched/workload/convergent: options.cpus is "1-8", expected lo,hi',
      ],
      [
        "oas",
        "workload",
        "WL-7",
        '@sched/workload/oas: options.workload is "WL-7", expected one of "WL-1", "WL-2", "WL-3", "WL-4", "WL-5", "WL-6", "random"',
      ],
      [
        "elo",
        "operations",
        "1,2,3",
        '@sched/workload/elo: options.operations is "1,2,3", expected lo,hi',
      ],
      ["elo", "operations", "5", '@sched/workload/elo: options.operations is "5", expected lo,hi'],
      [
        "oas",
        "powers",
        "1,fast",
        '@sched/workload/oas: options.powers is "1,fast", expected numbers separated by commas',
      ],
      [
        "oas",
        "powers",
        "1,1e400",
        '@sched/workload/oas: options.powers is "1,1e400", expected numbers separated by commas',
      ],
      ["lublin", "nope", "1", "@sched/workload/lublin: options.nope is not an option of lublin"],
      [
        "nope",
        "jobs",
        "1",
        '@sched/workload/parseModelOption: model is "nope", expected one of "lublin", "convergent", "advance-reservation", "multicluster", "elo", "oas"',
      ],
    ];
    for (const [m, o, text, message] of cases) {
      expect(() => parseModelOption(m, o, text)).toThrow(message);
    }
  });
});

describe("WORKLOAD_MODELS element kinds", () => {
  const numeric = WORKLOAD_MODELS.flatMap((m) =>
    m.options.filter((o) => o.kind === "range" || o.kind === "list").map((o) => [m, o] as const),
  );

  it("gives every range and list option an element kind, and no other option one", () => {
    for (const m of WORKLOAD_MODELS) {
      for (const o of m.options) {
        const numbers = o.kind === "range" || o.kind === "list";
        expect(o.element !== undefined, `${m.name} ${o.name}`).toBe(numbers);
      }
    }
    expect(numeric.length).toBeGreaterThan(0);
  });

  it("says integer exactly where the generator refuses a fraction", () => {
    for (const [m, o] of numeric) {
      const parsed = /^[\d.]+(,[\d.]+)+$/.test(o.default)
        ? (parseModelOption(m.name, o.name, o.default) as number[])
        : [1, 2]; // a default that depends on another option (oas tasks: 1,nodes)
      const lo = parsed[0]!;
      const hi = parsed[1]!;
      // A fraction inside the default range (the list's first item made a fraction).
      const fraction = Number.isInteger(lo) ? lo + Math.min(0.25, (hi - lo) / 2) : lo;
      const value = [fraction, ...parsed.slice(1)];
      const small = m.name === "advance-reservation" ? { jobs: 300 } : {};
      const run = () => m.generate({ ...small, [o.name]: value });
      if (o.element === "integer") expect(run, `${m.name} ${o.name}`).toThrow(InvalidInputError);
      else expect(run, `${m.name} ${o.name} ${value}`).not.toThrow();
    }
  });
});
