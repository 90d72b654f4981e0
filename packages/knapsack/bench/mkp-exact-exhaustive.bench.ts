/**
 * The exhaustive oracle check of mkpExact, too long for the unit suite (issue 23): every instance
 * with 3 items, 1-2 constraints, weights 0-2, capacities 0-3 and three value vectors (35 424
 * instances) is solved and compared with brute force; any mismatch throws before the timing.
 * The unit suite keeps a fast-check sample of the same space (test/mkp-exact.property.test.ts).
 */
import { bench, describe } from "vitest";
import { mkpExact } from "../src/index.js";
import { bruteForce, isFeasible } from "../test/helpers.js";

const VALUE_SETS = [
  [3, 2, 2],
  [1, 5, 4],
  [2, 2, 2],
];

/** Solves every instance of the space; returns how many were checked, throws on a mismatch. */
function sweep(): number {
  let checked = 0;
  for (const m of [1, 2]) {
    for (let code = 0; code < 3 ** (3 * m); code++) {
      const weights: number[][] = [];
      let x = code;
      for (let k = 0; k < m; k++) {
        const row: number[] = [];
        for (let i = 0; i < 3; i++) {
          row.push(x % 3);
          x = Math.floor(x / 3);
        }
        weights.push(row);
      }
      for (let capCode = 0; capCode < 4 ** m; capCode++) {
        const capacities = m === 1 ? [capCode] : [capCode % 4, Math.floor(capCode / 4)];
        for (const values of VALUE_SETS) {
          const inst = { values, weights, capacities };
          const r = mkpExact(inst);
          const best = bruteForce(inst).value;
          if (!r.optimal || !isFeasible(inst, r.items) || r.value !== best || r.bound !== best) {
            throw new Error(
              `mkpExact disagrees with brute force on ${JSON.stringify(inst)}: ${JSON.stringify(r)}, best ${best}`,
            );
          }
          checked++;
        }
      }
    }
  }
  return checked;
}

const checked = sweep();
if (checked !== 3 * (27 * 4 + 729 * 16)) throw new Error(`checked ${checked} instances`);
console.log(`mkpExact equals brute force on all ${checked} instances of the exhaustive space`);

describe("mkpExact, exhaustive small space", () => {
  bench(
    "every instance with 3 items, 1-2 constraints",
    () => {
      sweep();
    },
    { iterations: 1, time: 0 },
  );
});
