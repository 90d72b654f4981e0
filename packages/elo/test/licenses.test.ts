import { createJob, createPlatform, type Scheduler, simulate } from "@sched/core";
import { describe, expect, it } from "vitest";
import { maxMinScheduler, minMinScheduler } from "../src/batch-scheduler.js";
import { competitiveScheduler } from "../src/competitive-scheduler.js";
import { mctScheduler } from "../src/mct-scheduler.js";
import { randomScheduler } from "../src/random-scheduler.js";
import { expectSound } from "./helpers.js";

const policies: [string, () => Scheduler][] = [
  ["competitive", () => competitiveScheduler()],
  ["random", () => randomScheduler({ seed: 9 })],
  ["min-min", () => minMinScheduler()],
  ["max-min", () => maxMinScheduler()],
  ["mct", () => mctScheduler()],
];

describe.each(policies)("%s with licenses and ready times", (_, make) => {
  it("waits for a floating license instead of breaking the ledger", () => {
    const platform = createPlatform({
      machines: [{}, {}, {}],
      licenses: [{ name: "cad", copies: 1 }],
    });
    const js = [0, 1, 2].map((id) =>
      createJob({ id, submit: 0, runtime: 10, cores: 1, licenses: { cad: 1 } }),
    );
    const trace = simulate(js, platform, make());
    expectSound(trace);
    const spans = trace.records.map((r) => [r.intervals[0]!.start, r.intervals[0]!.end]);
    spans.sort((a, b) => a[0]! - b[0]!);
    for (let i = 1; i < spans.length; i++)
      expect(spans[i]![0]).toBeGreaterThanOrEqual(spans[i - 1]![1]!);
  });

  it("runs a job that needs a node-locked license only where the license is", () => {
    const platform = createPlatform({
      machines: [{}, {}],
      licenses: [{ name: "fpga", kind: "node-locked", copies: 1, machines: [1] }],
    });
    const trace = simulate(
      [createJob({ id: 0, submit: 0, runtime: 10, cores: 1, licenses: { fpga: 1 } })],
      platform,
      make(),
    );
    expect(trace.records[0]!.intervals[0]!.allocation[0]!.machine).toBe(1);
  });

  it("rejects a job whose license does not exist", () => {
    const platform = createPlatform({ machines: [{}] });
    const trace = simulate(
      [createJob({ id: 0, submit: 0, runtime: 10, cores: 1, licenses: { none: 1 } })],
      platform,
      make(),
    );
    expect(trace.records[0]!.outcome).toBe("rejected");
  });

  it("never starts a job before its ready time", () => {
    const platform = createPlatform({ machines: [{}, {}] });
    const js = [
      createJob({ id: 0, submit: 0, ready: 25, runtime: 10, cores: 1 }),
      createJob({ id: 1, submit: 0, runtime: 10, cores: 1 }),
    ];
    const trace = simulate(js, platform, make());
    expectSound(trace);
    expect(trace.records[0]!.intervals[0]!.start).toBeGreaterThanOrEqual(25);
  });
});
