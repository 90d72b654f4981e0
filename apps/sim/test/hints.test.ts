import { InvalidInputError, LimitExceededError, PolicyError } from "@sched/core";
import { describe, expect, it } from "vitest";
import { inCallersWords } from "../src/hints.js";

const FIELDS = new Map([
  ["cpus", "range"],
  ["powers", "list"],
  ["machines", "value"],
  ["typeless.uMed", "value"],
] as const);
const audience = { command: "gen m", options: [...FIELDS.keys()], flagFields: FIELDS };
const lib = (field: string, detail: string) =>
  new InvalidInputError("@sched/workload/m", field, detail);

describe("inCallersWords: a library's options.X said as the command's --X (flagFields)", () => {
  it("names the flag, and the end of a range or the item of a list, in command-line words", () => {
    const cases: [InvalidInputError, string][] = [
      [
        lib("options.cpus[0]", "is 1.5, expected an integer >= 1"),
        "gen m: option --cpus: the low end is 1.5, expected a whole number >= 1 (digits only)",
      ],
      [
        lib("options.cpus[1]", "is 1e+30, expected an integer >= 1"),
        "gen m: option --cpus: the high end is 1e+30, expected a whole number >= 1 (digits only)",
      ],
      [
        lib("options.cpus", "is [8,1], expected [lo, hi] with finite 1 <= lo <= hi"),
        "gen m: option --cpus: the low end (8) is above the high end (1), expected lo <= hi",
      ],
      [
        lib("options.cpus", "is [0,4], expected [lo, hi] with finite 1 <= lo <= hi"),
        "gen m: option --cpus: the low end is 0, expected a number >= 1",
      ],
      [
        lib("options.cpus", "is [0,4], expected [lo, hi] with finite 5e-324 <= lo <= hi"),
        "gen m: option --cpus: the low end is 0, expected a number > 0",
      ],
      [
        lib("options.cpus", "is [1,9], but the platform has 6 nodes"),
        "gen m: option --cpus is 1,9, but the platform has 6 nodes",
      ],
      [
        lib("options.powers[2]", "is 0, expected a finite number > 0"),
        "gen m: option --powers: item 3 is 0, expected a finite number > 0",
      ],
      [
        lib("options.machines", "is 3, but options.powers lists 2"),
        "gen m: option --machines is 3, but --powers lists 2",
      ],
      [
        lib("options.typeless.uMed", "is 9, expected uMed <= uHi (7)"),
        "gen m: option --typeless.uMed is 9, expected uMed <= uHi (7)",
      ],
    ];
    for (const [error, message] of cases) {
      const said = inCallersWords(error, audience);
      expect(said).toBeInstanceOf(InvalidInputError);
      expect((said as InvalidInputError).message).toBe(message);
      expect((said as InvalidInputError).cause).toBe(error);
    }
  });

  it("leaves an error alone when the field is no flag, or the audience gives no flagFields", () => {
    const other = lib("options.runtimeClasses[0]", "is 0, expected finite run times > 0");
    expect(inCallersWords(other, audience)).toBe(other);
    const cpus = lib("options.cpus[0]", "is 1.5, expected an integer >= 1");
    expect(inCallersWords(cpus, { command: "run", options: ["cpus"] })).toBe(cpus);
    expect(inCallersWords(cpus, { experimentFile: "e.json" })).toBe(cpus);
  });
});

describe("inCallersWords: the engine's guards and policy failures", () => {
  const where = "@sched/core/createSimulation";
  const run = { command: "run", options: ["max-events", "max-stalled-events"] };
  it("says them as the command's, with the guard's flag", () => {
    const limit = new LimitExceededError(
      where,
      'policy "p" did not finish within options.maxEvents (5) events, at t=3',
      { limit: "options.maxEvents" },
    );
    const said = inCallersWords(limit, run) as LimitExceededError;
    expect(said).toBeInstanceOf(LimitExceededError);
    expect(said.message).toBe(
      'run: policy "p" did not finish within --max-events (5) events, at t=3',
    );
    expect(said.limit).toBe("--max-events");
    expect(said.cause).toBe(limit);

    const threw = new PolicyError(
      where,
      { policy: "p", time: 40, jobIds: [7] },
      'policy "p" threw at t=40',
    );
    const policy = inCallersWords(threw, run) as PolicyError;
    expect(policy).toBeInstanceOf(PolicyError);
    expect(policy.message).toBe('run: policy "p" threw at t=40');
    expect([policy.policy, policy.time, policy.jobIds]).toEqual(["p", 40, [7]]);
    expect(policy.cause).toBe(threw);
  });

  it("leaves them alone for an experiment file, and a policy error of another function", () => {
    const threw = new PolicyError(where, { policy: "p", time: 1, jobIds: [] }, "x");
    expect(inCallersWords(threw, { experimentFile: "e.json" })).toBe(threw);
    const other = new PolicyError(
      "@sched/backfill/backfillPass",
      { policy: "p", time: 1, jobIds: [] },
      "x",
    );
    expect(inCallersWords(other, run)).toBe(other);
    const limit = new LimitExceededError(where, "x options.maxEvents", {
      limit: "options.maxEvents",
    });
    expect(inCallersWords(limit, { command: "demo", options: [] })).toBe(limit);
  });
});
