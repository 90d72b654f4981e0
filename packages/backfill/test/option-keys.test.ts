import { InvalidInputError } from "@sched/core";
import { describe, expect, it } from "vitest";
import { backfill, backfillPass, conservative, easy, edf, fcfs, flexible } from "../src/index.js";

const state = { now: 0, cores: 8, running: [], queue: [{ id: 1, cores: 2, estimate: 5 }] };

/** The message of the InvalidInputError `fn` throws. */
function refused(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(InvalidInputError);
    return (e as Error).message;
  }
  throw new Error("expected an InvalidInputError");
}

describe("unknown option keys are refused", () => {
  it("backfillPass names a misspelt key and the one meant, for every policy", () => {
    expect(refused(() => backfillPass(state, { reservation: 0 } as never))).toMatch(
      /^@sched\/backfill\/backfillPass: options\.reservation is not a known key \(did you mean `reservations`\?\)/,
    );
    expect(
      refused(() => backfillPass(state, { policy: "easy", reservations: 3 } as never)),
    ).toContain("options.reservations is not a known key");
    expect(
      refused(() => backfillPass(state, { policy: "edf", preempt: false } as never)),
    ).toContain("options.preempt is not a known key (did you mean `preemption`?)");
    expect(refused(() => backfillPass(state, { policy: "fcfs", order: "sjf" } as never))).toContain(
      "options.order is not a known key",
    );
    expect(
      refused(() =>
        backfillPass(state, { policy: "flexible", priority: () => 0, varient: "unrm" } as never),
      ),
    ).toContain("options.varient is not a known key (did you mean `variant`?)");
  });

  it("the factories and presets refuse them when built", () => {
    expect(refused(() => easy({ reservations: 3 } as never))).toMatch(
      /^@sched\/backfill\/easy: options\.reservations is not a known key/,
    );
    expect(refused(() => conservative({ reservations: 3 } as never))).toMatch(
      /^@sched\/backfill\/conservative: options\.reservations/,
    );
    expect(refused(() => edf({ preempt: false } as never))).toMatch(
      /^@sched\/backfill\/edf: options\.preempt is not a known key \(did you mean `preemption`\?\)/,
    );
    expect(refused(() => backfill({ reservation: 1 } as never))).toContain("options.reservation");
    expect(refused(() => fcfs({ order: "sjf" } as never))).toContain(
      "@sched/backfill/fcfs: options.order",
    );
    expect(refused(() => flexible({ priority: () => 0, nme: "x" } as never))).toContain(
      "options.nme is not a known key (did you mean `name`?)",
    );
  });

  it("null options are refused like any other non-object, naming options", () => {
    expect(refused(() => backfill(null as never))).toBe(
      "@sched/backfill/backfill: options is null, expected an object",
    );
    expect(refused(() => backfillPass(state, null as never))).toBe(
      "@sched/backfill/backfillPass: options is null, expected an object",
    );
    expect(refused(() => easy(null as never))).toContain("options is null");
    expect(refused(() => edf(null as never))).toContain("options is null");
  });

  it("an unknown key set to undefined is accepted, as are the known keys", () => {
    expect(backfillPass(state, { reservations: 1, reservation: undefined } as never).start).toEqual(
      [1],
    );
    expect(() => easy({ order: "sjf", name: "e" })).not.toThrow();
  });
});

describe("quoted values", () => {
  it("a string core count is quoted", () => {
    expect(refused(() => backfillPass({ ...state, cores: "8" } as never))).toContain(
      'state.cores is "8", expected an integer >= 1',
    );
  });
});

describe("unknown state keys are refused", () => {
  it("backfillPass names a misspelt state key", () => {
    expect(refused(() => backfillPass({ ...state, runing: [] } as never))).toContain(
      "@sched/backfill/backfillPass: state.runing is not a known key (did you mean `running`?)",
    );
  });
});
