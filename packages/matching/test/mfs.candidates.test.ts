import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEFAULT_SEARCH, type SearchOptions } from "../src/bidi.js";
import { LabelHeap } from "../src/candidates.js";
import type { ExactMatching, MatchingInput } from "../src/index.js";
import { exactSolve } from "../src/mfs.js";
import { assertCertificate } from "./certificate.js";
import { assertValidMatching, prng } from "./oracle.js";

// The candidate lists of mfs's one-sided searches (src/candidates.ts) are a shortcut that must
// not change a single bit of the result: same pairs, same potentials, same dummy costs, with or
// without them, however short the lists (short lists force rows to be read in full, in an order
// that differs from plain scans, which is where ties would show a difference).

/** Everything a result holds, as plain arrays, -0 kept apart from 0. */
const bits = (r: ExactMatching): unknown[] => {
  const f = (a: ArrayLike<number>) => Array.from(a, (x) => (Object.is(x, -0) ? "-0" : x));
  const s = r.state;
  return [
    f(r.rowToCol),
    f(r.colToRow),
    r.size,
    r.weight,
    s.transposed,
    s.scale,
    f(s.rowPotential),
    f(s.colPotential),
    f(s.dummyCost),
    f(s.assignment),
    f(s.pairWeight),
  ];
};

const plain: SearchOptions = { ...DEFAULT_SEARCH, candidates: 0 };
const always = (candidates: number): SearchOptions => ({
  ...DEFAULT_SEARCH,
  candidates,
  candidateGates: false,
});

/**
 * Matrices up to 40 x 40: integer weights from few levels (many ties), or uniform ones, a
 * random share of ineligible pairs, any shape, at magnitudes from subnormal to near the largest
 * double (the rounding margin of the bounds scales with them).
 */
const matrices: fc.Arbitrary<MatchingInput> = fc
  .record({
    rows: fc.integer({ min: 1, max: 40 }),
    cols: fc.integer({ min: 1, max: 40 }),
    density: fc.constantFrom(1, 0.9, 0.5, 0.15),
    levels: fc.constantFrom(1, 2, 3, 10, 0), // 0: uniform in (0, 1]
    // Every weight times this: subnormal, tiny, plain, huge (scaled by mfs), near the limit.
    magnitude: fc.constantFrom(2 ** -1060, 2 ** -600, 1, 1, 1, 2 ** 600, 2 ** 1000),
    seed: fc.integer(),
  })
  .map(({ rows, cols, density, levels, magnitude, seed }) => {
    const rand = prng(seed);
    const weights = new Float64Array(rows * cols);
    for (let k = 0; k < weights.length; k++) {
      if (rand() >= density) continue;
      weights[k] = magnitude * (levels === 0 ? 1 - rand() : 1 + Math.floor(rand() * levels));
    }
    return { rows, cols, weights };
  });

describe("mfs with candidate lists", () => {
  it("gives the same result to the bit as plain scans, for lists of 1 to 16 columns", () => {
    fc.assert(
      fc.property(matrices, fc.constantFrom(1, 2, 3, 16), (matrix, k) => {
        const reference = exactSolve(matrix, plain);
        const r = exactSolve(matrix, always(k));
        expect(bits(r)).toEqual(bits(reference));
        assertValidMatching(matrix, r);
        assertCertificate(matrix, r);
      }),
      { numRuns: 5000 },
    );
  });

  it("keeps, for a column two rows give the same label, the row scanned first (sparse ties)", () => {
    // Where the order of full reads differs from plain scans most: few levels, few eligible
    // pairs, lists of one to three columns.
    const sparseTies = fc
      .record({
        rows: fc.integer({ min: 20, max: 40 }),
        cols: fc.integer({ min: 20, max: 40 }),
        levels: fc.integer({ min: 1, max: 3 }),
        seed: fc.integer(),
      })
      .map(({ rows, cols, levels, seed }) => {
        const rand = prng(seed);
        const weights = new Float64Array(rows * cols);
        for (let k = 0; k < weights.length; k++) {
          if (rand() < 0.15) weights[k] = 1 + Math.floor(rand() * levels);
        }
        return { rows, cols, weights };
      });
    fc.assert(
      fc.property(sparseTies, fc.constantFrom(1, 2, 3), (matrix, k) => {
        expect(bits(exactSolve(matrix, always(k)))).toEqual(bits(exactSolve(matrix, plain)));
      }),
      { numRuns: 5000 },
    );
  });

  it("gives the same result as plain scans on 200 x 200 uniform weights, with and without the gates", () => {
    // Large enough for long searches and lists that are reused across searches.
    for (const seed of [11, 12]) {
      const rand = prng(seed);
      const weights = new Float64Array(200 * 200);
      for (let k = 0; k < weights.length; k++) weights[k] = 1 - rand();
      const matrix = { rows: 200, cols: 200, weights };
      const reference = bits(exactSolve(matrix, plain));
      expect(bits(exactSolve(matrix, DEFAULT_SEARCH))).toEqual(reference);
      expect(bits(exactSolve(matrix, always(4)))).toEqual(reference);
    }
  });
});

describe("mfs's gates on the lists", () => {
  // Convergent scheduling's plans (jobs x machines, more jobs than machines, so transposed):
  // about a third of the pairs eligible, and a job's weight mostly the job's own (deadline,
  // wait) plus a smaller share from the machine, so every machine ranks the jobs alike. With
  // half the columns free the searches still scan about ten rows each, and the lists are taken
  // on that evidence (`mfs.ts`, LONG_SEARCH_ROWS) before the free columns predict long
  // searches, then dropped for fresh ones when they do.
  const farmLike: fc.Arbitrary<MatchingInput> = fc
    .record({
      machines: fc.integer({ min: 20, max: 60 }),
      extraJobs: fc.integer({ min: 0, max: 80 }),
      eligible: fc.constantFrom(0.33, 0.5, 0.9),
      spread: fc.constantFrom(0, 5, 40), // the machine's share
      integer: fc.boolean(),
      seed: fc.integer(),
    })
    .map(({ machines, extraJobs, eligible, spread, integer, seed }) => {
      const rand = prng(seed);
      const jobs = machines + extraJobs;
      const weights = new Float64Array(jobs * machines);
      for (let i = 0; i < jobs; i++) {
        const own = 7 + 400 * rand();
        for (let j = 0; j < machines; j++) {
          if (rand() >= eligible) continue;
          const w = own + spread * rand();
          weights[i * machines + j] = integer ? Math.ceil(w) : w;
        }
      }
      return { rows: jobs, cols: machines, weights };
    });

  it("give the same result to the bit as plain scans where every row ranks the columns alike", () => {
    fc.assert(
      fc.property(farmLike, (matrix) => {
        const r = exactSolve(matrix, DEFAULT_SEARCH);
        expect(bits(r)).toEqual(bits(exactSolve(matrix, plain)));
        assertCertificate(matrix, r);
      }),
      { numRuns: 400 },
    );
  });
});

describe("LabelHeap", () => {
  it("pops in increasing (label, column) order and collects every live entry at the smallest label", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ key: fc.integer({ min: 0, max: 5 }), col: fc.integer({ min: 0, max: 30 }) }),
          {
            maxLength: 200,
          },
        ),
        (entries) => {
          const heap = new LabelHeap(4); // grows
          const label = new Float64Array(31).fill(Number.POSITIVE_INFINITY);
          // As the searches push: only a label below the column's current one.
          const pushed = entries.filter(({ key, col }) => {
            if (!(key < label[col]!)) return false;
            heap.push(key, col);
            label[col] = key;
            return true;
          });
          const sorted = [...pushed].sort((a, b) => a.key - b.key || a.col - b.col);
          if (heap.size > 0) {
            const low = heap.keys[0]!;
            expect(low).toBe(sorted[0]!.key);
            const out = new Int32Array(entries.length);
            const found = Array.from(out.subarray(0, heap.collectMin(low, label, out))).sort(
              (a, b) => a - b,
            );
            const live = [
              ...new Set(
                sorted.filter((e) => e.key === low && label[e.col] === low).map((e) => e.col),
              ),
            ];
            expect(found).toEqual(live.sort((a, b) => a - b));
          }
          const popped: [number, number][] = [];
          while (heap.size > 0) {
            popped.push([heap.keys[0]!, heap.cols[0]!]);
            heap.pop();
          }
          expect(popped).toEqual(sorted.map((e) => [e.key, e.col]));
        },
      ),
      { numRuns: 300 },
    );
  });
});
