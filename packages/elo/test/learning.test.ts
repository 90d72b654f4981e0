import { createJob, createPlatform, type ExecutionModel, simulate } from "@sched/core";
import { describe, expect, it } from "vitest";
import { competitiveScheduler } from "../src/competitive-scheduler.js";

const platform = createPlatform({ machines: [{ speed: 9 }, { speed: 9 }], referenceSpeed: 9 });

/** Machine 0 runs at 9 Mflops, then at 1 for jobs submitted from `from` on; machine 1 at 9. */
function drifting(from: number): ExecutionModel {
  return {
    name: "drifting",
    duration: (job, allocation, _platform, seconds) =>
      allocation[0]!.machine === 0 && job.submit >= from ? seconds * 9 : seconds,
  };
}

describe("the competitive ratings learn what the platform hides", () => {
  it("a machine that slows down mid-run loses rating and the healthy one takes its work", () => {
    // two machines advertised alike; machine 0 runs at 9 Mflops, then at 1 from t = 2500 on
    const model = drifting(2500);
    const jobs = Array.from({ length: 400 }, (_, i) =>
      createJob({ id: i, submit: i * 25, runtime: 10, cores: 1 }),
    );
    const seen: { time: number; machine: number; tier: number; rating: number }[] = [];
    const policy = competitiveScheduler({
      onRatingUpdate: (e) =>
        seen.push({ time: e.time, machine: e.machine, tier: e.tierAfter, rating: e.ratingAfter }),
    });
    const trace = simulate(jobs, platform, policy, { executionModel: model });
    const zero = seen.filter((e) => e.machine === 0);
    const before = zero.filter((e) => e.time < 2500).at(-1)!;
    const after = zero.at(-1)!;
    // before the drift machine 0 won every job and did all the work (tie broken by index)
    expect(seen.filter((e) => e.time < 2500).every((e) => e.machine === 0)).toBe(true);
    expect(after.rating).toBeLessThan(before.rating);
    // the last 100 jobs all run on the healthy machine
    const late = trace.records.slice(-100).map((r) => r.intervals[0]!.allocation[0]!.machine);
    expect(late.every((m) => m === 1)).toBe(true);
    // and the healthy machine ends up with the better rating
    const snap = policy.snapshot();
    expect(snap.ratings[1]).toBeGreaterThan(snap.ratings[0]!);
  });
});
