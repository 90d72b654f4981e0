import { InvalidInputError } from "@sched/core";
import { describe, expect, it } from "vitest";
import { backfill, backfillPass, flexible } from "../src/index.js";

// Defects the options fuzz suite found (options-fuzz.property.test.ts), one example each.
const state = () => ({
  now: 100,
  cores: 8,
  running: [{ id: 1, cores: 4, end: 160 }],
  queue: [
    { id: 2, cores: 8, estimate: 50 },
    { id: 3, cores: 2, estimate: 60 },
  ],
});

describe("backfill options: hostile values end in an InvalidInputError naming the option", () => {
  it("a bigint machineOrder, variant or policy is named (was a raw TypeError from JSON.stringify)", () => {
    expect(() => backfill({ machineOrder: 1n as never })).toThrow(InvalidInputError);
    expect(() => backfill({ machineOrder: 1n as never })).toThrow(
      /options\.machineOrder is bigint, expected one of/,
    );
    expect(() => flexible({ priority: () => 0, variant: 1n as never })).toThrow(
      /options\.variant is bigint/,
    );
    expect(() => backfillPass(state(), { policy: 1n as never })).toThrow(
      /options\.policy is bigint/,
    );
  });

  it("backfillPass refuses an array as options (was accepted as the defaults)", () => {
    expect(() => backfillPass(state(), [] as never)).toThrow(
      "@sched/backfill/backfillPass: options is an array, expected an object",
    );
  });

  it("a state whose times a double cannot plan names the field (was the internal AvailabilityProfile)", () => {
    expect(() => backfillPass({ ...state(), now: 1e308, running: [] })).toThrow(
      /^@sched\/backfill\/backfillPass: state\.now is 1e\+308: with it the plan may reach/,
    );
    const tiny = { ...state(), queue: [{ id: 2, cores: 8, estimate: 1e-300 }] };
    expect(() => backfillPass(tiny)).toThrow(
      /^@sched\/backfill\/backfillPass: state\.queue\[0\]\.estimate is 1e-300, below the spacing of doubles/,
    );
  });
});
