import { createJob, InvalidInputError, identicalPool, simulate } from "@sched/core";
import { describe, expect, it } from "vitest";
import {
  AvailRectList,
  admissionPass,
  advanceReservation,
  firstFit,
  paperPolicies,
  peDurationWorstFit,
  peWorstFit,
  rectangleDuration,
  scorePolicy,
} from "../src/index.js";

// Defects the options fuzz suite found (options-fuzz.property.test.ts), one example each.
describe("advance-reservation: hostile values end in an InvalidInputError naming the place", () => {
  it("new AvailRectList(1e308) is refused (was accepted with zero bitset words, then a hang)", () => {
    expect(() => new AvailRectList(1e308)).toThrow(
      "@sched/advance-reservation/AvailRectList: pes is 1e+308, expected an integer in [1, 2147483647]",
    );
    expect(() => admissionPass({ now: 0, pes: 2 ** 31, reservations: [] }, [])).toThrow(
      /state\.pes is 2147483648, expected an integer in \[1, 2147483647\]/,
    );
  });

  it("a symbol where a number is expected is named (was a raw TypeError from a template)", () => {
    const list = new AvailRectList(4);
    expect(() => list.addAllocation(Symbol() as never, 3, [0])).toThrow(InvalidInputError);
    expect(() => admissionPass({ now: Symbol() as never, pes: 4, reservations: [] }, [])).toThrow(
      /state\.now is symbol, expected a finite number/,
    );
  });

  it("a duration below the spacing of doubles names the request (was AvailRectList/addAllocation's te)", () => {
    expect(() =>
      admissionPass({ now: 2, pes: 4, reservations: [] }, [
        { id: 1, peCount: 1, duration: 1e-300, deadline: 9 },
      ]),
    ).toThrow(/requests\[0\]\.duration is 1e-300, too short to count at its earliest start 2/);
  });

  it("advanceReservation checks clipToDeadline and name (were accepted whatever their type)", () => {
    expect(() => advanceReservation({ clipToDeadline: "yes" as never })).toThrow(
      '@sched/advance-reservation/advanceReservation: options.clipToDeadline is "yes", expected true or false',
    );
    expect(() => advanceReservation({ name: 7 as never })).toThrow(
      "options.name is 7, expected a string",
    );
    const jobs = [createJob({ id: 1, submit: 0, runtime: 1, cores: 1, deadline: 5 })];
    expect(simulate(jobs, identicalPool(1), advanceReservation({ name: "ok" })).scheduler).toBe(
      "ok",
    );
  });

  it("rectangleDuration checks the rectangle (null threw a raw TypeError, end before begin gave a negative duration)", () => {
    expect(() => rectangleDuration(null as never)).toThrow(
      "@sched/advance-reservation/rectangleDuration: rectangle is null, expected { start, begin, end, freePEs }",
    );
    expect(() => rectangleDuration({ start: 3, begin: 5, end: 2, freePEs: 1 })).toThrow(
      /rectangle\.end is 2, expected a number >= rectangle\.begin \(5\), or Infinity/,
    );
    expect(() => rectangleDuration({ start: 3, begin: "1", end: 9, freePEs: 1 } as never)).toThrow(
      /rectangle\.begin is "1", expected a finite number/,
    );
    expect(
      rectangleDuration({ start: 3, begin: 1, end: Number.POSITIVE_INFINITY, freePEs: 1 }),
    ).toBe(Number.POSITIVE_INFINITY);
  });

  it("the policies' compare checks both rectangles (null threw a raw TypeError, a string freePEs was coerced)", () => {
    const ok = { start: 3, begin: 1, end: 9, freePEs: 2 };
    expect(() => firstFit.compare(null as never, ok)).toThrow(
      "@sched/advance-reservation/firstFit.compare: a is null, expected { start, begin, end, freePEs }",
    );
    expect(() => peWorstFit.compare(ok, { ...ok, freePEs: "3" } as never)).toThrow(
      '@sched/advance-reservation/peWorstFit.compare: b.freePEs is "3", expected an integer >= 1',
    );
    expect(() => peDurationWorstFit.compare({ ...ok, end: 0 }, ok)).toThrow(
      "a.end is 0, expected a number >= a.start (3), or Infinity",
    );
    expect(() => firstFit.compare(ok, { ...ok, begin: 4 })).toThrow(
      "b.begin is 4, expected a finite number <= b.start (3)",
    );
    for (const policy of paperPolicies) {
      expect(() => policy.compare(ok, undefined as never)).toThrow(InvalidInputError);
      expect(() => policy.compare({ ...ok, start: Number.NaN }, ok)).toThrow(/a\.start is NaN/);
      expect(policy.compare(ok, { ...ok })).toBe(0);
    }
    const byEnd = scorePolicy("ByEnd", (r) => r.end, "max");
    expect(() => byEnd.compare([] as never, ok)).toThrow(
      '@sched/advance-reservation/scorePolicy("ByEnd").compare: a is an array',
    );
    expect(byEnd.compare({ ...ok, end: Number.POSITIVE_INFINITY }, ok)).toBeLessThan(0);
    const bad = scorePolicy("Bad", (r) => (r.freePEs > 2 ? Number.NaN : r.freePEs), "min");
    expect(() => bad.compare({ ...ok, freePEs: 3 }, ok)).toThrow(
      '@sched/advance-reservation/scorePolicy("Bad").compare: score(a) is NaN, expected a number (Infinity allowed)',
    );
  });

  it("findAllocation still calls the comparison unchecked: a NaN score ties, as documented", () => {
    const list = new AvailRectList(4);
    list.addAllocation(0, 2, [0, 1]);
    const nan = scorePolicy("NaN", () => Number.NaN, "min");
    expect(
      list.findAllocation({ ready: 0, duration: 1, deadline: 9, peCount: 2 }, { policy: nan })
        ?.start,
    ).toBe(0);
  });
});
