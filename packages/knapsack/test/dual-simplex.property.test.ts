import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DualSimplex } from "../src/dual-simplex.js";
import { bruteForce, columnsOf, licenseInstance, mkpInstance } from "./helpers.js";

type Instance = { values: number[]; weights: number[][]; capacities: number[] };

/** The instance with a cardinality row `sum_j x_j <= n` appended (the search's extra row). */
function withCardinality(inst: Instance): Instance {
  const n = inst.values.length;
  return {
    values: inst.values,
    weights: [...inst.weights, Array.from({ length: n }, () => 1)],
    capacities: [...inst.capacities, n],
  };
}

/** The LP of an MKP instance: columns of weights, capacities as right-hand sides. */
function lpOf(inst: Instance): DualSimplex {
  return new DualSimplex(
    columnsOf(inst),
    Float64Array.from(inst.values),
    Float64Array.from(inst.capacities),
  );
}

/** Objective of the current basic solution, and its largest violation of rows or bounds. */
function measure(lp: DualSimplex, values: readonly number[]): { z: number; violation: number } {
  let z = 0;
  let violation = 0;
  const load = new Float64Array(lp.m);
  for (let j = 0; j < lp.n; j++) {
    const x = lp.value(j);
    z += x * (values[j] as number);
    violation = Math.max(violation, (lp.lo[j] as number) - x, x - (lp.up[j] as number));
    for (let p = lp.a.start[j] as number; p < (lp.a.start[j + 1] as number); p++)
      load[lp.a.row[p] as number] =
        (load[lp.a.row[p] as number] as number) + x * (lp.a.val[p] as number);
  }
  for (let k = 0; k < lp.m; k++)
    violation = Math.max(violation, (load[k] as number) - (lp.c[k] as number));
  return { z, violation };
}

const boundsArb = fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 2 })), { maxLength: 8 });

/**
 * Sets the bounds of the first `n` variables of `lp` to [0, 1], then each change `[j, x]` on
 * variable `j % n`: x 0 fixes it at 0, 1 at 1, 2 leaves it free in [0, 1].
 */
function boundsOf(lp: DualSimplex, n: number, changes: readonly (readonly [number, number])[]) {
  lp.lo.fill(0, 0, n);
  lp.up.fill(1, 0, n);
  for (const [j, x] of changes) {
    if (n === 0) break;
    lp.lo[j % n] = x % 2;
    lp.up[j % n] = x === 2 ? 1 : x % 2;
  }
}

describe("DualSimplex properties", () => {
  it("bounds the integer optimum from above with a feasible LP solution", () => {
    fc.assert(
      fc.property(fc.oneof(mkpInstance(12, 4), licenseInstance(12, 6, 5)), (inst) => {
        const lp = lpOf(inst);
        expect(lp.solve(10_000)).toBe("optimal");
        const { z, violation } = measure(lp, inst.values);
        expect(violation).toBeLessThan(1e-7);
        expect(z).toBeGreaterThanOrEqual(bruteForce(inst).value - 1e-6);
      }),
      { numRuns: 150 },
    );
  });

  it("re-optimised after bound changes, equals a fresh solve with the same bounds", () => {
    fc.assert(
      fc.property(
        fc.oneof(mkpInstance(15, 4), licenseInstance(20, 6, 6)).map(withCardinality),
        fc.array(fc.tuple(boundsArb, fc.nat(), fc.nat()), { minLength: 1, maxLength: 6 }),
        (inst, rounds) => {
          const n = inst.values.length;
          const card = n + inst.capacities.length - 1; // the cardinality row's slack
          const warm = lpOf(inst);
          warm.solve(10_000);
          for (const [changes, r1, r2] of rounds) {
            warm.lo.fill(0, 0, n);
            warm.up.fill(1, 0, n);
            for (const [j, x] of changes) {
              if (n === 0) break;
              warm.lo[j % n] = x % 2;
              warm.up[j % n] = x === 2 ? 1 : x % 2; // 0: fixed at 0, 1: fixed at 1, 2: free
            }
            // Between kLo and kUp items: slack bounds [n - kUp, n - kLo].
            const kLo = r1 % (n + 1);
            const kUp = kLo + (r2 % (n + 1 - kLo));
            warm.lo[card] = n - kUp;
            warm.up[card] = n - kLo;
            const cold = lpOf(inst);
            cold.lo.set(warm.lo);
            cold.up.set(warm.up);
            const warmStatus = warm.solve(10_000);
            expect(warmStatus).toBe(cold.solve(10_000));
            if (warmStatus === "optimal") {
              const wz = measure(warm, inst.values);
              const cz = measure(cold, inst.values);
              expect(wz.violation).toBeLessThan(1e-7);
              expect(wz.z).toBeCloseTo(cz.z, 5);
            }
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it("loads a basis saved without its inverse the same, to the bit, every time; norms stay exact", () => {
    /** The solver's state after a solve, for bitwise comparison (Object.is on every number). */
    const state = (lp: DualSimplex) => ({
      head: Array.from(lp.head),
      xB: Array.from(lp.xB),
      y: Array.from(lp.y),
      d: Array.from(lp.d),
      binv: Array.from(lp.binv),
      // pivots left before the next rebuild of the inverse: part of the state to the bit
      sinceInvert: lp.saveBasis(false).sinceInvert,
    });
    /** Every norm not flagged stale is the sum of its row's squares, in increasing order. */
    const normsExact = (lp: DualSimplex): boolean => {
      for (let i = 0; i < lp.m; i++) {
        if (lp.stale[i] === 1) continue;
        let s = 0;
        for (let k = 0; k < lp.m; k++) {
          const b = lp.binv[i * lp.m + k] as number;
          s += b * b;
        }
        if (!Object.is(s, lp.norm[i])) return false;
      }
      return true;
    };
    fc.assert(
      fc.property(
        fc.oneof(mkpInstance(15, 5), licenseInstance(24, 8, 6)).map(withCardinality),
        boundsArb,
        boundsArb,
        (inst, first, second) => {
          const n = inst.values.length;
          const setBounds = (lp: DualSimplex, changes: readonly (readonly [number, number])[]) =>
            boundsOf(lp, n, changes);
          const lp = lpOf(inst);
          setBounds(lp, first);
          lp.solve(10_000);
          expect(normsExact(lp)).toBe(true);
          const saved = lp.saveBasis(false);
          const withInverse = lp.saveBasis(true);
          const runs: ReturnType<typeof state>[] = [];
          for (let t = 0; t < 3; t++) {
            // Elsewhere in between (another basis), then the saved one (rebuilt, then kept).
            lp.loadBasis(withInverse);
            expect(normsExact(lp)).toBe(true);
            setBounds(lp, second);
            lp.solve(10_000);
            expect(normsExact(lp)).toBe(true);
            lp.loadBasis(saved);
            setBounds(lp, second);
            lp.solve(10_000);
            expect(normsExact(lp)).toBe(true);
            runs.push(state(lp));
          }
          const fresh = lpOf(inst);
          fresh.loadBasis(saved);
          setBounds(fresh, second);
          fresh.solve(10_000);
          for (const run of runs) expect(run).toEqual(state(fresh));
        },
      ),
      { numRuns: 150 },
    );
  });

  it("rebuilds the inverse every 100 pivots along a chain of re-solves", () => {
    // Round-off drift is cut by rebuilding the inverse after REINVERT_EVERY = 100 pivots; the
    // count goes on across solves (the search re-solves one LP node after node), so along a
    // chain with no basis loaded it is the pivots made so far, modulo 100. Long chains of
    // bound changes on the larger LPs pass 100 pivots (checked below: some of them must).
    let long = 0;
    fc.assert(
      fc.property(
        fc
          .oneof(mkpInstance(40, 10), licenseInstance(60, 12, 10))
          .filter((inst) => inst.values.length >= 20)
          .map(withCardinality),
        fc.array(boundsArb, { minLength: 80, maxLength: 160 }),
        (inst, chain) => {
          const n = inst.values.length;
          const lp = lpOf(inst);
          for (const changes of chain) {
            boundsOf(lp, n, changes);
            lp.solve(10_000);
            expect(lp.saveBasis(false).sinceInvert).toBe(lp.pivots % 100);
          }
          if (lp.pivots >= 100) long++;
        },
      ),
      { numRuns: 80 },
    );
    expect(long).toBeGreaterThanOrEqual(3); // about a fifth of the chains pass 100 pivots
  });
});
