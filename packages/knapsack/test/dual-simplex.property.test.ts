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
});
