import { InvalidInputError } from "@sched/core";
import { describe, expect, it } from "vitest";
import {
  bruteForceOas,
  buildOasModel,
  checkOasSchedule,
  loadSolver,
  multiClusterPlatform,
  oasExecutionModel,
  oasHeuristic,
  oasPlanScheduler,
  simulateSpaceSharing,
  simulateSpaceSharingOnCore,
  slottedListSchedule,
  solveOas,
  spaceSharingExecutionModel,
  spaceSharingPass,
  spaceSharingScheduler,
} from "../src/index.js";

/** `fn` throws an InvalidInputError whose message contains `text`. */
function expectRefused(fn: () => unknown, text: string | RegExp): void {
  expect(fn).toThrow(InvalidInputError);
  expect(fn).toThrow(text);
}

describe("unknown option keys are refused", () => {
  const platform = multiClusterPlatform([{ nodes: 2 }, { nodes: 2 }]);
  it("by every factory and function that takes options, naming the key meant", () => {
    const cases: [() => unknown, string][] = [
      [
        () => multiClusterPlatform([{ nodes: 1 }], { referencespeed: 2 } as never),
        "multiClusterPlatform: options.referencespeed is not a known key (did you mean `referenceSpeed`?)",
      ],
      [
        () => multiClusterPlatform([{ nodes: 1, speeds: 0.5 }] as never),
        "multiClusterPlatform: clusters[0].speeds is not a known key (did you mean `speed`?)",
      ],
      [
        () => oasExecutionModel({ contension: true } as never),
        "oasExecutionModel: options.contension is not a known key (did you mean `contention`?)",
      ],
      [
        () => buildOasModel([], platform, { formulaton: "x" } as never),
        "buildOasModel: options.formulaton is not a known key (did you mean `formulation`?)",
      ],
      [
        () => bruteForceOas([], platform, { eta: 1, theta: 2, maxNode: 3 } as never),
        "bruteForceOas: options.maxNode is not a known key (did you mean `maxNodes`?)",
      ],
      [
        () => checkOasSchedule([], platform, [], { eta: 1, theta: 2, tau: 3 } as never),
        "checkOasSchedule: options.tau",
      ],
      [
        () => oasHeuristic("FCFS" as never, { link: true } as never),
        "oasHeuristic: options.link is not a known key (did you mean `links`?)",
      ],
      [
        () => oasPlanScheduler([], 1, { compat: true } as never),
        "oasPlanScheduler: options.compat is not a known key (did you mean `compact`?)",
      ],
      [
        () => slottedListSchedule([], platform, [], { eta: 1, theta: 2, x: 1 } as never),
        "slottedListSchedule: options.x",
      ],
      [
        () => spaceSharingScheduler({ alpah: 1 } as never),
        "spaceSharingScheduler: options.alpah is not a known key (did you mean `alpha`?)",
      ],
      [
        () => spaceSharingExecutionModel({ mlp: 2 } as never),
        "spaceSharingExecutionModel: options.mlp is not a known key (did you mean `mpl`?)",
      ],
      [
        () => simulateSpaceSharing([], platform, { polcy: "x" } as never),
        "simulateSpaceSharing: options.polcy is not a known key (did you mean `policy`?)",
      ],
      [
        () => simulateSpaceSharingOnCore([], platform, { sed: 1 } as never),
        "simulateSpaceSharingOnCore: options.sed is not a known key (did you mean `seed`?)",
      ],
      [
        () =>
          spaceSharingPass({ platform, available: [0, 1], queue: [], executing: 0 }, {
            seed: 1,
          } as never),
        "spaceSharingPass: options.seed is not a known key",
      ],
    ];
    for (const [fn, text] of cases) expectRefused(fn, text);
  });

  it("solveOas and loadSolver reject with the error", async () => {
    await expect(solveOas([], platform, { timelimit: 1 } as never)).rejects.toThrow(
      "options.timelimit is not a known key (did you mean `timeLimit`?)",
    );
    await expect(loadSolver({ wasmbinary: new Uint8Array() } as never)).rejects.toThrow(
      /options\.wasmbinary is not a known key \(did you mean `wasmBinary`\?\)|were given after HiGHS started loading/,
    );
  });
});

describe("typed errors", () => {
  it("multiClusterPlatform(null) says what clusters is", () => {
    expectRefused(
      () => multiClusterPlatform(null as never),
      "@sched/multicluster/multiClusterPlatform: clusters is null, expected an array of clusters",
    );
  });
});

describe("unknown state keys are refused", () => {
  it("spaceSharingPass names a misspelt state key", () => {
    const platform = multiClusterPlatform([{ nodes: 2 }]);
    expectRefused(
      () =>
        spaceSharingPass({
          platform,
          available: [0],
          queue: [],
          executing: 0,
          executed: 1,
        } as never),
      "state.executed is not a known key (did you mean `executing`?)",
    );
  });
});
