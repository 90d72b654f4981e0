import { describe, expect, it } from "vitest";
import { DualSimplex } from "../src/dual-simplex.js";
import { rng } from "./helpers.js";

// The dual simplex's guards against Harris's tolerance (a reduced cost that drifted to the wrong
// sign counts as 0, both in the ratios and in the dual step) and its other pivoting rules decide
// which pivots it makes; the LP it ends at is the same either way (property tests), so only
// the path shows them. This pins the pivots spent along fixed chains of re-solves (bound changes,
// small budgets, snapshots restored), as the search makes them. A change made on purpose
// updates the numbers; the statuses must stay.

/**
 * Chain `t` of a fixed sequence: an LP (10-60 items, 3-12 rows plus the cardinality row; even
 * chains license-like 0/1 weights and real values, odd ones integer weights 0-20 and values
 * 1-30), then 25 re-solves, each after fresh bounds (a few items fixed or freed, sometimes a
 * range on the number of items), with a budget of 30 or 5000 pivots; every fifth state is
 * snapshotted and restored after the next solve. Returns the statuses and the pivot counter
 * after each solve of the chains listed in `wanted`.
 */
function chains(wanted: readonly number[]): Map<number, { status: string[]; pivots: number[] }> {
  const out = new Map<number, { status: string[]; pivots: number[] }>();
  const r = rng(31337);
  const int = (lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
  const last = Math.max(...wanted);
  for (let t = 0; t <= last; t++) {
    const n = int(10, 60);
    const m = int(3, 12);
    const lic = t % 2 === 0;
    const W = Array.from({ length: m }, () =>
      Array.from({ length: n }, () => (lic ? (r() < 0.25 ? 1 : 0) : r() < 0.3 ? 0 : int(1, 20))),
    );
    const values = Array.from({ length: n }, () => (lic ? 1 + 9 * r() : int(1, 30)));
    const caps = W.map((row) => Math.floor(row.reduce((s, x) => s + x, 0) * (0.2 + 0.5 * r())));
    W.push(Array.from({ length: n }, () => 1));
    caps.push(n);
    const M = m + 1;
    const start = new Int32Array(n + 1);
    const row: number[] = [];
    const val: number[] = [];
    for (let j = 0; j < n; j++) {
      for (let k = 0; k < M; k++) {
        const w = (W[k] as number[])[j] as number;
        if (w !== 0) {
          row.push(k);
          val.push(w);
        }
      }
      start[j + 1] = row.length;
    }
    const lp = new DualSimplex(
      { rows: M, cols: n, start, row: Int32Array.from(row), val: Float64Array.from(val) },
      Float64Array.from(values),
      Float64Array.from(caps),
    );
    const status: string[] = [];
    const pivots: number[] = [];
    const snap = lp.newSnapshot();
    for (let step = 0; step < 25; step++) {
      lp.lo.fill(0, 0, n);
      lp.up.fill(1, 0, n);
      const k = int(0, 6);
      for (let q = 0; q < k; q++) {
        const j = int(0, n - 1);
        const x = int(0, 2);
        lp.lo[j] = x % 2;
        lp.up[j] = x === 2 ? 1 : x % 2;
      }
      if (r() < 0.3) {
        const kLo = int(0, n);
        lp.lo[n + m] = n - int(kLo, n);
        lp.up[n + m] = n - kLo;
      } else {
        lp.lo[n + m] = 0;
        lp.up[n + m] = n;
      }
      const budget = r() < 0.3 ? 30 : 5000;
      if (step % 5 === 4) lp.snapshot(snap);
      status.push(lp.solve(budget));
      if (step % 5 === 0 && step > 0) lp.restore(snap);
      pivots.push(lp.pivots);
    }
    if (wanted.includes(t)) out.set(t, { status, pivots });
  }
  return out;
}

describe("DualSimplex's pivoting path", () => {
  it("is pinned along fixed chains of re-solves", () => {
    const got = chains([45, 275]);
    const optimal = (k: number) => Array.from({ length: k }, () => "optimal");
    // Chain 45 (integer weights): Harris's ratios are clamped at 0.
    expect(got.get(45)).toEqual({
      status: optimal(25),
      pivots: [
        3, 5, 5, 5, 5, 5, 8, 17, 21, 23, 24, 25, 26, 33, 36, 45, 48, 50, 52, 54, 57, 60, 65, 68, 68,
      ],
    });
    // Chain 275 (integer weights): the dual step takes a drifted reduced cost as 0.
    expect(got.get(275)).toEqual({
      status: [...optimal(15), "infeasible", ...optimal(9)],
      pivots: [
        13, 13, 13, 20, 27, 32, 36, 45, 50, 55, 58, 63, 68, 70, 74, 83, 93, 103, 106, 106, 106, 106,
        109, 113, 119,
      ],
    });
  });
});
