import { InvalidInputError } from "@sched/core";
import { describe, expect, it } from "vitest";
import { AvailRectList, admissionPass, advanceReservation } from "../src/index.js";

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
  it("by advanceReservation, admissionPass, AvailRectList and findAllocation", () => {
    const list = new AvailRectList(4);
    const cases: [() => unknown, string][] = [
      [
        () => advanceReservation({ clip: true } as never),
        "@sched/advance-reservation/advanceReservation: options.clip",
      ],
      [
        () => admissionPass({ now: 0, pes: 4, reservations: [] }, [], { polcy: 1 } as never),
        "@sched/advance-reservation/admissionPass: options.polcy is not a known key (did you mean `policy`?)",
      ],
      [
        () => new AvailRectList(4, { orign: 0 } as never),
        "AvailRectList: options.orign is not a known key (did you mean `origin`?)",
      ],
      [
        () =>
          list.findAllocation({ ready: 0, duration: 1, peCount: 1 }, {
            cliptodeadline: false,
          } as never),
        "findAllocation: options.cliptodeadline is not a known key (did you mean `clipToDeadline`?)",
      ],
    ];
    for (const [fn, text] of cases) expect(refused(fn)).toContain(text);
    expect(refused(() => advanceReservation(null as never))).toContain("options is null");
  });
});

describe("unknown state keys are refused", () => {
  it("admissionPass names a misspelt state key", () => {
    expect(
      refused(() => admissionPass({ now: 0, pes: 4, reservation: [] } as never, [])),
    ).toContain("state.reservation is not a known key (did you mean `reservations`?)");
  });
});
