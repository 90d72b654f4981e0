import { InvalidInputError } from "@sched/core";
import { describe, expect, it } from "vitest";
import { backfill, backfillPass, conservative, easy, edf, fcfs, flexible } from "../src/index.js";

const state = { now: 0, cores: 8, running: [], queue: [{ id: 1, cores: 2, estimate: 5 }] };

/** `fn` throws an InvalidInputError whose message contains `text`. */
function expectRefused(fn: () => unknown, text: string | RegExp): void {
  expect(fn).toThrow(InvalidInputError);
  expect(fn).toThrow(text);
}

describe("unknown option keys are refused", () => {
  it("backfillPass names a misspelt key and the one meant, for every policy", () => {
    expectRefused(
      () => backfillPass(state, { reservation: 0 } as never),
      /^@sched\/backfill\/backfillPass: options\.reservation is not a known key \(did you mean `reservations`\?\)/,
    );
    expectRefused(
      () => backfillPass(state, { policy: "easy", reservations: 3 } as never),
      'options.reservations is 3, but policy "easy" sets it (1): give reservations without policy (or with policy "backfill")',
    );
    expectRefused(
      () => backfillPass(state, { policy: "conservative", reservations: 2 } as never),
      'options.reservations is 2, but policy "conservative" sets it (Infinity)',
    );
    expect(backfillPass(state, { policy: "backfill", reservations: 2 }).start).toEqual([1]);
    expectRefused(
      () => backfillPass(state, { policy: "edf", preempt: false } as never),
      "options.preempt is not a known key (did you mean `preemption`?)",
    );
    expectRefused(
      () => backfillPass(state, { policy: "fcfs", order: "sjf" } as never),
      "options.order is not a known key",
    );
    expectRefused(
      () =>
        backfillPass(state, { policy: "flexible", priority: () => 0, varient: "unrm" } as never),
      "options.varient is not a known key (did you mean `variant`?)",
    );
  });

  it("backfillPass counts policy among its options: a misspelt policy key is named as meant", () => {
    expectRefused(
      () => backfillPass(state, { polcy: "conservative" } as never),
      /^@sched\/backfill\/backfillPass: options\.polcy is not a known key \(did you mean `policy`\?\), expected one of policy, reservations,/,
    );
    expectRefused(
      () => backfillPass(state, { policy: "edf", polcy: "edf" } as never),
      "options.polcy is not a known key (did you mean `policy`?), expected one of policy, preemption,",
    );
  });

  it("backfillPass names an unknown policy with the policies, quoted as every string option", () => {
    expectRefused(
      () => backfillPass(state, { policy: "conservativ" } as never),
      '@sched/backfill/backfillPass: options.policy is "conservativ", expected one of "backfill", "easy", "conservative", "flexible", "fcfs", "edf"',
    );
  });

  it("the factories and presets refuse them when built", () => {
    expectRefused(
      () => easy({ reservations: 3 } as never),
      "@sched/backfill/easy: options.reservations is 3, but easy() sets it (1): use backfill({ reservations })",
    );
    expectRefused(
      () => conservative({ reservations: 3 } as never),
      "@sched/backfill/conservative: options.reservations is 3, but conservative() sets it (Infinity): use backfill({ reservations })",
    );
    expectRefused(
      () => edf({ preempt: false } as never),
      /^@sched\/backfill\/edf: options\.preempt is not a known key \(did you mean `preemption`\?\)/,
    );
    expectRefused(() => backfill({ reservation: 1 } as never), "options.reservation");
    expectRefused(() => fcfs({ order: "sjf" } as never), "@sched/backfill/fcfs: options.order");
    expectRefused(
      () => flexible({ priority: () => 0, nme: "x" } as never),
      "options.nme is not a known key (did you mean `name`?)",
    );
  });

  it("a preset's bad option names the preset called, not backfill", () => {
    expectRefused(
      () => easy({ order: "x" } as never),
      /^@sched\/backfill\/easy: options\.order is "x"/,
    );
    expectRefused(
      () => conservative({ machineOrder: 3 } as never),
      /^@sched\/backfill\/conservative: options\.machineOrder is 3/,
    );
    expectRefused(
      () => flexible({ priority: () => 0, machineOrder: "x" } as never),
      /^@sched\/backfill\/flexible: options\.machineOrder is "x"/,
    );
    expect(easy({ order: "sjf" }).name).toBe("easy/sjf");
    expect(conservative().name).toBe("conservative");
  });

  it("null options are refused like any other non-object, naming options", () => {
    expectRefused(
      () => backfill(null as never),
      "@sched/backfill/backfill: options is null, expected an object",
    );
    expectRefused(
      () => backfillPass(state, null as never),
      "@sched/backfill/backfillPass: options is null, expected an object",
    );
    expectRefused(() => easy(null as never), "options is null");
    expectRefused(() => edf(null as never), "options is null");
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
    expectRefused(
      () => backfillPass({ ...state, cores: "8" } as never),
      'state.cores is "8", expected an integer >= 1',
    );
  });
});

describe("unknown state keys are refused", () => {
  it("backfillPass names a misspelt state key", () => {
    expectRefused(
      () => backfillPass({ ...state, runing: [] } as never),
      "@sched/backfill/backfillPass: state.runing is not a known key (did you mean `running`?)",
    );
  });
});
