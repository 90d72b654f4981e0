import { InvalidInputError } from "@sched/core";
import { describe, expect, it } from "vitest";
import { AvailRectList, admissionPass, advanceReservation } from "../src/index.js";

/** `fn` throws an InvalidInputError whose message contains `text`. */
function expectRefused(fn: () => unknown, text: string | RegExp): void {
  expect(fn).toThrow(InvalidInputError);
  expect(fn).toThrow(text);
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
    for (const [fn, text] of cases) expectRefused(fn, text);
    expectRefused(() => advanceReservation(null as never), "options is null");
  });
});

describe("unknown state keys are refused", () => {
  it("admissionPass names a misspelt state key", () => {
    expectRefused(
      () => admissionPass({ now: 0, pes: 4, reservation: [] } as never, []),
      "state.reservation is not a known key (did you mean `reservations`?)",
    );
  });
});
