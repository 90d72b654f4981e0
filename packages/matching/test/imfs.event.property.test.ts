import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cutCycles, DEFAULT_SEARCH, type SearchOptions } from "../src/bidi.js";
import { incrementalSolve } from "../src/imfs.js";
import { type ExactMatching, type ImfsOptions, imfs, mfs } from "../src/index.js";
import { assertCertificate } from "./certificate.js";
import { assertValidMatching, maxCardinality, prng } from "./oracle.js";

/**
 * `imfs` after ONE scheduling event (a row or a column added, removed or changed), the case the
 * bidirectional search (`src/bidi.ts`) serves: on a plan with no free column, adding a row (or
 * removing a column) needs one search to a new dummy, removing a row (or adding a column) one
 * repair of a free column, changing a row (or a column) one search from the row to the column it
 * left. Each result is compared with `mfs` on the same matrix and its certificate is checked
 * independently, with and without the change hint, and with the search forced to each side
 * (the tuning changes the order of the steps, never the optimum).
 */

type Kind = "addRow" | "removeRow" | "addCol" | "removeCol" | "changeRow" | "changeCol";
const KINDS: Kind[] = ["addRow", "removeRow", "addCol", "removeCol", "changeRow", "changeCol"];

interface Grid {
  rows: number;
  cols: number;
  w: number[]; // row-major
}

const toMatrix = (g: Grid) => ({ rows: g.rows, cols: g.cols, weights: Float64Array.from(g.w) });

/**
 * The grid after one event at index `at`, with the origins (`options`) and the truthful change
 * hint (`hint`: the changed line, or nothing).
 */
function oneEvent(
  g: Grid,
  kind: Kind,
  at: number,
  fresh: () => number,
): { next: Grid; options: ImfsOptions; hint: ImfsOptions } | undefined {
  const { rows, cols, w } = g;
  if (kind === "changeRow" || kind === "changeCol") {
    const length = kind === "changeRow" ? rows : cols;
    if (length === 0) return undefined;
    const a = at % length;
    const next = { rows, cols, w: w.slice() };
    if (kind === "changeRow") for (let j = 0; j < cols; j++) next.w[a * cols + j] = fresh();
    else for (let i = 0; i < rows; i++) next.w[i * cols + a] = fresh();
    const hint = kind === "changeRow" ? { changedRows: [a] } : { changedCols: [a] };
    return { next, options: {}, hint };
  }
  const hint = { changedRows: [] };
  const ids = (length: number) => Array.from({ length }, (_, k) => k);
  if (kind === "addRow") {
    const a = at % (rows + 1);
    const line = Array.from({ length: cols }, fresh);
    const next = {
      rows: rows + 1,
      cols,
      w: [...w.slice(0, a * cols), ...line, ...w.slice(a * cols)],
    };
    const rowOrigin = ids(rows + 1).map((k) => (k < a ? k : k === a ? -1 : k - 1));
    return { next, options: { rowOrigin }, hint };
  }
  if (kind === "removeRow") {
    if (rows === 0) return undefined;
    const a = at % rows;
    const next = { rows: rows - 1, cols, w: [...w.slice(0, a * cols), ...w.slice((a + 1) * cols)] };
    const rowOrigin = ids(rows - 1).map((k) => (k < a ? k : k + 1));
    return { next, options: { rowOrigin }, hint };
  }
  if (kind === "addCol") {
    const a = at % (cols + 1);
    const out: number[] = [];
    for (let i = 0; i < rows; i++) {
      const row = w.slice(i * cols, (i + 1) * cols);
      row.splice(a, 0, fresh());
      out.push(...row);
    }
    const colOrigin = ids(cols + 1).map((k) => (k < a ? k : k === a ? -1 : k - 1));
    return { next: { rows, cols: cols + 1, w: out }, options: { colOrigin }, hint };
  }
  if (cols === 0) return undefined;
  const a = at % cols;
  const out: number[] = [];
  for (let i = 0; i < rows; i++) {
    const row = w.slice(i * cols, (i + 1) * cols);
    row.splice(a, 1);
    out.push(...row);
  }
  const colOrigin = ids(cols - 1).map((k) => (k < a ? k : k + 1));
  return { next: { rows, cols: cols - 1, w: out }, options: { colOrigin }, hint };
}

/** Random weights: integer levels (many ties) or fractions, a share of ineligible entries. */
function weightSource(seed: number, levels: number, ineligible: number): () => number {
  const rand = prng(seed);
  return () => {
    if (rand() < ineligible) return rand() < 0.5 ? 0 : -1;
    return levels > 0 ? 1 + Math.floor(rand() * levels) : rand() * 10 + 1e-3;
  };
}

function checkExact(g: Grid, result: ExactMatching, magnitude: number): void {
  const matrix = toMatrix(g);
  const fresh = mfs(matrix);
  assertValidMatching(matrix, result);
  expect(result.size).toBe(fresh.size);
  expect(result.size).toBe(maxCardinality(matrix));
  expect(Math.abs(result.weight - fresh.weight)).toBeLessThanOrEqual(
    1e-9 * Math.max(1, magnitude * g.rows),
  );
  assertCertificate(matrix, result, magnitude);
}

/**
 * Search tunings: backward whenever possible and both-ended even with many free columns; the
 * default; forward first; one-sided whenever a column is free.
 */
const TUNINGS: SearchOptions[] = [
  { ...DEFAULT_SEARCH, backwardCost: 0, copiedBackwardCost: 0, maxFreeTargets: 1e9 },
  DEFAULT_SEARCH,
  { ...DEFAULT_SEARCH, backwardCost: 1e9, copiedBackwardCost: 1e9, maxFreeTargets: 1e9 },
  { ...DEFAULT_SEARCH, backwardCost: 3, copiedBackwardCost: 3, maxFreeTargets: 0 },
];

/** `imfs` with a given search tuning. */
const imfsWith = (
  tuning: SearchOptions,
  matrix: ReturnType<typeof toMatrix>,
  previous: ExactMatching,
  options: ImfsOptions,
): ExactMatching => incrementalSolve(matrix, previous, options, tuning);

describe("imfs after one event equals mfs (bidirectional search)", () => {
  it("every event kind, small matrices with ties, ineligible pairs and cardinality changes", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 8 }),
        fc.integer({ min: 0, max: 8 }),
        fc.integer(),
        fc.integer({ min: 0, max: 4 }),
        fc.constantFrom(0, 0.2, 0.5, 0.8),
        fc.constantFrom(...KINDS),
        fc.nat(),
        fc.boolean(),
        fc.constantFrom(...TUNINGS),
        (rows, cols, seed, levels, ineligible, kind, at, hint, tuning) => {
          const fresh = weightSource(seed, levels, ineligible);
          const g = { rows, cols, w: Array.from({ length: rows * cols }, fresh) };
          const plan = mfs(toMatrix(g));
          const event = oneEvent(g, kind, at, fresh);
          if (event === undefined) return;
          const options = hint
            ? { ...event.options, ...event.hint, verifyHint: toMatrix(g) }
            : event.options;
          const result = imfsWith(tuning, toMatrix(event.next), plan, options);
          checkExact(event.next, result, 11);
        },
      ),
      { numRuns: 1500 },
    );
  });

  it("full square plans of 10 to 40 rows (no free column: the search to a new dummy, to the freed column, and the column repair)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 10, max: 40 }),
        fc.integer(),
        fc.constantFrom(0, 3, 50),
        fc.constantFrom(0, 0.3),
        fc.constantFrom(...KINDS),
        fc.nat(),
        fc.constantFrom(...TUNINGS),
        (n, seed, levels, ineligible, kind, at, tuning) => {
          const fresh = weightSource(seed, levels, ineligible);
          const g = { rows: n, cols: n, w: Array.from({ length: n * n }, fresh) };
          const plan = mfs(toMatrix(g));
          const event = oneEvent(g, kind, at, fresh);
          if (event === undefined) return;
          const result = imfsWith(tuning, toMatrix(event.next), plan, {
            ...event.options,
            ...event.hint,
          });
          checkExact(event.next, result, 51);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("chains of single events with the hint stay exact (dummies accumulate, then are released)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 12 }),
        fc.integer(),
        fc.constantFrom(0, 2, 9),
        fc.array(fc.tuple(fc.constantFrom(...KINDS), fc.nat()), { minLength: 1, maxLength: 12 }),
        fc.constantFrom(...TUNINGS),
        (n, seed, levels, events, tuning) => {
          const fresh = weightSource(seed, levels, 0.25);
          let g: Grid = { rows: n, cols: n, w: Array.from({ length: n * n }, fresh) };
          let plan = mfs(toMatrix(g));
          for (const [kind, at] of events) {
            const event = oneEvent(g, kind, at, fresh);
            if (event === undefined) continue;
            plan = imfsWith(tuning, toMatrix(event.next), plan, {
              ...event.options,
              ...event.hint,
              verifyHint: toMatrix(g),
            });
            g = event.next;
            checkExact(g, plan, 11);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it("plans with unmatched rows: a row with no eligible pair, a stronger row, a column that lets a row back in", () => {
    // Column 2 is eligible for nobody and row 2 can only use column 0: at most 2 pairs, and the
    // best leaves row 2 unmatched (5 + 5 = 10), so the plan starts with a dummy.
    const g: Grid = { rows: 3, cols: 3, w: [5, 4, 0, 4, 5, 0, 3, 0, 0] };
    const plan = mfs(toMatrix(g));
    expect([plan.size, plan.weight]).toEqual([2, 10]);
    for (const tuning of TUNINGS) {
      const imfs = (matrix: ReturnType<typeof toMatrix>, p: ExactMatching, o: ImfsOptions) =>
        imfsWith(tuning, matrix, p, o);
      // A job with no eligible machine arrives: it stays unmatched.
      const none = { rows: 4, cols: 3, w: [...g.w, 0, 0, 0] };
      const a = imfs(toMatrix(none), plan, { changedRows: [] });
      checkExact(none, a, 5);
      expect(a.rowToCol[3]).toBe(-1);
      // A job that beats everyone on column 0 arrives: row 0 is pushed out (9 + 5).
      const strong = { rows: 4, cols: 3, w: [...g.w, 9, 0, 0] };
      const b = imfs(toMatrix(strong), plan, { changedRows: [] });
      checkExact(strong, b, 9);
      expect([b.size, b.weight]).toEqual([2, 14]);
      // Then it leaves again: back to the first plan's weight.
      const back = imfs(toMatrix(g), b, { rowOrigin: [0, 1, 2], changedRows: [] });
      checkExact(g, back, 9);
      expect([back.size, back.weight]).toEqual([2, 10]);
      // A machine that row 2 (on a dummy) can use arrives: cardinality grows to 3.
      const wider = { rows: 3, cols: 4, w: [5, 4, 0, 0, 4, 5, 0, 0, 3, 0, 0, 2] };
      const c = imfs(toMatrix(wider), plan, { changedRows: [] });
      checkExact(wider, c, 5);
      expect([c.size, c.weight]).toEqual([3, 12]);
    }
  });
});

describe("imfs after one event is deterministic", () => {
  it("same plan and event: the same bytes (matching and state), and the plan is not modified", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 5, max: 25 }),
        fc.integer(),
        fc.constantFrom(0, 2),
        fc.constantFrom(...KINDS),
        fc.nat(),
        (n, seed, levels, kind, at) => {
          const fresh = weightSource(seed, levels, 0.3);
          const g = { rows: n, cols: n, w: Array.from({ length: n * n }, fresh) };
          const plan = mfs(toMatrix(g));
          const before = JSON.stringify(plan, (_k, x) =>
            ArrayBuffer.isView(x) ? Array.from(x as Float64Array) : x,
          );
          const event = oneEvent(g, kind, at, fresh);
          if (event === undefined) return;
          const options = { ...event.options, ...event.hint };
          const a = imfs(toMatrix(event.next), plan, options);
          const b = imfs(toMatrix(event.next), plan, options);
          const bytes = (r: ExactMatching) =>
            JSON.stringify(r, (_k, x) =>
              ArrayBuffer.isView(x) ? Array.from(x as Float64Array) : x,
            );
          expect(bytes(a)).toBe(bytes(b));
          expect(
            JSON.stringify(plan, (_k, x) =>
              ArrayBuffer.isView(x) ? Array.from(x as Float64Array) : x,
            ),
          ).toBe(before);
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe("cutCycles", () => {
  it("drops the moves between two occurrences of a row", () => {
    // r0 -> c5, r1 -> c6, r2 -> c7, r1 -> c8, r3 -> T(9): r1 occurs twice.
    const rows = [0, 1, 2, 1, 3];
    const cols = [5, 6, 7, 8, 9];
    const len = cutCycles(rows, cols, 4);
    expect(rows.slice(0, len)).toEqual([0, 1, 3]);
    expect(cols.slice(0, len)).toEqual([5, 8, 9]);
  });

  it("leaves a simple walk alone and keeps every row at most once", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 6 }), { maxLength: 20 }), (walk) => {
        const rows = walk.slice();
        const cols = walk.map((_, q) => 100 + q);
        const len = cutCycles(rows, cols, 7);
        const kept = rows.slice(0, len);
        expect(new Set(kept).size).toBe(len);
        if (new Set(walk).size === walk.length) expect(kept).toEqual(walk);
        // Each kept row keeps its last move, and the walk ends with the original last move.
        for (let q = 0; q < len; q++) expect(cols[q]).toBe(100 + walk.lastIndexOf(rows[q]!));
        if (walk.length > 0) expect(cols[len - 1]).toBe(100 + walk.length - 1);
      }),
    );
  });

  it("leaves its work array all -1 again, so that one array serves every walk of a solve", () => {
    const at = new Int32Array(7).fill(-1);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 6 }), { maxLength: 20 }), (walk) => {
        const rows = walk.slice();
        const cols = walk.map((_, q) => 100 + q);
        const fresh = walk.slice();
        const freshCols = cols.slice();
        // The same cut with the shared array as with a fresh one, and the array reset after.
        const len = cutCycles(rows, cols, 7, at);
        expect(len).toBe(cutCycles(fresh, freshCols, 7));
        expect([rows.slice(0, len), cols.slice(0, len)]).toEqual([
          fresh.slice(0, len),
          freshCols.slice(0, len),
        ]);
        expect(Array.from(at)).toEqual([-1, -1, -1, -1, -1, -1, -1]);
      }),
    );
  });
});
