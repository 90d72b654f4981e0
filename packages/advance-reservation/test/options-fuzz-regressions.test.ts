import { createJob, InvalidInputError, identicalPool, simulate } from "@sched/core";
import { describe, expect, it } from "vitest";
import {
  AvailRectList,
  admissionPass,
  advanceReservation,
  rectangleDuration,
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
      '@sched/advance-reservation/advanceReservation: options.clipToDeadline is "yes", expected a boolean',
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
});
