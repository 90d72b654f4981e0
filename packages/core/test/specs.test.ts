import { describe, expect, it, vi } from "vitest";
import { defaultExecutionModel, type ExecutionModel, type Scheduler } from "../src/index.js";
import { greedy } from "./helpers.js";

// schedulerSpecs registers its properties with vitest's describe and it. To see whether they
// fail a policy, the module is loaded again with a describe that runs its body at once and an
// it that only collects the property: each can then be run here and expected to throw.
async function collectSpecs(
  factory: () => Scheduler,
  options: Record<string, unknown>,
): Promise<Map<string, () => void>> {
  const specs = new Map<string, () => void>();
  vi.resetModules();
  vi.doMock("vitest", async (importOriginal) => {
    const real = await importOriginal<typeof import("vitest")>();
    return {
      ...real,
      describe: (_name: string, body: () => void) => body(),
      it: (name: string, body: () => void) => specs.set(name, body),
    };
  });
  try {
    const { schedulerSpecs } = await import("../src/testing/specs.js");
    schedulerSpecs("probe", factory, options);
  } finally {
    vi.doUnmock("vitest");
  }
  return specs;
}

/** The message of the assertion that failed the property `run` (fast-check keeps it as the cause). */
function causeOf(run: () => void): string {
  try {
    run();
  } catch (error) {
    return String(((error as Error).cause as Error | undefined)?.message);
  }
  throw new Error("expected the property to fail");
}

const small = { numRuns: 15, jobsOptions: { licenses: false, maxJobs: 6 } };

describe("schedulerSpecs (@sched/core/testing) fails what it promises to", () => {
  it("passes a conforming policy on every property", async () => {
    const specs = await collectSpecs(() => greedy(), small);
    expect(specs.size).toBe(4);
    for (const run of specs.values()) run();
  });

  it("fails a policy that rejects a job with an empty reason", async () => {
    const mute: Scheduler = {
      name: "mute",
      schedule(ctx) {
        for (const j of ctx.arrived) ctx.reject(j.id, "");
      },
    };
    const specs = await collectSpecs(() => mute, small);
    const loses = [...specs].find(([name]) => name.startsWith("loses no job"))![1];
    expect(causeOf(loses)).toMatch(/^job 0 ended rejected/);
  });

  it("checks the schedule with the execution model it simulates with", async () => {
    // Durations twice the default: the default model's check would see every job end late.
    const slow: ExecutionModel = {
      name: "slow",
      duration: (job, allocation, platform, seconds) =>
        2 * defaultExecutionModel.duration(job, allocation, platform, seconds),
    };
    const specs = await collectSpecs(() => greedy(), { ...small, executionModel: slow });
    for (const run of specs.values()) run();
  });
});
