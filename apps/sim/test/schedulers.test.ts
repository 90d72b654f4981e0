import { createJob, createPlatform, identicalPool, simulate } from "@sched/core";
import { describe, expect, it } from "vitest";
import { chooseScheduler, SCHEDULERS } from "../src/schedulers.js";
import { UsageError } from "../src/usage-error.js";

describe("scheduler registry", () => {
  it("has unique names, fcfs among them, each creating a scheduler of that name", () => {
    const names = SCHEDULERS.map((s) => s.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toContain("fcfs");
    for (const s of SCHEDULERS) expect(typeof s.create({}).schedule).toBe("function");
  });

  it("types --opt values and labels the choice with sorted keys", () => {
    const c = chooseScheduler("fcfs", ["machineOrder=speed"], "run");
    expect(c.options).toEqual({ machineOrder: "speed" });
    expect(c.label).toBe("fcfs(machineOrder=speed)");
    expect(chooseScheduler("fcfs", [], "run").label).toBe("fcfs");
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
      return simulate(jobs, pool, c.entry.create(c.options)).records[0].outcome;
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
