import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEFAULT_SEARCH, type SearchOptions } from "../src/bidi.js";
import { LabelHeap } from "../src/candidates.js";
import { scanWeights, TIGHT_CAP } from "../src/cost.js";
import { imfs } from "../src/imfs.js";
import type { ExactMatching, MatchingInput } from "../src/index.js";
import { jvInit } from "../src/init.js";
import { exactSolve, mfs } from "../src/mfs.js";
import { SolverState } from "../src/solver-state.js";
import { assertCertificate } from "./certificate.js";
import { assertValidMatching, maxCardinality, prng } from "./oracle.js";

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

/**
 * Rows that all rank the columns alike (a column's own term, and a small one of the row's), few
 * weight levels or uniform ones, some pairs ineligible: the bidding wars of `mfs`'s start.
 */
const contestedMatrices: fc.Arbitrary<MatchingInput> = fc
  .record({
    rows: fc.integer({ min: 2, max: 30 }),
    extraCols: fc.integer({ min: 0, max: 40 }),
    eligible: fc.constantFrom(0.33, 0.6, 1),
    levels: fc.constantFrom(0, 0, 2, 5), // 0: uniform
    spread: fc.constantFrom(0.5, 4, 40), // the row's own share (small: rows rank alike)
    seed: fc.integer(),
  })
  .map(({ rows, extraCols, eligible, levels, spread, seed }) => {
    const rand = prng(seed);
    const cols = rows + extraCols;
    const colTerm = Array.from({ length: cols }, () =>
      levels === 0 ? 100 * rand() : 10 * Math.floor(rand() * levels),
    );
    const weights = new Float64Array(rows * cols);
    for (let i = 0; i < rows; i++) {
      for (let j = 0; j < cols; j++) {
        if (rand() >= eligible) continue;
        const own = levels === 0 ? spread * rand() : Math.floor(rand() * Math.min(levels, spread));
        weights[i * cols + j] = 1 + colTerm[j]! + own;
      }
    }
    return { rows, cols, weights };
  });

describe("augmenting row reduction through lists (the start of mfs)", () => {
  // Rows that all want the same columns bid for them again and again; from its second visit a
  // row reads its two best columns from a list (src/init.ts). The start must be the same to the
  // bit as with full reads: same pairs, same potentials. Few weight levels make ties at the
  // lists' bounds (where a list must give up) and between the two best (lowest column first).
  const start = (matrix: MatchingInput, listLength: number): unknown[] => {
    const { rows: n, cols: m, weights } = matrix;
    const engine = new SolverState(n, m, Float64Array.from(weights), {
      scale: 1,
      rowStride: m,
      colStride: 1,
    });
    jvInit(engine, undefined, undefined, listLength);
    const f = (a: ArrayLike<number>) => Array.from(a, (x) => (Object.is(x, -0) ? "-0" : x));
    return [f(engine.rowToCol), f(engine.colToRow.subarray(0, m)), f(engine.u), f(engine.v)];
  };

  it("gives the same start to the bit as full reads, for lists of 2 to 8 columns", () => {
    fc.assert(
      fc.property(contestedMatrices, fc.constantFrom(2, 3, 8), (matrix, k) => {
        expect(start(matrix, k)).toEqual(start(matrix, 0));
      }),
      { numRuns: 3000 },
    );
  });
});

describe("the tight pairs found while scanning the weights (the start of mfs)", () => {
  // Without column reduction every potential is 0 when mfs's start looks for tight pairs, so a
  // row's tight columns are its eligible columns of largest weight: scanWeights finds them in
  // its pass over the matrix (src/cost.ts). They must be exactly those the start's own pass
  // finds: the same columns, in increasing index, at most TIGHT_CAP of them.
  const reference = (matrix: MatchingInput, transposed: boolean) => {
    const { rows, cols, weights } = matrix;
    const n = transposed ? cols : rows;
    const m = transposed ? rows : cols;
    const out: number[][] = [];
    for (let i = 0; i < n; i++) {
      const at = (j: number) => weights[transposed ? j * cols + i : i * cols + j]!;
      let high = 0;
      for (let j = 0; j < m; j++) if (at(j) > high) high = at(j);
      const tight: number[] = [];
      for (let j = 0; j < m; j++) if (high > 0 && at(j) === high) tight.push(j);
      out.push(tight.slice(0, TIGHT_CAP));
    }
    return out;
  };
  const found = (matrix: MatchingInput, transposed: boolean) => {
    const { tightCols, tightCount } = scanWeights("test", matrix, transposed, false);
    if (tightCols === undefined || tightCount === undefined) throw new Error("none found");
    return Array.from(tightCount, (count, i) =>
      Array.from(tightCols.subarray(i * TIGHT_CAP, i * TIGHT_CAP + count)),
    );
  };

  it("are each row's eligible columns of largest weight, in increasing index, at most TIGHT_CAP", () => {
    fc.assert(
      fc.property(
        fc.record({
          rows: fc.integer({ min: 1, max: 50 }),
          cols: fc.integer({ min: 1, max: 50 }),
          levels: fc.constantFrom(1, 2, 5, 0), // 1: every eligible weight ties (caps at 32)
          density: fc.constantFrom(1, 0.5, 0.1),
          negative: fc.boolean(), // ineligible entries below 0 (and -Infinity) rather than 0
          seed: fc.integer(),
        }),
        fc.boolean(),
        ({ rows, cols, levels, density, negative, seed }, transposed) => {
          const rand = prng(seed);
          const weights = new Float64Array(rows * cols);
          for (let k = 0; k < weights.length; k++) {
            if (rand() < density) {
              weights[k] = levels === 0 ? 1 - rand() : 1 + Math.floor(rand() * levels);
            } else if (negative) {
              weights[k] = rand() < 0.5 ? -rand() : Number.NEGATIVE_INFINITY;
            }
          }
          const matrix = { rows, cols, weights };
          expect(found(matrix, transposed)).toEqual(reference(matrix, transposed));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("give mfs the same start as the start's own pass", () => {
    fc.assert(
      fc.property(contestedMatrices, (matrix) => {
        const { rows: n, cols: m } = matrix;
        const { W, tightCols, tightCount } = scanWeights("test", matrix, false, false);
        const run = (withKnown: boolean) => {
          const engine = new SolverState(n, m, W, { scale: 1, rowStride: m, colStride: 1 });
          if (withKnown) jvInit(engine, undefined, undefined, 8, tightCols, tightCount);
          else jvInit(engine, undefined, undefined, 8);
          return [Array.from(engine.rowToCol), Array.from(engine.u), Array.from(engine.v)];
        };
        expect(run(true)).toEqual(run(false));
      }),
      { numRuns: 1000 },
    );
  });
});

describe("mfs's transposed copy (kept from one solve to the next)", () => {
  it("holds only the current matrix: a sparse solve after a dense one is still exact", () => {
    const dense = new Float64Array(60 * 20).fill(5);
    for (const seed of [1, 2, 3]) {
      mfs({ rows: 60, cols: 20, weights: dense });
      const rand = prng(seed);
      const weights = new Float64Array(30 * 10);
      for (let k = 0; k < weights.length; k++) if (rand() < 0.15) weights[k] = 1 + rand();
      const matrix = { rows: 30, cols: 10, weights };
      const r = mfs(matrix);
      assertValidMatching(matrix, r);
      expect(r.size).toBe(maxCardinality(matrix));
      assertCertificate(matrix, r);
      // Same result however the kept copy was left: after a solve of another shape.
      mfs({ rows: 45, cols: 7, weights: new Float64Array(45 * 7).fill(2) });
      expect(bits(mfs(matrix))).toEqual(bits(r));
    }
  });

  it("is held by no result: a plan and imfs from its state are the same after other solves", () => {
    const rand = prng(7);
    const weights = new Float64Array(40 * 12);
    for (let k = 0; k < weights.length; k++) if (rand() < 0.4) weights[k] = 1 + rand();
    const matrix = { rows: 40, cols: 12, weights };
    const changed = { ...matrix, weights: weights.slice() };
    for (let j = 0; j < 12; j++) changed.weights[5 * 12 + j] = rand() < 0.5 ? 0 : 1 + rand();
    const expected = bits(imfs(changed, mfs(matrix), { changedRows: [5] }));
    const plan = mfs(matrix);
    const planBits = bits(plan);
    // Other transposed solves overwrite the kept copy before the plan's state is used.
    mfs({ rows: 40, cols: 12, weights: new Float64Array(40 * 12).fill(3) });
    mfs({ rows: 50, cols: 9, weights: new Float64Array(50 * 9).fill(1) });
    expect(bits(plan)).toEqual(planBits);
    expect(bits(imfs(changed, plan, { changedRows: [5] }))).toEqual(expected);
  });
  it("a tall matrix just over the kept copy's 2 MB (2^18 doubles) gets a copy of its own, after smaller ones", () => {
    // 1100 x 240 = 264,000 entries: more than the kept copy holds, so it is solved on a fresh
    // copy; the same matrix transposed (240 x 1100, read in place) is the same internal problem,
    // and gives the mirrored result and the same state (potentials included: a copy cut short
    // leaves the matching intact here but not the potentials of its last internal rows).
    const rand = prng(11);
    const rows = 1100;
    const cols = 240;
    const weights = new Float64Array(rows * cols);
    for (let k = 0; k < weights.length; k++) if (rand() < 0.7) weights[k] = 1 + rand();
    const wide = new Float64Array(rows * cols);
    for (let i = 0; i < rows; i++)
      for (let j = 0; j < cols; j++) wide[j * rows + i] = weights[i * cols + j]!;
    mfs({ rows: 300, cols: 200, weights: new Float64Array(300 * 200).fill(1) }); // a kept copy
    const tall = mfs({ rows, cols, weights });
    const flat = mfs({ rows: cols, cols: rows, weights: wide });
    expect(tall.state.transposed).toBe(true);
    expect([Array.from(tall.colToRow), tall.size, tall.weight]).toEqual([
      Array.from(flat.rowToCol),
      flat.size,
      flat.weight,
    ]);
    const state = (r: ExactMatching) =>
      [r.state.rowPotential, r.state.colPotential, r.state.dummyCost, r.state.assignment].map((a) =>
        Array.from(a),
      );
    expect(state(tall)).toEqual(state(flat));
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
