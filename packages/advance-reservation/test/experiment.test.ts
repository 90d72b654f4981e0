import { identicalPool, simulate } from "@sched/core";
import { describe, expect, it } from "vitest";
import {
  advanceReservation,
  arMetrics,
  arStudies,
  estimate,
  firstFit,
  peWorstFit,
  runArExperiment,
} from "../src/index.js";
import { toyArWorkload } from "./toy-ar-workload.js";

describe("arStudies", () => {
  it("holds the paper's three studies with five points each", () => {
    expect(arStudies.map((s) => s.id)).toEqual(["umed", "arrival", "flexibility"]);
    expect(arStudies[0]!.points.map((p) => p.umed)).toEqual([5, 6, 7, 8, 9]);
    expect(arStudies[1]!.points.map((p) => p.arrivalFactor)).toEqual([0.5, 0.75, 1, 1.25, 1.5]);
    expect(arStudies[2]!.points.map((p) => [p.artimeFactor, p.deadlineFactor])).toEqual([
      [1, 1],
      [2, 2],
      [3, 3],
      [4, 4],
      [5, 5],
    ]);
    for (const p of arStudies[0]!.points) expect([p.arrivalFactor, p.artimeFactor]).toEqual([1, 3]);
    for (const p of arStudies[2]!.points) expect([p.umed, p.arrivalFactor]).toEqual([7, 1]);
  });
});

describe("estimate", () => {
  it("gives the mean and the Student-t 95% half width", () => {
    const e = estimate([1, 2, 3]);
    expect(e.mean).toBe(2);
    expect(e.halfWidth).toBeCloseTo((4.303 * 1) / Math.sqrt(3), 10);
    expect(estimate([5]).halfWidth).toBeNaN();
    expect(estimate(Array.from({ length: 41 }, (_, i) => i % 2)).halfWidth).toBeCloseTo(
      // 21 zeros and 20 ones; t(40) = 2.021.
      (2.021 * Math.sqrt((21 * (20 / 41) ** 2 + 20 * (21 / 41) ** 2) / 40)) / Math.sqrt(41),
      3,
    );
  });
});

describe("arMetrics", () => {
  it("counts waiting from the ready time", () => {
    const trace = simulate(
      [
        { id: 0, submit: 0, runtime: 10, estimate: 10, cores: 1, deadline: 10 },
        { id: 1, submit: 0, runtime: 10, estimate: 10, cores: 1, ready: 5, deadline: 30 },
        { id: 2, submit: 0, runtime: 10, estimate: 10, cores: 2 },
      ],
      identicalPool(1),
      advanceReservation(),
    );
    // job 0: slowdown 1; job 1 starts at 10, ready 5: (20 - 5) / 10 = 1.5; job 2 rejected.
    expect(arMetrics(trace)).toEqual({ acceptanceRate: 2 / 3, meanSlowdown: 1.25 });
  });
});

describe("runArExperiment", () => {
  const small = { jobs: 150, runs: 2, pes: 256 } as const;

  it("reports every (study, point, policy) cell, matching direct simulations", () => {
    const rows = runArExperiment((p) => toyArWorkload(p, 300), {
      ...small,
      studies: [arStudies[0]!],
      policies: [firstFit, peWorstFit],
    });
    expect(rows).toHaveLength(5 * 2);
    expect(rows.map((r) => `${r.point.label}/${r.policy}`).slice(0, 4)).toEqual([
      "5/FF",
      "5/PE_W",
      "6/FF",
      "6/PE_W",
    ]);
    const cell = rows[3]!;
    const direct = [1, 2].map((seed) =>
      arMetrics(
        simulate(
          toyArWorkload({ ...arStudies[0]!.points[1]!, jobs: 150, pes: 256, seed }, 300),
          identicalPool(256), // runArExperiment uses one 256-core machine: same decisions
          advanceReservation({ policy: peWorstFit }),
        ),
      ),
    );
    expect(cell.acceptanceRate.values).toEqual(direct.map((m) => m.acceptanceRate));
    expect(cell.meanSlowdown.values).toEqual(direct.map((m) => m.meanSlowdown));
    for (const r of rows) {
      expect(r.acceptanceRate.mean).toBeGreaterThan(0);
      expect(r.acceptanceRate.mean).toBeLessThanOrEqual(1);
      expect(r.meanSlowdown.mean).toBeGreaterThanOrEqual(1);
    }
  });

  it("is deterministic and reports progress", () => {
    const seen: number[] = [];
    const opts = { ...small, runs: 1, studies: [arStudies[2]!], policies: [firstFit] };
    const a = runArExperiment((p) => toyArWorkload(p), {
      ...opts,
      onProgress: (d) => seen.push(d),
    });
    const b = runArExperiment((p) => toyArWorkload(p), opts);
    expect(a).toEqual(b);
    expect(seen).toEqual([1, 2, 3, 4, 5]);
  });

  it("validates its options", () => {
    const gen = (p: Parameters<typeof toyArWorkload>[0]) => toyArWorkload(p);
    expect(() => runArExperiment(gen, { runs: 0 })).toThrow(
      /@sched\/advance-reservation\/runArExperiment: options.runs is 0/,
    );
    expect(() => runArExperiment(gen, { policies: [] })).toThrow(/options.policies is empty/);
    expect(() => runArExperiment(gen, { seed: 1.5 })).toThrow(/options.seed is 1.5/);
  });
});
