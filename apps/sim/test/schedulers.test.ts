import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  checkSchedule,
  createJob,
  createPlatform,
  identicalPool,
  type Job,
  simulate,
} from "@sched/core";
import { arbJobs } from "@sched/core/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { chooseScheduler, SCHEDULERS, schedulersMarkdown } from "../src/schedulers.js";
import { UsageError } from "../src/usage-error.js";
import { cli, fixture, tempDir } from "./helpers.js";

describe("scheduler registry", () => {
  it("has unique names, fcfs among them, each creating a scheduler of that name", () => {
    const names = SCHEDULERS.map((s) => s.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toContain("fcfs");
    for (const s of SCHEDULERS) {
      if (s.experimentOnly === undefined) expect(typeof s.create({}).schedule).toBe("function");
      else expect(() => s.create({})).toThrow(UsageError);
    }
  });

  it("types --opt values and labels the choice with sorted keys", () => {
    const c = chooseScheduler("fcfs", ["machineOrder=speed"], "run");
    expect(c.options).toEqual({ machineOrder: "speed" });
    expect(c.label).toBe("fcfs(machineOrder=speed)");
    expect(chooseScheduler("fcfs", [], "run").label).toBe("fcfs");
    // two keys given out of order: the label sorts them
    const two = chooseScheduler("easy", ["order=sjf", "machineOrder=speed"], "run");
    expect(two.label).toBe("easy(machineOrder=speed,order=sjf)");
  });

  it("names what is wrong with an --opt word or a --scheduler name, in the command's words", () => {
    const message = (f: () => unknown): string => {
      try {
        f();
      } catch (error) {
        expect(error).toBeInstanceOf(UsageError);
        return (error as Error).message;
      }
      return "accepted";
    };
    expect(message(() => chooseScheduler("fcfs", ["=x"], "run"))).toBe(
      "run: option --opt =x: expected key=value",
    );
    expect(message(() => chooseScheduler("esay", [], "run"))).toContain(
      "run: option --scheduler: unknown scheduler 'esay' (did you mean easy?); known: ",
    );
    // every policy lists its own keys, or says it takes none (one key is a list too)
    for (const s of SCHEDULERS.filter((e) => e.experimentOnly === undefined)) {
      const keys = s.options.map((o) => o.key);
      expect(message(() => chooseScheduler(s.name, ["nope=1"], "run"))).toBe(
        `run: option --opt nope=1: scheduler '${s.name}' has no option 'nope'${keys.length > 0 ? `; it has ${keys.join(", ")}` : "; it takes no options"}`,
      );
    }
    expect(SCHEDULERS.some((e) => e.options.length === 1)).toBe(true);
  });

  it("rejects a malformed, unknown or repeated option", () => {
    for (const words of [
      ["machineOrder"],
      ["=x"],
      ["nope=1"],
      ["machineOrder=index", "machineOrder=speed"],
    ]) {
      expect(() => chooseScheduler("fcfs", words, "run")).toThrow(UsageError);
    }
  });

  it("passes singleMachine=true|false to the backfilling policies", () => {
    // Two one-core machines and a two-core job: it runs only spread over both machines.
    const jobs = [createJob({ id: 1, submit: 0, runtime: 10, cores: 2 })];
    const pool = identicalPool(2);
    const outcome = (name: string, words: string[]) => {
      const c = chooseScheduler(name, words, "run");
      return simulate(jobs, pool, c.entry.create(c.options)).records[0]!.outcome;
    };
    for (const name of ["fcfs", "easy", "conservative", "backfill", "bf-rm", "bf-unrm"]) {
      const on = chooseScheduler(name, ["singleMachine=true"], "run");
      expect(on.options).toEqual({ singleMachine: true });
      expect(on.label).toBe(`${name}(singleMachine=true)`);
      expect(on.entry.create(on.options).name).toMatch(/\+single$/);
      const off = chooseScheduler(name, ["singleMachine=false"], "run");
      expect(off.entry.create(off.options).name).not.toMatch(/\+single$/);
      expect(() => chooseScheduler(name, ["singleMachine=yes"], "run")).toThrow(UsageError);
      expect(outcome(name, ["singleMachine=true"])).toBe("rejected");
      expect(outcome(name, ["singleMachine=false"])).toBe("completed");
      expect(outcome(name, [])).toBe("completed");
    }
  });

  it("passes exclusive=true|false to the backfilling policies and EDF: one job per machine", () => {
    // One 4-core machine, two 1-core jobs: they share it, unless exclusive makes the second wait.
    const jobs = [
      createJob({ id: 1, submit: 0, runtime: 10, cores: 1, deadline: 100 }),
      createJob({ id: 2, submit: 0, runtime: 10, cores: 1, deadline: 100 }),
    ];
    const platform = createPlatform({ machines: [{ cores: 4 }] });
    const starts = (name: string, words: string[]) => {
      const c = chooseScheduler(name, words, "run");
      return simulate(jobs, platform, c.entry.create(c.options)).records.map(
        (r) => r.intervals[0]?.start,
      );
    };
    for (const name of ["fcfs", "easy", "conservative", "backfill", "bf-rm", "bf-unrm", "edf"]) {
      const on = chooseScheduler(name, ["exclusive=true"], "run");
      expect(on.options).toEqual({ exclusive: true });
      expect(on.label).toBe(`${name}(exclusive=true)`);
      expect(on.entry.create(on.options).name).toMatch(/\+excl$/);
      const off = chooseScheduler(name, ["exclusive=false"], "run");
      expect(off.entry.create(off.options).name).not.toMatch(/\+excl$/);
      expect(() => chooseScheduler(name, ["exclusive=maybe"], "run")).toThrow(UsageError);
      expect(starts(name, ["exclusive=true"]), name).toEqual([0, 10]);
      expect(starts(name, ["exclusive=false"]), name).toEqual([0, 0]);
    }
    // exclusive implies singleMachine; an explicit singleMachine=false beside it is an error
    const both = chooseScheduler("easy", ["exclusive=true", "singleMachine=false"], "run");
    expect(() => both.entry.create(both.options)).toThrow(/options\.singleMachine/);
  });
});

/** Three machines of two cores at speeds 1..3, and jobs with deadlines, some early, some wide. */
const PLATFORM = createPlatform({
  machines: [
    { cores: 2, speed: 1 },
    { cores: 2, speed: 2 },
    { cores: 2, speed: 3 },
  ],
});
const JOBS = Array.from({ length: 20 }, (_, i) =>
  createJob({
    id: i + 1,
    submit: i,
    runtime: 5 + ((7 * i) % 11),
    estimate: 8 + ((7 * i) % 11),
    cores: 1 + (i % 2),
    deadline: i + 12 + ((5 * i) % 13),
  }),
);

describe("the registry's declarations", () => {
  it("writes every declared default into its description", () => {
    for (const s of SCHEDULERS) {
      expect(s.description, s.name).not.toContain("{default}");
      for (const o of s.options) expect(o.description, `${s.name} ${o.key}`).not.toContain("{");
    }
  });

  it("declares each default as the package applies it: --opt key=<default> schedules as no option", () => {
    let checked = 0;
    for (const s of SCHEDULERS) {
      if (s.experimentOnly !== undefined) continue;
      // the non-preemptive CS variants' overhead matters only when it is what keeps a job
      const contexts = s.options.some((o) => o.key === "nonPreemption")
        ? [{}, { nonPreemption: "overhead" }]
        : [{}];
      for (const context of contexts) {
        const plain = s.create(context);
        const base = JSON.stringify(simulate(JOBS, PLATFORM, plain).records);
        for (const o of s.options) {
          if (o.default === undefined || o.key in context) continue;
          const explicit = s.create({ ...context, [o.key]: o.default });
          expect(explicit.name, `${s.name} ${o.key}`).toBe(plain.name);
          const records = JSON.stringify(simulate(JOBS, PLATFORM, explicit).records);
          expect(records === base, `${s.name} ${o.key}=${String(o.default)}`).toBe(true);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(60);
  });

  it("reads each option's value only when it has the option's type", () => {
    for (const s of SCHEDULERS) {
      for (const o of s.options) {
        expect(o.read({}), `${s.name} ${o.key}`).toBeUndefined();
        expect(o.read({ [o.key]: Symbol.name }), `${s.name} ${o.key}`).toBe(
          o.type === "string" && o.choices === undefined ? Symbol.name : undefined,
        );
        if (o.default !== undefined) expect(o.read({ [o.key]: o.default })).toBe(o.default);
      }
    }
  });

  it("refuses OAS outside its experiments, naming --scheduler and where it runs", async () => {
    expect(() => chooseScheduler("oas", [], "run")).toThrow(
      /^run: option --scheduler: scheduler 'oas' cannot run on a workload: .*multi-cluster.*; it runs in sched-sim reproduce oas \| oas-links \| oas-slots$/,
    );
    const r = await cli("run", "-w", fixture("small.swf"), "--clean", "-s", "oas");
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("run: option --scheduler: scheduler 'oas' cannot run on a workload");
  });

  it("runs the multi-cluster policies that are core schedulers on a plain pool and on an SWF trace", async () => {
    const names = SCHEDULERS.map((s) => s.name).filter((n) =>
      /^oas-|space-sharing|partitioning/.test(n),
    );
    expect(names).toEqual([
      "dynamic-space-sharing",
      "adaptive-partitioning",
      "oas-fcfs",
      "oas-sjf",
      "oas-bjf",
      "oas-fpfs",
      "oas-spt",
      "oas-lpt",
    ]);
    const pool = identicalPool(4);
    const jobs = JOBS.map(({ id, submit, runtime, estimate }) =>
      createJob({ id, submit, runtime, estimate, cores: 1 + (id % 4) }),
    );
    for (const name of names) {
      const c = chooseScheduler(name, [], "run");
      const trace = simulate(jobs, pool, c.entry.create(c.options));
      expect(checkSchedule(trace), name).toEqual([]);
      expect(trace.records.every((r) => r.outcome === "completed")).toBe(true);
    }
    for (const words of [
      ["-s", "dynamic-space-sharing"],
      ["-s", "oas-fpfs", "--opt", "links=false"],
    ]) {
      const r = await cli(
        "run",
        "-w",
        fixture("small.swf"),
        "--clean",
        "--format",
        "json",
        ...words,
      );
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).jobs).toBeGreaterThan(0);
    }
  });
});

describe("the space-sharing policies on rigid jobs", () => {
  it("property: on an SWF-shaped run every job gets exactly its size, so both are FCFS: the same starts and ends", () => {
    const times = (name: string, platform: Parameters<typeof simulate>[1], jobs: Job[]) => {
      const c = chooseScheduler(name, [], "run");
      return simulate(jobs, platform, c.entry.create(c.options)).records.map((r) => [
        r.job.id,
        r.outcome,
        r.intervals[0]?.start,
        r.end,
      ]);
    };
    fc.assert(
      fc.property(
        // as `run` reads an SWF trace: single-processor machines, jobs ready on submission
        fc
          .integer({ min: 1, max: 8 })
          .map((n) => identicalPool(n))
          .chain((platform) =>
            arbJobs(platform, { licenses: false, deadlines: false, maxJobs: 25 }).map((jobs) => ({
              platform,
              jobs: jobs.map(({ id, submit, runtime, estimate, cores }) =>
                createJob({ id, submit, runtime, estimate, cores }),
              ),
            })),
          ),
        ({ platform, jobs }) => {
          const fcfs = times("fcfs", platform, jobs);
          expect(times("dynamic-space-sharing", platform, jobs)).toEqual(fcfs);
          expect(times("adaptive-partitioning", platform, jobs)).toEqual(fcfs);
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe("--opt order=deadline", () => {
  it("orders the queue by deadline, jobs without one last (easy, conservative, backfill)", async () => {
    // One core. Job 1 runs [0, 10); jobs 2 (deadline 100), 3 (deadline 50) and 4 (none) arrive
    // at 1 and wait. By deadline: 3, 2, 4 from 10 on; in FCFS order: 2, 3, 4.
    const dir = await tempDir();
    const w = join(dir, "d.jsonl");
    writeFileSync(
      w,
      [
        '{"format":"@sched/jobs","version":1,"meta":{"procs":1}}',
        '{"id":1,"submit":0,"runtime":10,"cores":1}',
        '{"id":2,"submit":1,"runtime":5,"cores":1,"deadline":100}',
        '{"id":3,"submit":1,"runtime":5,"cores":1,"deadline":50}',
        '{"id":4,"submit":1,"runtime":5,"cores":1}',
        "",
      ].join("\n"),
    );
    /** Each job's start, by id, from `run -w w ...words`' jobs.csv. */
    const starts = async (out: string, ...words: string[]): Promise<Record<string, number>> => {
      const r = await cli("run", "-w", w, ...words, "-o", join(dir, out));
      expect(r.code, r.stderr).toBe(0);
      const rows = readFileSync(join(dir, out, "jobs.csv"), "utf8")
        .trim()
        .split("\n")
        .slice(1);
      return Object.fromEntries(rows.map((row) => [row.split(",")[0]!, Number(row.split(",")[2])]));
    };
    for (const s of ["easy", "conservative", "backfill"]) {
      expect(await starts(s, "-s", s, "--opt", "order=deadline"), s).toEqual({
        1: 0,
        2: 15,
        3: 10,
        4: 20,
      });
    }
    expect(await starts("fcfs-order", "-s", "easy")).toEqual({ 1: 0, 2: 10, 3: 15, 4: 20 });
  });
});

describe("README", () => {
  it("lists the schedulers as the registry does (`sched-sim schedulers --markdown`)", async () => {
    const readme = readFileSync(join(import.meta.dirname, "..", "README.md"), "utf8");
    const begin = readme.indexOf("<!-- schedulers:begin");
    const end = readme.indexOf("<!-- schedulers:end -->");
    expect(begin).toBeGreaterThan(0);
    const committed = readme.slice(readme.indexOf("\n", begin) + 1, end);
    const generated = schedulersMarkdown();
    expect((await cli("schedulers", "--markdown")).stdout).toBe(generated);
    expect(committed, "regenerate: sched-sim schedulers --markdown").toBe(generated);
  });
});
