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
});
