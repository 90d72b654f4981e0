import { createPlatform } from "@sched/core";
import { describe, expect, it } from "vitest";
import {
  CompetitiveCore,
  type CompetitiveQueuedJob,
  resolveCoreOptions,
} from "../src/competitive-core.js";

describe("CompetitiveCore.place", () => {
  it("looks at no machine when no waiting job is ready (a completion or a rejected arrival on a quiet platform)", () => {
    const platform = createPlatform({ machines: [{ speed: 9 }, { speed: 5 }, { speed: 7 }] });
    const core = new CompetitiveCore<CompetitiveQueuedJob>(
      platform,
      resolveCoreOptions({}, "test"),
    );
    let looked = 0;
    const idle = (m: number): boolean => {
      looked++;
      return m !== 1;
    };
    const started: [number, number][] = [];
    const start = (job: CompetitiveQueuedJob, m: number): void => {
      started.push([job.id, m]);
    };
    const later = { id: 1, cores: 1, estimate: 5, ready: 10 };
    core.place(0, [], idle, () => true, start);
    core.place(0, [later], idle, () => true, start);
    expect(looked).toBe(0);
    // once a job is ready, every machine is looked at once, whatever the number of jobs
    core.place(
      10,
      [later, { id: 2, cores: 1, estimate: 5 }, { id: 3, cores: 1, estimate: 5 }],
      idle,
      () => true,
      start,
    );
    expect(looked).toBe(3);
    // every machine at the base rating: lowest index first among the idle ones (0 and 2)
    expect(started).toEqual([
      [1, 0],
      [2, 2],
    ]);
  });
});
