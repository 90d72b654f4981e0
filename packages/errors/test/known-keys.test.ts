import { describe, expect, expectTypeOf, it } from "vitest";
import {
  InvalidInputError,
  optionKeys,
  refuseMisspeltKeys,
  requireKnownKeys,
} from "../src/index.js";
import { editDistance, isNearMiss, nearestKey } from "../src/known-keys.js";

const W = "@sched/x/f";

interface PassOptions {
  reservations?: number;
  machineOrder?: "first" | "best";
  seed?: number;
}
const PASS_KEYS = optionKeys<PassOptions>({ reservations: true, machineOrder: true, seed: true });

/** The message `fn` throws (an InvalidInputError), or `undefined`. */
function message(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(InvalidInputError);
    return (e as Error).message;
  }
  return undefined;
}

describe("requireKnownKeys", () => {
  it("returns undefined and objects with only known keys", () => {
    expect(requireKnownKeys(W, "options", undefined, PASS_KEYS)).toBeUndefined();
    const o = { reservations: 1, seed: 2 };
    expect(requireKnownKeys(W, "options", o, PASS_KEYS)).toBe(o);
    expect(requireKnownKeys(W, "options", {}, PASS_KEYS)).toEqual({});
  });

  it("names the unknown key, the nearest known one and the known keys", () => {
    expect(message(() => requireKnownKeys(W, "options", { reservation: 0 }, PASS_KEYS))).toBe(
      `${W}: options.reservation is not a known key (did you mean \`reservations\`?), expected one of reservations, machineOrder, seed`,
    );
    expect(message(() => requireKnownKeys(W, "options", { sed: 3 }, PASS_KEYS))).toContain(
      "options.sed is not a known key (did you mean `seed`?)",
    );
    expect(
      message(() => requireKnownKeys(W, "options", { machineorder: "first" }, PASS_KEYS)),
    ).toContain("(did you mean `machineOrder`?)");
    expect(message(() => requireKnownKeys(W, "spec", { name: "WL-2" }, PASS_KEYS))).toBe(
      `${W}: spec.name is not a known key, expected one of reservations, machineOrder, seed`,
    );
  });

  it("accepts an unknown key whose value is undefined (a spread that clears a key)", () => {
    expect(
      message(() => requireKnownKeys(W, "options", { ...{ seed: 1 }, sed: undefined }, PASS_KEYS)),
    ).toBeUndefined();
    expect(message(() => requireKnownKeys(W, "options", { sed: null }, PASS_KEYS))).toContain(
      "options.sed",
    );
  });

  it("refuses null, arrays and primitives as the options object", () => {
    for (const [v, d] of [
      [null, "null"],
      [[], "an array"],
      [3, "3"],
      ["a", '"a"'],
    ] as const) {
      expect(message(() => requireKnownKeys(W, "options", v as never, PASS_KEYS))).toBe(
        `${W}: options is ${d}, expected an object`,
      );
    }
  });

  it("says so when a type has no options at all", () => {
    const NONE = optionKeys<Record<never, never>>({});
    expect(message(() => requireKnownKeys(W, "options", { a: 1 }, NONE))).toBe(
      `${W}: options.a is not a known key, expected no keys`,
    );
  });

  it("checks an object against each list it is given", () => {
    const OTHER = optionKeys<{ other?: number }>({ other: true });
    const o = { seed: 1 };
    expect(requireKnownKeys(W, "options", o, PASS_KEYS)).toBe(o);
    expect(requireKnownKeys(W, "options", o, PASS_KEYS)).toBe(o);
    expect(message(() => requireKnownKeys(W, "options", o, OTHER))).toContain("options.seed");
  });

  it("ignores symbol and inherited keys", () => {
    const o = Object.create({ inherited: 1 }) as Record<string | symbol, unknown>;
    o[Symbol("s")] = 1;
    o.seed = 2;
    expect(() => requireKnownKeys(W, "options", o, PASS_KEYS)).not.toThrow();
  });

  it("optionKeys keeps a frozen copy of its record: changing the caller's object later changes nothing", () => {
    const record: Record<string, true> = { seed: true };
    const keys = optionKeys<{ seed?: number }>(record as { seed: true });
    expect(Object.isFrozen(keys.record)).toBe(true);
    expect(Object.isFrozen(keys.keys)).toBe(true);
    record.extra = true;
    expect(keys.keys).toEqual(["seed"]);
    expect(() => requireKnownKeys(W, "options", { extra: 1 }, keys)).toThrow(
      "options.extra is not a known key",
    );
  });

  it("optionKeys lists every key of the interface, in order (a missing or extra key is a type error)", () => {
    expect(PASS_KEYS.keys).toEqual(["reservations", "machineOrder", "seed"]);
    // @ts-expect-error a key of PassOptions is missing
    optionKeys<PassOptions>({ reservations: true, machineOrder: true });
    // @ts-expect-error a key that PassOptions lacks
    optionKeys<PassOptions>({ reservations: true, machineOrder: true, seed: true, extra: true });
    expectTypeOf(requireKnownKeys(W, "o", { seed: 1 } as PassOptions, PASS_KEYS)).toEqualTypeOf<
      PassOptions | undefined
    >();
  });
});

describe("nearestKey", () => {
  it("prefers a case-insensitive match, then the nearest within the limit, then a long prefix", () => {
    expect(nearestKey("nodelimit", ["timeLimit", "nodeLimit"])).toBe("nodeLimit");
    expect(nearestKey("preempt", ["preemptive", "deadline"])).toBe("preemptive");
    expect(nearestKey("matching", ["matcher", "variant"])).toBe("matcher");
    expect(nearestKey("name", ["workload", "seed"])).toBeUndefined();
    expect(nearestKey("x", ["y", "z"])).toBe("y");
    // short keys: two edits are still suggested ("sede" is two substitutions from "seed")
    expect(nearestKey("sede", ["jobs", "seed"])).toBe("seed");
    // a shared prefix counts from 4 characters: "est" (3) suggests nothing
    expect(nearestKey("estxyz", ["estimate"])).toBeUndefined();
    expect(nearestKey("estixyz", ["estimate"])).toBe("estimate");
    // ... and only when it is at least half the shorter key: "maxst" (5) of "maxStepSize" (11)
    // is not
    expect(nearestKey("maxStepSize", ["maxStalledEvents"])).toBeUndefined();
  });

  it("editDistance counts insertions, deletions and substitutions", () => {
    expect(editDistance("kitten", "sitting")).toBe(3);
    expect(editDistance("", "abc")).toBe(3);
    expect(editDistance("abc", "abc")).toBe(0);
  });
});

describe("optionKeys records compose", () => {
  it("a type that extends another lists the base's keys by spreading its record", () => {
    interface More extends PassOptions {
      readonly name?: string;
    }
    const MORE = optionKeys<More>({ ...PASS_KEYS.record, name: true });
    expect(MORE.keys).toEqual(["reservations", "machineOrder", "seed", "name"]);
    // @ts-expect-error the spread base lacks `name`
    optionKeys<More>({ ...PASS_KEYS.record });
  });
});

interface QueuedJob {
  id: number;
  cores: number;
  estimate: number;
  submit?: number;
  start?: number;
  ready?: number;
  deadline?: number;
  priority?: number;
  licenses?: Record<string, number>;
  maxProcessors?: number;
}
const JOB_KEYS = optionKeys<QueuedJob>({
  id: true,
  cores: true,
  estimate: true,
  submit: true,
  start: true,
  ready: true,
  deadline: true,
  priority: true,
  licenses: true,
  maxProcessors: true,
});
const JOB = { id: 3, cores: 2, estimate: 5 };

describe("refuseMisspeltKeys", () => {
  const refuse = (record: object) =>
    message(() => refuseMisspeltKeys(W, "state.queue[0]", record, JOB_KEYS));

  it("refuses a near miss of a field the record lacks, naming the key and the field", () => {
    expect(refuse({ ...JOB, deadlin: 4 })).toBe(
      `${W}: state.queue[0].deadlin is not a field (did you mean \`deadline\`?): a record may carry fields of its own, which are ignored, but not a near miss of a field it lacks`,
    );
    expect(refuse({ ...JOB, redy: 5 })).toContain(
      "state.queue[0].redy is not a field (did you mean `ready`?)",
    );
    expect(refuse({ ...JOB, Deadline: 4 })).toContain("(did you mean `deadline`?)");
    expect(refuse({ ...JOB, raedy: 4 })).toContain("(did you mean `ready`?)");
    expect(refuse({ ...JOB, license: { a: 1 } })).toContain("(did you mean `licenses`?)");
    expect(refuse({ ...JOB, maxProcesors: 8 })).toContain("(did you mean `maxProcessors`?)");
    expect(refuse({ ...JOB, prioirty: 8 })).toContain("(did you mean `priority`?)");
  });

  it("allows the caller's own fields, far from every field (the Slurm-style state, user, partition)", () => {
    expect(
      refuse({ ...JOB, state: "PENDING", user: "ana", partition: "batch", nodes: 2, started: 1 }),
    ).toBeUndefined();
    expect(refuse({ ...JOB, ready: 1, deadline: 9, submit: 0, priority: 3 })).toBeUndefined();
    expect(refuse(JOB)).toBeUndefined();
  });

  it("allows a near miss of a field the record has, and one whose value is undefined", () => {
    expect(refuse({ ...JOB, deadline: 4, deadlines: [4, 5] })).toBeUndefined();
    expect(refuse({ ...JOB, deadlin: undefined })).toBeUndefined();
    // A field given as undefined is absent: the near miss would be the value meant.
    expect(refuse({ ...JOB, deadline: undefined, deadlin: 4 })).toContain(
      "did you mean `deadline`",
    );
  });

  it("reads only own keys (an inherited enumerable key is not the record's)", () => {
    const proto = { deadlin: 4 };
    expect(refuse(Object.assign(Object.create(proto), JOB))).toBeUndefined();
    expect(refuse(Object.assign(Object.create(null), JOB, { constructor: 1 }))).toBeUndefined();
  });

  it("gives the same answer on a repeated key (the cache) as on its first sight", () => {
    for (let k = 0; k < 3; k++) {
      expect(refuse({ ...JOB, user: "u" })).toBeUndefined();
      expect(refuse({ ...JOB, dedline: 1 })).toContain("did you mean `deadline`");
      expect(refuse({ ...JOB, deadline: 1, dedline: 1 })).toBeUndefined();
    }
  });

  it("remembers what it learnt per key set: a key harmless for one set is still refused for another", () => {
    const A = optionKeys<{ alpha?: number }>({ alpha: true });
    const B = optionKeys<{ seed?: number }>({ seed: true });
    const check = (keys: typeof A | typeof B, record: object) =>
      message(() => refuseMisspeltKeys(W, "r", record, keys));
    expect(check(A, { alpha: 1, sede: 2 })).toBeUndefined();
    expect(check(B, { sede: 2 })).toContain("r.sede is not a field (did you mean `seed`?)");
    expect(check(A, { sede: 2 })).toBeUndefined();
  });

  it("answers alike past the bound of what it remembers (1,024 keys per key set)", () => {
    const KEYS = optionKeys<Pick<QueuedJob, "id" | "deadline">>({ id: true, deadline: true });
    const check = (record: object) => message(() => refuseMisspeltKeys(W, "r", record, KEYS));
    for (let i = 0; i < 1100; i++) expect(check({ id: i, [`tag${i}`]: 1 })).toBeUndefined();
    expect(check({ id: 1, tag5000: 1, deadlin: 2 })).toContain("r.deadlin is not a field");
    expect(check({ id: 1, deadlinx: 2 })).toContain("r.deadlinx is not a field");
    expect(check({ id: 1, deadline: 3, deadlinx: 2 })).toBeUndefined();
  });
});

describe("isNearMiss", () => {
  it("equal ignoring case, or one edit (a swap counts one), or two when both have 8 characters", () => {
    expect(isNearMiss("DEADLINE", "deadline")).toBe(true);
    expect(isNearMiss("dedline", "deadline")).toBe(true);
    expect(isNearMiss("redy", "ready")).toBe(true);
    expect(isNearMiss("raedy", "ready")).toBe(true);
    expect(isNearMiss("readyy", "ready")).toBe(true);
    expect(isNearMiss("dealdine", "deadline")).toBe(true);
    expect(isNearMiss("maxProcesors", "maxProcessors")).toBe(true);
    expect(isNearMiss("maxProcesrs", "maxProcessors")).toBe(true);
    // Two edits between shorter keys are ordinary words, not typos.
    expect(isNearMiss("state", "start")).toBe(false);
    // Two swaps are two edits ("esde": "es" and "de" swapped in "seed").
    expect(isNearMiss("esde", "seed")).toBe(false);
    expect(isNearMiss("esed", "seed")).toBe(true);
    expect(isNearMiss("nodes", "cores")).toBe(false);
    expect(isNearMiss("started", "start")).toBe(false);
    expect(isNearMiss("rdy", "ready")).toBe(false);
    // two edits need both keys of 8 or more characters, not one
    expect(isNearMiss("estmte", "estimate")).toBe(false);
    // a swap is of two adjacent letters, each where the other was: "dsed" is two edits from "seed"
    expect(isNearMiss("dsed", "seed")).toBe(false);
    expect(isNearMiss("esed", "seed")).toBe(true);
    // Three edits are never a near miss, however long the keys.
    expect(isNearMiss("maxProcs", "maxProcessors")).toBe(false);
    expect(isNearMiss("deadlineX12", "deadline")).toBe(false);
  });
});
