import { createPlatform } from "@sched/core";
import { describe, expect, it } from "vitest";
import {
  CompetitiveCore,
  type CompetitiveQueuedJob,
  LIST_UP_TO,
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
    const idle = {
      idle: (m: number): boolean => {
        looked++;
        return m !== 1;
      },
      next: (from: number): number => {
        looked++;
        return [0, 2].find((m) => m >= from) ?? -1;
      },
    };
    const started: [number, number][] = [];
    const start = (job: CompetitiveQueuedJob, m: number): void => {
      started.push([job.id, m]);
    };
    const later = { id: 1, cores: 1, estimate: 5, ready: 10 };
    core.place(0, [], idle, () => true, start);
    core.place(0, [later], idle, () => true, start);
    expect(looked).toBe(0);
    // once a job is ready, every machine is looked at once (few idle: their lists are made),
    // whatever the number of jobs
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

  it("looks at the first machines only on a mostly idle platform", () => {
    const platform = createPlatform({
      machines: Array.from({ length: 1000 }, () => ({ speed: 1 })),
    });
    const core = new CompetitiveCore<CompetitiveQueuedJob>(
      platform,
      resolveCoreOptions({}, "test"),
    );
    let looked = 0;
    const busy = new Set([0, 2]);
    const idle = {
      idle: (m: number): boolean => {
        looked++;
        return !busy.has(m);
      },
      next: (from: number): number => {
        for (let m = from; m < 1000; m++) if (!busy.has(m)) return m;
        return -1;
      },
    };
    const started: [number, number][] = [];
    core.place(
      0,
      [1, 2, 3].map((id) => ({ id, cores: 1, estimate: 5 })),
      idle,
      () => true,
      (job, m) => {
        started.push([job.id, m]);
        busy.add(m);
      },
    );
    expect(started).toEqual([
      [1, 1],
      [2, 3],
      [3, 4],
    ]);
    // the first LIST_UP_TO + 1 idle machines are found (more than that: no lists), then the
    // walks ask about the machines they pass
    expect(looked).toBeLessThanOrEqual(LIST_UP_TO + 3 + 5);
  });
});
