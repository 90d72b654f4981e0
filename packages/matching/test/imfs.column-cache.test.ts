import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEFAULT_SEARCH, type SearchOptions } from "../src/bidi.js";
import { ColumnCache, columnCopyOf, MAX_VERSIONS_BEHIND } from "../src/column-cache.js";
import { incrementalSolve } from "../src/imfs.js";
import { type ExactMatching, type ImfsOptions, imfs, mfs } from "../src/index.js";
import { assertCertificate } from "./certificate.js";
import { assertValidMatching } from "./oracle.js";

// The column copy (src/column-cache.ts) that a chain of hinted calls keeps from state to state:
// it must never change a result. `incrementalSolve(..., false)` is the same call without any
// copy (it reads the matrix itself).

/** The same result, byte for byte: pairs, weight and the whole state. */
function expectSame(a: ExactMatching, b: ExactMatching): void {
  const bytes = (r: ExactMatching) =>
    JSON.stringify([r.rowToCol, r.colToRow, r.size, r.weight, r.state], (_, x) =>
      ArrayBuffer.isView(x)
        ? Array.from(x as Float64Array, (v) => (Object.is(v, -0) ? "-0" : v))
        : x,
    );
  expect(bytes(a)).toBe(bytes(b));
}

/** One same-shape change: a row or a column gets new weights, or single entries change. */
type Change =
  | { kind: "row"; at: number; seed: number }
  | { kind: "col"; at: number; seed: number }
  | { kind: "set"; i: number; j: number; w: number };

const change: fc.Arbitrary<Change> = fc.oneof(
  fc.record({ kind: fc.constant("row" as const), at: fc.nat(), seed: fc.integer() }),
  fc.record({ kind: fc.constant("col" as const), at: fc.nat(), seed: fc.integer() }),
  fc.record({
    kind: fc.constant("set" as const),
    i: fc.nat(),
    j: fc.nat(),
    w: fc.integer({ min: -1, max: 9 }),
  }),
);

/** Seeded weight in {0 (ineligible), 1 .. levels} or, with `levels` 0, in (0, 1). */
function weight(seed: number, k: number, levels: number): number {
  const x = Math.sin(seed * 9301 + k * 49297) * 233280;
  const f = x - Math.floor(x);
  if (levels === 0) return f < 0.2 ? 0 : f;
  return f < 0.3 ? 0 : 1 + Math.floor(f * levels);
}

type Grid = { rows: number; cols: number; weights: Float64Array };

/** Applies `c` to a copy of `matrix`; returns it with a truthful hint. */
function applyChange(matrix: Grid, c: Change, levels: number): { next: Grid; hint: ImfsOptions } {
  const { rows, cols } = matrix;
  const weights = matrix.weights.slice();
  if (c.kind === "row") {
    const i = c.at % rows;
    for (let j = 0; j < cols; j++) weights[i * cols + j] = weight(c.seed, j, levels);
    return { next: { rows, cols, weights }, hint: { changedRows: [i] } };
  }
  if (c.kind === "col") {
    const j = c.at % cols;
    for (let i = 0; i < rows; i++) weights[i * cols + j] = weight(c.seed, i, levels);
    return { next: { rows, cols, weights }, hint: { changedCols: [j] } };
  }
  const i = c.i % rows;
  const j = c.j % cols;
  weights[i * cols + j] = c.w;
  return {
    next: { rows, cols, weights },
    hint: (i + j) % 2 === 0 ? { changedRows: [i] } : { changedCols: [j] },
  };
}

const TUNINGS: SearchOptions[] = [
  DEFAULT_SEARCH,
  { ...DEFAULT_SEARCH, backwardCost: 0, copiedBackwardCost: 0, maxFreeTargets: 1e9 }, // backward whenever possible: every column read
  { ...DEFAULT_SEARCH, backwardCost: 3, copiedBackwardCost: 3, maxFreeTargets: 0 },
  { ...DEFAULT_SEARCH, backwardCost: 1e9, copiedBackwardCost: 1e9, maxFreeTargets: 1e9 }, // forward only
];

describe("imfs column copy", () => {
  it("a chain of hinted calls returns exactly what calls without the copy return", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 1, max: 9 }),
        fc.integer(),
        fc.constantFrom(0, 2, 12),
        fc.array(change, { minLength: 1, maxLength: 12 }),
        fc.constantFrom(...TUNINGS),
        fc.boolean(),
        (rows, cols, seed, levels, changes, tuning, branchToo) => {
          let matrix: Grid = {
            rows,
            cols,
            weights: Float64Array.from({ length: rows * cols }, (_, k) => weight(seed, k, levels)),
          };
          let linear = mfs(matrix);
          let plain = mfs(matrix);
          for (const c of changes) {
            const { next, hint } = applyChange(matrix, c, levels);
            const without = incrementalSolve(next, plain, hint, tuning, false);
            // A second call from the same state (branching), first when asked: the first one
            // updates the copy, the second reads it with the changed lines patched.
            const other = branchToo ? incrementalSolve(next, linear, hint, tuning) : undefined;
            const withCopy = incrementalSolve(next, linear, hint, tuning);
            expectSame(withCopy, without);
            if (other !== undefined) expectSame(other, without);
            assertValidMatching(next, withCopy);
            const fresh = mfs(next);
            expect(withCopy.size).toBe(fresh.size);
            if (levels > 0) expect(withCopy.weight).toBe(fresh.weight);
            else expect(withCopy.weight).toBeCloseTo(fresh.weight, 9);
            assertCertificate(next, withCopy);
            linear = withCopy;
            plain = without;
            matrix = next;
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("one weights array changed in place between hinted calls gives what fresh arrays give", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 1, max: 9 }),
        fc.integer(),
        fc.constantFrom(0, 4),
        fc.array(change, { minLength: 1, maxLength: 12 }),
        (rows, cols, seed, levels, changes) => {
          let matrix: Grid = {
            rows,
            cols,
            weights: Float64Array.from({ length: rows * cols }, (_, k) => weight(seed, k, levels)),
          };
          // The loop's one array, changed in place; the reference chain gets a fresh array each
          // time.
          const inPlace: Grid = { rows, cols, weights: matrix.weights.slice() };
          let mine = mfs(inPlace);
          let fresh = mfs(matrix);
          for (const c of changes) {
            const { next, hint } = applyChange(matrix, c, levels);
            inPlace.weights.set(next.weights);
            mine = imfs(inPlace, mine, hint);
            fresh = imfs(next, fresh, hint);
            expectSame(mine, fresh);
            matrix = next;
          }
          const best = mfs(matrix).weight;
          if (levels > 0) expect(mine.weight).toBe(best);
          else expect(mine.weight).toBeCloseTo(best, 9);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("a chain on a larger plan (the copy filled over many calls) matches calls without it", () => {
    const rows = 60;
    const cols = 70;
    let matrix: Grid = {
      rows,
      cols,
      weights: Float64Array.from({ length: rows * cols }, (_, k) => weight(11, k, 0)),
    };
    let linear = mfs(matrix);
    let plain = mfs(matrix);
    for (let step = 0; step < 40; step++) {
      const c: Change =
        step % 2 === 0
          ? { kind: "col", at: (step * 7) % cols, seed: step }
          : { kind: "row", at: (step * 5) % rows, seed: step };
      const { next, hint } = applyChange(matrix, c, 0);
      const withCopy = imfs(next, linear, hint);
      const without = incrementalSolve(next, plain, hint, DEFAULT_SEARCH, false);
      expectSame(withCopy, without);
      linear = withCopy;
      plain = without;
      matrix = next;
    }
    expect(linear.weight).toBeCloseTo(mfs(matrix).weight, 9);
  });

  it("calls from older states of a chain (branching, up to and past the versions kept) return what calls without the copy return", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 1, max: 8 }),
        fc.integer(),
        fc.constantFrom(0, 3),
        fc.array(fc.tuple(change, fc.nat(), change), { minLength: 1, maxLength: 14 }),
        fc.constantFrom(...TUNINGS),
        (rows, cols, seed, levels, steps, tuning) => {
          let matrix: Grid = {
            rows,
            cols,
            weights: Float64Array.from({ length: rows * cols }, (_, k) => weight(seed, k, levels)),
          };
          // The chain: every state with its matrix (and the state computed without copies).
          const chain: { matrix: Grid; state: ExactMatching; plain: ExactMatching }[] = [];
          const first = mfs(matrix);
          chain.push({ matrix, state: first, plain: first });
          for (const [c, back, d] of steps) {
            // A branch from an older state (its own change, a hint relative to its matrix).
            const old = chain[chain.length - 1 - (back % chain.length)]!;
            const branch = applyChange(old.matrix, d, levels);
            expectSame(
              incrementalSolve(branch.next, old.state, branch.hint, tuning),
              incrementalSolve(branch.next, old.plain, branch.hint, tuning, false),
            );
            // The chain goes on from its newest state.
            const head = chain[chain.length - 1]!;
            const { next, hint } = applyChange(head.matrix, c, levels);
            const state = incrementalSolve(next, head.state, hint, tuning);
            const plain = incrementalSolve(next, head.plain, hint, tuning, false);
            expectSame(state, plain);
            matrix = next;
            chain.push({ matrix, state, plain });
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("an untruthful hint in one call does not change what calls from the states before it return", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 8 }),
        fc.integer({ min: 2, max: 8 }),
        fc.integer(),
        fc.array(change, { minLength: 1, maxLength: 6 }),
        fc.integer(),
        fc.nat(),
        change,
        fc.constantFrom(...TUNINGS),
        (rows, cols, seed, changes, lieSeed, back, d, tuning) => {
          let matrix: Grid = {
            rows,
            cols,
            weights: Float64Array.from({ length: rows * cols }, (_, k) => weight(seed, k, 3)),
          };
          const first = mfs(matrix);
          const chain = [{ matrix, state: first, plain: first }];
          for (const c of changes) {
            const head = chain[chain.length - 1]!;
            const { next, hint } = applyChange(head.matrix, c, 3);
            chain.push({
              matrix: next,
              state: incrementalSolve(next, head.state, hint, tuning),
              plain: incrementalSolve(next, head.plain, hint, tuning, false),
            });
            matrix = next;
          }
          // The newest state's call lies: every weight is new, the hint lists one row. Its
          // searches copy columns of its matrix.
          const lie = {
            rows,
            cols,
            weights: Float64Array.from({ length: rows * cols }, (_, k) => weight(lieSeed, k, 3)),
          };
          incrementalSolve(lie, chain[chain.length - 1]!.state, { changedRows: [0] }, tuning);
          // A truthful call from a state before the lie: as without any copy.
          const old = chain[chain.length - 1 - (back % chain.length)]!;
          const { next, hint } = applyChange(old.matrix, d, 3);
          expectSame(
            incrementalSolve(next, old.state, hint, tuning),
            incrementalSolve(next, old.plain, hint, tuning, false),
          );
        },
      ),
      { numRuns: 400 },
    );
  });

  it("a call that throws half-way (a NaN in a changed row) leaves the copy consistent", () => {
    const rows = 12;
    const cols = 12;
    const matrix: Grid = {
      rows,
      cols,
      weights: Float64Array.from({ length: rows * cols }, (_, k) => weight(5, k, 0)),
    };
    let state = mfs(matrix);
    let plain = state;
    let current = matrix;
    for (let step = 0; step < 6; step++) {
      const { next, hint } = applyChange(current, { kind: "col", at: step, seed: step }, 0);
      state = imfs(next, state, hint);
      plain = incrementalSolve(next, plain, hint, DEFAULT_SEARCH, false);
      current = next;
    }
    // From the newest state: a changed row with a NaN is refused after the copy was updated...
    // (Row 4's weights times 1000, NaN at its last entry: read as this matrix's, the eligible
    // entries would change the searches without making an ineligible pair.)
    const bad = { rows, cols, weights: current.weights.slice() };
    for (let j = 0; j < cols; j++) bad.weights[4 * cols + j]! *= 1000;
    bad.weights[4 * cols + 11] = Number.NaN;
    const badHint = { changedRows: [4] };
    expect(() => imfs(bad, state, badHint)).toThrow(/is NaN/);
    // ...and the same state is still answered exactly as without the copy.
    // (Columns first: the row the refused call wrote must not be read as this matrix's.)
    const changes: Change[] = Array.from({ length: cols }, (_, j) => ({
      kind: "col",
      at: j,
      seed: 50 + j,
    }));
    changes.push({ kind: "row", at: 4, seed: 7 });
    for (const c of changes) {
      const { next, hint } = applyChange(current, c, 0);
      expectSame(
        imfs(next, state, hint),
        incrementalSolve(next, plain, hint, DEFAULT_SEARCH, false),
      );
    }
  });

  it("an untruthful hint after an inherited copy still gives a matching of eligible pairs (kept unread pairs aside), and an unhinted call is exact again", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 7 }),
        fc.integer({ min: 1, max: 7 }),
        fc.integer(),
        fc.integer(),
        fc.array(fc.nat(), { maxLength: 2 }),
        fc.array(fc.nat(), { maxLength: 2 }),
        fc.constantFrom(...TUNINGS),
        (rows, cols, seed, otherSeed, rowsListed, colsListed, tuning) => {
          const first = {
            rows,
            cols,
            weights: Float64Array.from({ length: rows * cols }, (_, k) => weight(seed, k, 4)),
          };
          // A truthful chain of calls fills the copy with the columns of `first`...
          let plan = mfs(first);
          for (let j = 0; j < cols; j++) {
            plan = incrementalSolve(first, plan, { changedCols: [j] }, tuning);
          }
          // ...then an unrelated matrix of the same shape, with a (mostly false) promise.
          const matrix = {
            rows,
            cols,
            weights: Float64Array.from({ length: rows * cols }, (_, k) => weight(otherSeed, k, 4)),
          };
          const changedRows = rowsListed.map((k) => k % rows);
          const changedCols = colsListed.map((k) => k % cols);
          const lied = incrementalSolve(matrix, plan, { changedRows, changedCols }, tuning);
          // Kept pairs on unlisted lines count `first`'s weight; the others are eligible.
          assertValidMatching(matrix, lied, (i, j) =>
            plan.rowToCol[i] === j && !changedRows.includes(i) && !changedCols.includes(j)
              ? first.weights[i * cols + j]!
              : undefined,
          );
          const repaired = imfs(matrix, lied);
          const fresh = mfs(matrix);
          expect([repaired.size, repaired.weight]).toEqual([fresh.size, fresh.weight]);
          assertCertificate(matrix, repaired);
        },
      ),
      { numRuns: 400 },
    );
  });

  it("mfs hands the columns its two-sided searches read to the first imfs calls from its state", () => {
    // 100 x 100 weights in (0, 1) (a fifth ineligible): mfs's last rows are added by two-sided
    // searches, which read 11 columns backward here.
    const n = 100;
    const matrix: Grid = {
      rows: n,
      cols: n,
      weights: Float64Array.from({ length: n * n }, (_, k) => weight(1, k, 0)),
    };
    const plan = mfs(matrix);
    const handle = columnCopyOf(plan.state);
    expect(handle).toBeDefined();
    const { cache, version } = handle!;
    expect(version).toBe(1);
    expect(cache.version).toBe(1);
    const copied = Array.from(cache.builtAt).filter((v) => v === 1).length;
    expect(copied).toBeGreaterThan(0);
    expect(Array.from(cache.builtAt).every((v) => v === 0 || v === 1)).toBe(true);
    // The copy holds the plan's matrix in every column it built.
    for (let c = 0; c < n; c++) {
      if (cache.builtAt[c] === 0) continue;
      const col = cache.column(c);
      for (let i = 0; i < n; i++) expect(col[i]).toBe(matrix.weights[i * n + c]);
    }
    for (const c of [
      { kind: "row", at: 33, seed: 3 },
      { kind: "col", at: 33, seed: 4 },
    ] as const) {
      const { next, hint } = applyChange(matrix, c, 0);
      // The first call goes on with mfs's copy (the next version of it), and returns exactly
      // what the call without any copy returns; so does a second call from the plan's state,
      // which reads the columns mfs copied with the changed line patched.
      const plan = mfs(matrix);
      const cache = columnCopyOf(plan.state)!.cache;
      const first = imfs(next, plan, hint);
      expect(columnCopyOf(first.state)).toEqual({ cache, version: 2 });
      const without = incrementalSolve(next, plan, hint, DEFAULT_SEARCH, false);
      expectSame(first, without);
      expectSame(imfs(next, plan, hint), without);
      // A rebuilt state (a copy of the object) has none: its call starts a copy of its own.
      const rebuilt = { ...plan, state: { ...plan.state } };
      expect(columnCopyOf(rebuilt.state)).toBeUndefined();
      const fresh = imfs(next, rebuilt, hint);
      expectSame(fresh, without);
      expect(columnCopyOf(fresh.state)?.cache).not.toBe(cache);
    }
    // A transposed solve (more rows than columns) keeps none: imfs reads its columns
    // contiguously from the matrix.
    const tall: Grid = {
      rows: 110,
      cols: 100,
      weights: Float64Array.from({ length: 110 * 100 }, (_, k) => weight(1, k, 0)),
    };
    expect(columnCopyOf(mfs(tall).state)).toBeUndefined();
  });

  it("changedSince marks exactly the lines of the versions after the one asked, while the log holds them", () => {
    // The plain definition: after versions first .. newest, each changing some lines, the lines
    // changed after version s are the union of those of versions s + 1 .. newest; the log can
    // answer while s is at most MAX_VERSIONS_BEHIND versions behind the newest.
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1 }),
        fc.array(fc.tuple(fc.uniqueArray(fc.nat(5)), fc.uniqueArray(fc.nat(4))), {
          maxLength: 20,
        }),
        (start, versions) => {
          const cache = new ColumnCache(6, 5, start);
          for (const [rows, cols] of versions) cache.advance(rows, cols);
          const newest = start + versions.length;
          expect(cache.version).toBe(newest);
          for (let since = 0; since <= newest + 1; since++) {
            const rowFlag = new Uint8Array(6);
            const colFlag = new Uint8Array(5);
            const ok = cache.changedSince(since, rowFlag, colFlag);
            const answerable =
              since >= start && since <= newest && newest - since <= MAX_VERSIONS_BEHIND;
            expect(ok).toBe(answerable);
            const wantRows = new Uint8Array(6);
            const wantCols = new Uint8Array(5);
            if (answerable) {
              for (let v = since + 1; v <= newest; v++) {
                const [rows, cols] = versions[v - start - 1]!;
                for (const r of rows) wantRows[r] = 1;
                for (const c of cols) wantCols[c] = 1;
              }
            }
            expect([Array.from(rowFlag), Array.from(colFlag)]).toEqual([
              Array.from(wantRows),
              Array.from(wantCols),
            ]);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("a call from an older state reads the copy but never writes it, so the newest state's calls stay right", () => {
    const [, backward, , forward] = TUNINGS as [
      SearchOptions,
      SearchOptions,
      SearchOptions,
      SearchOptions,
    ];
    const n = 24;
    for (let seed = 1; seed <= 12; seed++) {
      const matrix: Grid = {
        rows: n,
        cols: n,
        weights: Float64Array.from({ length: n * n }, (_, k) => weight(seed, k, 0)),
      };
      const plan = mfs(matrix);
      // The newest state: a changed column, searched forward only (few columns copied).
      const one = applyChange(matrix, { kind: "col", at: seed, seed }, 0);
      const head = incrementalSolve(one.next, plan, one.hint, forward);
      const headPlain = incrementalSolve(one.next, plan, one.hint, forward, false);
      const cache = columnCopyOf(head.state)!.cache;
      const builtAt = Array.from(cache.builtAt);
      // A call from the plan's (older) state that reads every column backward.
      const branch = applyChange(matrix, { kind: "row", at: seed + 5, seed: seed + 1 }, 0);
      expectSame(
        incrementalSolve(branch.next, plan, branch.hint, backward),
        incrementalSolve(branch.next, plan, branch.hint, backward, false),
      );
      expect(Array.from(cache.builtAt)).toEqual(builtAt);
      // The chain goes on from the newest state, reading every column backward.
      const two = applyChange(one.next, { kind: "row", at: seed + 11, seed: seed + 2 }, 0);
      expectSame(
        incrementalSolve(two.next, head, two.hint, backward),
        incrementalSolve(two.next, headPlain, two.hint, backward, false),
      );
    }
  });
});
