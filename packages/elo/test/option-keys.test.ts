import { InvalidInputError, identicalPool } from "@sched/core";
import { describe, expect, it } from "vitest";
import {
  competitivePass,
  competitiveScheduler,
  isWin,
  jobLevel,
  maxMinScheduler,
  mctScheduler,
  minMinScheduler,
  randomScheduler,
  TierList,
  tierOf,
  tierRange,
  updateRating,
  winCondition,
} from "../src/index.js";

/** `fn` throws an InvalidInputError whose message contains `text`. */
function expectRefused(fn: () => unknown, text: string | RegExp): void {
  expect(fn).toThrow(InvalidInputError);
  expect(fn).toThrow(text);
}

describe("unknown option keys are refused", () => {
  it("by every factory and function that takes options, naming the key meant", () => {
    const state = { now: 0, platform: identicalPool(2), completed: [], queue: [], free: [0, 1] };
    const cases: [() => unknown, string][] = [
      [
        () => competitivePass(state, { tier: 3 } as never),
        "competitivePass: options.tier is not a known key (did you mean `tiers`?)",
      ],
      [
        () => competitiveScheduler({ overheads: 1 } as never),
        "competitiveScheduler: options.overheads is not a known key (did you mean `overhead`?)",
      ],
      [
        () => randomScheduler({ sed: 3 } as never),
        "randomScheduler: options.sed is not a known key (did you mean `seed`?)",
      ],
      [
        () => minMinScheduler({ speed: [1] } as never),
        "minMinScheduler: options.speed is not a known key (did you mean `speeds`?)",
      ],
      [() => maxMinScheduler({ speed: [1] } as never), "maxMinScheduler: options.speed"],
      [() => mctScheduler({ speed: [1] } as never), "mctScheduler: options.speed"],
      [
        () => new TierList(2, { tierwidth: 3 } as never),
        "TierList: options.tierwidth is not a known key (did you mean `tierWidth`?)",
      ],
      [() => tierOf(10, { tier: 3 } as never), "tierOf: options.tier"],
      [() => tierRange(1, { tier: 3 } as never), "tierRange: options.tier"],
      [() => updateRating(10, true, 0.5, { grow: 2 } as never), "updateRating: options.grow"],
      [
        () => winCondition(1, { maxSpeed: 2, overHead: 1 } as never),
        "winCondition: options.overHead is not a known key (did you mean `overhead`?)",
      ],
      [
        () => isWin({ size: 1, elapsed: 1, tierLevel: 1 }, { maxSpeed: 2, x: 1 } as never),
        "isWin: options.x",
      ],
      [
        () => jobLevel({ size: 1, minSize: 1, maxSize: 2, tiers: 3, scal: "log" } as never),
        "jobLevel: options.scal is not a known key (did you mean `scale`?)",
      ],
    ];
    for (const [fn, text] of cases) expectRefused(fn, text);
  });

  it("competitiveScheduler refuses null options", () => {
    expectRefused(
      () => competitiveScheduler(null as never),
      "@sched/elo/competitiveScheduler: options is null, expected an object",
    );
    expectRefused(() => jobLevel(null as never), "options is null");
  });
});

describe("unknown state keys are refused", () => {
  it("competitivePass names a misspelt state key", () => {
    const state = { now: 0, platform: identicalPool(2), completed: [], queue: [], fre: [0, 1] };
    expectRefused(() => competitivePass(state as never), "state.fre is not a known key");
  });
});
