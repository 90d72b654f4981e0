import { Random } from "@sched/random";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type BaselineSelection, chooseBaseline } from "../src/space-sharing.js";
import { plainChoice } from "./plain-baseline.js";

// `chooseBaseline` collects the available processors in a kept buffer, skips the sort of
// "fastest" on processors of one speed, and sorts the chosen ones by a radix sort from 256 on.
// It must choose what the plain definition chooses (an array of the available ones; "fastest"
// sorted by speed, then index; "random" a partial Fisher-Yates shuffle from the same stream;
// the first `count` sorted by index), and draw the same numbers from the stream.

const cases = fc.integer({ min: 1, max: 5000 }).chain((P) =>
  fc.record({
    P: fc.constant(P),
    // share of available processors, in percent
    density: fc.integer({ min: 0, max: 100 }),
    // "last": one speed but for the highest available processor (a check of one speed that
    // skips the last processor takes it for one speed)
    speeds: fc.constantFrom<"one" | "two" | "many" | "last">("one", "two", "many", "last"),
    count: fc.integer({ min: 1, max: P }),
    selection: fc.constantFrom<BaselineSelection>("random", "fastest", "lowest-index"),
    seed: fc.nat(),
  }),
);

describe("chooseBaseline", () => {
  it("chooses what the plain definition chooses, from the same draws", () => {
    fc.assert(
      fc.property(cases, (c) => {
        const layout = new Random(c.seed, "test/layout");
        const available = new Uint8Array(c.P);
        for (let p = 0; p < c.P; p++) available[p] = layout.integer(0, 99) < c.density ? 1 : 0;
        const speeds = Array.from({ length: c.P }, (_, p) =>
          c.speeds === "one" || c.speeds === "last"
            ? 2
            : c.speeds === "two"
              ? 1 + (p % 2)
              : 1 + layout.integer(0, 9),
        );
        if (c.speeds === "last") {
          const last = available.lastIndexOf(1);
          if (last >= 0) speeds[last] = 3;
        }
        const a = new Random(c.seed, "baseline/selection");
        const b = new Random(c.seed, "baseline/selection");
        const got = chooseBaseline(available, speeds, c.count, c.selection, a);
        expect(got).toEqual(plainChoice(available, speeds, c.count, c.selection, b));
        // the same draws: the streams are at the same place
        expect(a.next()).toBe(b.next());
      }),
      { numRuns: 300 },
    );
  });
});
