import { InvalidInputError } from "@sched/core";
import { convergentWorkload } from "@sched/workload";
import { describe, expect, it } from "vitest";
import type { MatrixJob } from "../src/heuristic.js";
import { IncrementalMatrix } from "../src/incremental.js";
import { buildMatrix } from "../src/matrix.js";
import { matrixSource } from "../src/matrix-source.js";
import { paperHeuristics } from "../src/paper-heuristics.js";
import { waitMinimizationHeuristic } from "../src/wait-minimization.js";

// One contract, four sources: the options object picks among them.
const { platform, jobs } = convergentWorkload({ seed: 2, jobs: 12, machines: 6, licenses: 3 });
const rows: MatrixJob[] = jobs.map((job, i) => ({
  job,
  progress: i % 3 === 0 ? 0.5 : 0,
  machine: -1,
}));
const now = Math.max(...jobs.map((j) => j.submit));
const input = { now, platform, jobs: rows };

describe("matrixSource", () => {
  it("from scratch with the paper's heuristics: buildMatrix's P within rounding, every row listed", () => {
    const source = matrixSource({ constants: { licenses: 5 } });
    expect(source.incremental).toBe(false);
    const u = source.update(input);
    const exact = buildMatrix(input, paperHeuristics({ licenses: 5 }));
    expect(u.changedRows).toEqual(rows.map((_, i) => i));
    expect(u.shift).toBe(0);
    exact.weights.forEach((v, k) => {
      expect(Math.abs((u.matrix.weights[k] as number) - v)).toBeLessThanOrEqual(1e-9 * (1 + v));
    });
  });
  it("from scratch with given heuristics: buildMatrix's P bit for bit, costs left to makePlan", () => {
    const heuristics = [waitMinimizationHeuristic()];
    const u = matrixSource({ heuristics }).update(input);
    expect(Array.from(u.matrix.weights)).toEqual(
      Array.from(buildMatrix(input, heuristics).weights),
    );
    expect(u.costs).toBeUndefined();
  });
  it("incremental: a second update of the same state changes no row (either heuristic path)", () => {
    for (const source of [
      matrixSource({ incremental: true }),
      matrixSource({ incremental: true, heuristics: paperHeuristics() }),
    ]) {
      expect(source.incremental).toBe(true);
      expect(source.update(input).changedRows.length).toBe(rows.length);
      expect(source.update(input).changedRows).toEqual([]);
      source.reset();
      expect(source.update(input).changedRows.length).toBe(rows.length);
    }
    expect(matrixSource({ incremental: true, heuristics: [] })).toBeInstanceOf(IncrementalMatrix);
  });
  it("names the invalid option", () => {
    const bad = (options: object, field: RegExp) => {
      expect(() => matrixSource(options)).toThrow(InvalidInputError);
      expect(() => matrixSource(options)).toThrow(field);
    };
    bad({ incremental: "yes" }, /options\.incremental is "yes", expected true or false/);
    bad({ refreshTolerance: -1 }, /options\.refreshTolerance/);
    bad({ shiftHorizon: 0 }, /options\.shiftHorizon/);
    bad({ heuristics: "all" }, /options\.heuristics/);
    bad({ constants: { base: 0 } }, /constants\.base/);
    bad({ readings: { deadlineLate: "soon" } }, /readings\.deadlineLate/);
  });
});
