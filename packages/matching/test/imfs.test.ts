import { InvalidInputError } from "@sched/errors";
import { describe, expect, it } from "vitest";
import { type ExactMatching, imfs, type MatchingInput, mfs } from "../src/index.js";
import { assertCertificate } from "./certificate.js";
import { matcherSpecs } from "./matcher-specs.js";
import { assertValidMatching, bruteForce } from "./oracle.js";

/** imfs on `matrix`, starting from mfs on a different matrix: the last row dropped, weights shifted. */
function imfsFromNeighbour(matrix: MatchingInput): ExactMatching {
  const { rows, cols, weights } = matrix ?? {};
  if (
    !Number.isSafeInteger(rows) ||
    !Number.isSafeInteger(cols) ||
    rows < 0 ||
    cols < 0 ||
    weights?.length !== rows * cols
  ) {
    // A malformed matrix (for the validation specs): any previous plan will do.
    return imfs(matrix, mfs({ rows: 1, cols: 1, weights: Float64Array.of(1) }));
  }
  const prevRows = Math.max(0, rows - 1);
  const prev = new Float64Array(prevRows * cols);
  for (let k = 0; k < prev.length; k++) prev[k] = k % 3 === 0 ? weights[k]! + 1 : weights[k]!;
  return imfs(matrix, mfs({ rows: prevRows, cols, weights: prev }));
}

matcherSpecs("imfs", imfsFromNeighbour, { exact: true });

const m = (rows: number, cols: number, w: number[]) => ({
  rows,
  cols,
  weights: Float64Array.from(w),
});

describe("imfs examples", () => {
  it("adds an arriving job (a new last row) and stays optimal", () => {
    const plan = mfs(m(2, 2, [3, 1, 1, 2]));
    const next = imfs(m(3, 2, [3, 1, 1, 2, 9, 0]), plan);
    // (2,0) + (1,1) = 9 + 2 beats (0,0) + (1,1) = 3 + 2.
    expect([Array.from(next.rowToCol), next.size, next.weight]).toEqual([[-1, 1, 0], 2, 11]);
    assertCertificate(m(3, 2, [3, 1, 1, 2, 9, 0]), next);
  });

  it("removes a leaving job given rowOrigin, and a machine given colOrigin", () => {
    const first = m(3, 3, [5, 4, 0, 4, 5, 1, 0, 1, 5]);
    const plan = mfs(first);
    // Row 0 leaves: new rows are previous rows 1 and 2.
    const after = m(2, 3, [4, 5, 1, 0, 1, 5]);
    const next = imfs(after, plan, { rowOrigin: [1, 2] });
    expect([next.size, next.weight]).toEqual([2, 10]);
    assertCertificate(after, next);
    // Column 1 goes away and a new column appears at the front.
    const again = m(2, 3, [2, 4, 1, 7, 0, 5]);
    const last = imfs(again, next, { colOrigin: [-1, 0, 2] });
    // (0,1) + (1,0) = 4 + 7.
    expect([Array.from(last.rowToCol), last.size, last.weight]).toEqual([[1, 0], 2, 11]);
    assertCertificate(again, last);
  });

  it("never modifies the previous result", () => {
    const plan = mfs(m(3, 3, [5, 4, 0, 4, 5, 1, 0, 1, 5]));
    const before = JSON.stringify(plan, (_, x) =>
      ArrayBuffer.isView(x) ? Array.from(x as Float64Array) : x,
    );
    imfs(m(3, 3, [1, 4, 9, 4, 0, 1, 0, 8, 5]), plan);
    const after = JSON.stringify(plan, (_, x) =>
      ArrayBuffer.isView(x) ? Array.from(x as Float64Array) : x,
    );
    expect(after).toBe(before);
  });

  it("keeps working when the shape flips (the state keeps its orientation)", () => {
    const tall = m(3, 2, [1, 2, 3, 4, 5, 6]);
    const plan = mfs(tall);
    expect(plan.state.transposed).toBe(true);
    const wide = m(1, 2, [0, 1]);
    const next = imfs(wide, plan);
    expect([Array.from(next.rowToCol), next.weight]).toEqual([[1], 1]);
    expect(next.state.transposed).toBe(true);
    const grown = m(4, 5, [1, 2, 3, 4, 5, 5, 4, 3, 2, 1, 1, 1, 1, 1, 1, 9, 0, 0, 0, 9]);
    const more = imfs(grown, next);
    expect([more.size, more.weight]).toEqual([4, bruteForce(grown).weight]);
    assertCertificate(grown, more);
  });

  it("handles weights growing by orders of magnitude (the internal scale changes)", () => {
    const plan = mfs(m(2, 2, [1, 2, 3, 4]));
    const huge = m(2, 2, [1e308, 2, 3, Number.MAX_VALUE]);
    const next = imfs(huge, plan);
    assertValidMatching(huge, next);
    expect(next.size).toBe(2);
    expect(next.rowToCol[0]).toBe(0);
    const back = imfs(m(2, 2, [1, 2, 3, 4]), next);
    expect([back.size, back.weight]).toEqual([2, 5]);
  });

  it("trusts a change hint: unlisted lines are not read (a false promise costs optimality)", () => {
    const before = m(2, 2, [5, 1, 1, 5]);
    const plan = mfs(before);
    expect([Array.from(plan.rowToCol), plan.weight]).toEqual([[0, 1], 10]);
    // The off-diagonal entries change; the matched ones do not.
    const after = m(2, 2, [5, 9, 9, 5]);
    // Truthful (both changed rows listed, or both columns): the optimum, 9 + 9.
    for (const hint of [{ changedRows: [0, 1] }, { changedCols: [1, 0] }]) {
      const next = imfs(after, plan, { ...hint, verifyHint: before });
      expect([Array.from(next.rowToCol), next.weight]).toEqual([[1, 0], 18]);
      assertCertificate(after, next);
    }
    // Untruthful: the promise is kept to the letter, row 1 is not read, and the old plan stays.
    const lied = imfs(after, plan, { changedRows: [0] });
    expect([Array.from(lied.rowToCol), lied.weight]).toEqual([[0, 1], 10]);
    // verifyHint catches it.
    expect(() => imfs(after, plan, { changedRows: [0], verifyHint: before })).toThrow(
      "@sched/matching/imfs: options.changedRows/changedCols omit row 1 and column 0, whose weight changed from 1 (previous row 1, column 0) to 9",
    );
    // Without a hint imfs reads everything and is exact.
    expect(imfs(after, plan).weight).toBe(18);
  });

  it("with a change hint, keeps a previous pair on unlisted lines unread, at its recorded weight", () => {
    const before = m(2, 2, [5, 1, 1, 5]);
    const plan = mfs(before);
    // The state records each pair's weight (internal rows; this plan is not transposed).
    expect(Array.from(plan.state.pairWeight)).toEqual([5, 5]);
    // Pair (1, 1) becomes ineligible, but only row 0 is listed: a false promise. The pair is
    // kept without being read, and counts the 5 recorded for it.
    const after = m(2, 2, [7, 1, 1, 0]);
    const lied = imfs(after, plan, { changedRows: [0] });
    expect([Array.from(lied.rowToCol), lied.size, lied.weight]).toEqual([[0, 1], 2, 12]);
    // A truthful hint (row 1 listed) or none reads it: (1, 1) is dropped, and cardinality
    // first gives the two pairs of weight 1.
    for (const options of [{ changedRows: [0, 1] }, {}]) {
      const next = imfs(after, plan, options);
      expect([Array.from(next.rowToCol), next.size, next.weight]).toEqual([[1, 0], 2, 2]);
      assertCertificate(after, next);
    }
    // A state without recorded weights (say, from an earlier version) is accepted: the pairs
    // are read, so even this false promise drops the ineligible pair.
    const { pairWeight: _, ...bare } = plan.state;
    const old = { ...plan, state: bare } as unknown as ExactMatching;
    const read = imfs(after, old, { changedRows: [0] });
    expect([Array.from(read.rowToCol), read.weight]).toEqual([[1, 0], 2]);
  });

  it("sees a change far below the weights but above its tolerance (2^-40 of the potentials)", () => {
    // Every pair weighs 1: the plan is one of two perfect matchings. The other one then gains
    // 2e-8 in all (1e-8 per pair), far above the tolerance (about 9e-13 here) that imfs allows
    // the inherited certificate, so imfs must move to it, hinted or not.
    const before = m(2, 2, [1, 1, 1, 1]);
    const plan = mfs(before);
    const other = [plan.rowToCol[1]!, plan.rowToCol[0]!];
    const w = [1, 1, 1, 1];
    for (let i = 0; i < 2; i++) w[i * 2 + other[i]!] = 1 + 1e-8;
    const after = m(2, 2, w);
    for (const options of [{}, { changedRows: [0, 1] }, { changedCols: [0, 1] }]) {
      const next = imfs(after, plan, options);
      expect([Array.from(next.rowToCol), next.weight]).toEqual([other, 2 + 2e-8]);
      expect(next.weight).toBe(mfs(after).weight);
    }
  });

  it("re-checks inherited potentials: a row on a dummy edited below the others' potentials is re-added", () => {
    // Two rows want the one column; one sits on a dummy, which (D1) gives the largest row
    // potential. Here that potential is edited down, which no mfs or imfs state has: the
    // state's other checks still pass, yet it no longer proves that the row cannot do better.
    const before = m(2, 2, [1, 0, 1, 0]);
    const plan = mfs(before);
    const onDummy = plan.rowToCol[0] === -1 ? 0 : 1;
    const rowPotential = Float64Array.from(plan.state.rowPotential);
    rowPotential[onDummy] = -100;
    const edited = { ...plan, state: { ...plan.state, rowPotential } } as ExactMatching;
    // Now the row on the dummy values the column at 5: it must take it.
    const w = [1, 0, 1, 0];
    w[onDummy * 2] = 5;
    const after = m(2, 2, w);
    const next = imfs(after, edited);
    expect([next.rowToCol[onDummy], next.size, next.weight]).toEqual([0, 1, 5]);
    assertCertificate(after, next);
  });

  it("with a change hint, keeps the scale that the unread lines need (it may only shrink)", () => {
    // Row 0 holds weights near the largest double, so the plan works at a scale below 1. A
    // hinted call that reads only row 2 (small weights) must not take the scale back to 1:
    // row 0's potentials would overflow.
    const big = Number.MAX_VALUE;
    const before = m(3, 3, [big, big / 2, big / 4, 1, 2, 3, 3, 2, 1]);
    const plan = mfs(before);
    expect(plan.state.scale).toBeLessThan(1);
    const after = m(3, 3, [big, big / 2, big / 4, 1, 2, 3, 1, 5, 1]);
    const next = imfs(after, plan, { changedRows: [2], verifyHint: before });
    const fresh = mfs(after);
    expect([Array.from(next.rowToCol), next.size, next.weight]).toEqual([
      Array.from(fresh.rowToCol),
      fresh.size,
      fresh.weight,
    ]);
    expect(next.state.scale).toBe(plan.state.scale);
    assertCertificate(after, next);
  });

  it("results never share memory with one another (work arrays are reused between calls)", () => {
    const plan = mfs(m(3, 3, [4, 1, 2, 2, 5, 1, 1, 2, 6]));
    const a = imfs(m(3, 3, [4, 1, 2, 2, 5, 1, 9, 2, 6]), plan, { changedRows: [2] });
    const b = imfs(m(3, 3, [4, 1, 2, 9, 5, 1, 1, 2, 6]), plan, { changedRows: [1] });
    const snapshot = (r: ExactMatching) =>
      JSON.stringify([r, r.state].map((x) => Object.entries(x).map(([k, v]) => [k, String(v)])));
    const before = snapshot(a);
    // A third call, and writing into b's arrays, leave a as it was.
    imfs(m(3, 3, [1, 1, 1, 1, 1, 1, 1, 1, 1]), b);
    b.rowToCol.fill(7);
    b.state.rowPotential.fill(7);
    expect(snapshot(a)).toBe(before);
  });

  it("with a change hint, treats new rows and columns as changed and handles departures", () => {
    const before = m(3, 3, [5, 4, 0, 4, 5, 1, 0, 1, 5]);
    const plan = mfs(before);
    // Row 0 leaves, a new row arrives at the front, column 2 leaves, a new column is appended.
    const after = m(3, 3, [9, 1, 1, 4, 5, 8, 0, 1, 2]);
    const next = imfs(after, plan, {
      rowOrigin: [-1, 1, 2],
      colOrigin: [0, 1, -1],
      changedRows: [],
      verifyHint: before,
    });
    // (0,0) + (1,2) + (2,1) = 9 + 8 + 1, the optimum.
    expect([Array.from(next.rowToCol), next.size, next.weight]).toEqual([[0, 2, 1], 3, 18]);
    expect(next.weight).toBe(mfs(after).weight);
    assertCertificate(after, next);
  });

  it("with a change hint, adapts the internal scale when changed lines hold huge weights", () => {
    const small = m(2, 2, [1, 2, 3, 4]);
    const plan = mfs(small);
    const huge = m(2, 2, [1e308, 2, 3, 4]);
    const next = imfs(huge, plan, { changedRows: [0], verifyHint: small });
    expect([Array.from(next.rowToCol), next.size]).toEqual([[0, 1], 2]);
    assertCertificate(huge, next);
    // Back to small weights: the scale only shrinks under a hint (unread lines may be huge),
    // which is exact here (a power of two).
    const back = imfs(small, next, { changedRows: [0], verifyHint: huge });
    expect([Array.from(back.rowToCol), back.weight]).toEqual([[0, 1], 5]);
    assertCertificate(small, back);
  });

  it("rejects a malformed change hint with InvalidInputError", () => {
    const plan = mfs(m(2, 2, [1, 2, 3, 4]));
    const matrix = m(2, 2, [1, 2, 3, 4]);
    expect(() => imfs(matrix, plan, { changedRows: [2] })).toThrow(
      /options\.changedRows\[0\] is 2, expected an integer index below 2/,
    );
    expect(() => imfs(matrix, plan, { changedCols: [0, -1] })).toThrow(
      /options\.changedCols\[1\] is -1/,
    );
    expect(() => imfs(matrix, plan, { changedCols: [0.5] })).toThrow(InvalidInputError);
    expect(() => imfs(matrix, plan, { changedRows: [], verifyHint: m(1, 2, [1, 2]) })).toThrow(
      /options\.verifyHint is not a 2 x 2 matrix/,
    );
    // A previous matrix of the transposed shape (same number of entries) is not the one.
    const wide = mfs(m(2, 3, [1, 2, 3, 4, 5, 6]));
    expect(() =>
      imfs(m(2, 3, [1, 2, 3, 4, 5, 6]), wide, {
        changedRows: [],
        verifyHint: m(3, 2, [1, 2, 3, 4, 5, 6]),
      }),
    ).toThrow("options.verifyHint is not a 2 x 3 matrix");
    // Nor one whose rows disagree (its weights have the plan's length, not its own).
    expect(() =>
      imfs(m(2, 3, [1, 2, 3, 4, 5, 6]), wide, {
        changedRows: [],
        verifyHint: { rows: 3, cols: 3, weights: Float64Array.of(1, 2, 3, 4, 5, 6) },
      }),
    ).toThrow("options.verifyHint is not a 2 x 3 matrix");
    // verifyHint without a hint has nothing to check.
    expect(imfs(matrix, plan, { verifyHint: m(1, 2, [1, 2]) }).weight).toBe(5);
  });

  it("rejects a NaN or +Infinity in a changed line, and in any line without a hint", () => {
    const plan = mfs(m(3, 3, [1, 2, 3, 4, 5, 6, 7, 8, 9]));
    const bad = (k: number, value: number) => {
      const w = [1, 2, 3, 4, 5, 6, 7, 8, 9];
      w[k] = value;
      return m(3, 3, w);
    };
    // Entry (1, 2) is in row 1 and in column 2.
    for (const value of [Number.NaN, Number.POSITIVE_INFINITY]) {
      const matrix = bad(5, value);
      expect(() => imfs(matrix, plan, { changedRows: [1] })).toThrow(
        /matrix\.weights\[5\] \(row 1, col 2\)/,
      );
      expect(() => imfs(matrix, plan, { changedCols: [2] })).toThrow(InvalidInputError);
      expect(() => imfs(matrix, plan)).toThrow(InvalidInputError);
    }
  });

  it("rejects a malformed previous result or origins with InvalidInputError", () => {
    const plan = mfs(m(2, 2, [1, 2, 3, 4]));
    const matrix = m(2, 2, [1, 2, 3, 4]);
    expect(() => imfs(matrix, {} as ExactMatching)).toThrow(InvalidInputError);
    const broken = { ...plan, state: { ...plan.state, rowPotential: new Float64Array(5) } };
    expect(() => imfs(matrix, broken)).toThrow(/previous\.state is inconsistent/);
    const nan = { ...plan, state: { ...plan.state, colPotential: Float64Array.of(0, Number.NaN) } };
    expect(() => imfs(matrix, nan)).toThrow(/a potential is not finite/);
    const twice = { ...plan, state: { ...plan.state, assignment: Int32Array.of(0, 0) } };
    expect(() => imfs(matrix, twice)).toThrow(/inconsistent \(assignment\)/);
    expect(() => imfs(matrix, plan, { rowOrigin: [0] })).toThrow(/options\.rowOrigin has length 1/);
    expect(() => imfs(matrix, plan, { rowOrigin: [0, 0] })).toThrow(/repeats previous index 0/);
    expect(() => imfs(matrix, plan, { colOrigin: [0, 2] })).toThrow(/options\.colOrigin\[1\] is 2/);
    expect(() => imfs(matrix, plan, { colOrigin: [0, 0.5] })).toThrow(InvalidInputError);
    // An origin below -1 is refused (not read as "new").
    expect(() => imfs(matrix, plan, { rowOrigin: [0, -2] })).toThrow(
      "options.rowOrigin[1] is -2, expected -1 or an integer index below 2",
    );
    expect(() => imfs(matrix, plan, { colOrigin: [-2, 1] })).toThrow(
      "options.colOrigin[0] is -2, expected -1 or an integer index below 2",
    );
    expect(() => imfs(m(1, 1, [Number.NaN]), plan)).toThrow(InvalidInputError);
    // null options: a TypeError before
    expect(() => imfs(matrix, plan, null as never)).toThrow(
      "@sched/matching/imfs: options is null, expected an object",
    );
  });

  it("rejects a previous state whose scale, dummy costs or row potentials are not finite and positive", () => {
    // A 2 x 2 plan with a row on a dummy (both rows want column 0 only).
    const plan = mfs(m(2, 2, [1, 0, 1, 0]));
    expect(plan.state.dummyCost.length).toBe(1);
    const matrix = m(2, 2, [1, 0, 2, 0]);
    const edit = (field: Partial<ExactMatching["state"]>) =>
      ({ ...plan, state: { ...plan.state, ...field } }) as ExactMatching;
    for (const scale of [0, -1, Number.NaN]) {
      expect(() => imfs(matrix, edit({ scale }))).toThrow(
        "@sched/matching/imfs: previous.state is inconsistent, expected the unmodified result of mfs or imfs",
      );
    }
    for (const x of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      expect(() => imfs(matrix, edit({ dummyCost: Float64Array.of(x) }))).toThrow(
        "previous.state is inconsistent (a potential is not finite)",
      );
      expect(() => imfs(matrix, edit({ rowPotential: Float64Array.of(x, 0) }))).toThrow(
        "previous.state is inconsistent (a potential is not finite)",
      );
      expect(() => imfs(matrix, edit({ rowPotential: Float64Array.of(0, x) }))).toThrow(
        "previous.state is inconsistent (a potential is not finite)",
      );
    }
  });

  it("reads the kept pairs when the state's pair weights have the wrong length (hinted call)", () => {
    const before = m(2, 2, [5, 1, 1, 5]);
    const plan = mfs(before);
    // Row 1 changes (listed): the pair (0, 0) is kept on unlisted lines. Without usable pair
    // weights it is read from the matrix (5), as the README says for a state without them.
    const after = m(2, 2, [5, 1, 2, 6]);
    for (const pairWeight of [new Float64Array(1), new Float64Array(3)]) {
      const odd = { ...plan, state: { ...plan.state, pairWeight } } as ExactMatching;
      const next = imfs(after, odd, { changedRows: [1], verifyHint: before });
      expect([Array.from(next.rowToCol), next.size, next.weight]).toEqual([[0, 1], 2, 11]);
      assertCertificate(after, next);
    }
  });

  it("verifyHint counts two ineligible values as equal (0, -1, -Infinity), as the promise does", () => {
    const before = m(2, 3, [0, 4, 1, -1, 2, 3]);
    const plan = mfs(before);
    // Entries (0, 0) and (1, 0) go from one ineligible value to another, unlisted; column 2
    // changes (listed). The promise holds: each unlisted entry is equal, or both are <= 0.
    const after = m(2, 3, [-1, 4, 1, Number.NEGATIVE_INFINITY, 2, 9]);
    const next = imfs(after, plan, { changedCols: [2], verifyHint: before });
    expect([Array.from(next.rowToCol), next.weight]).toEqual([[1, 2], 13]);
    assertCertificate(after, next);
    // An ineligible entry becoming eligible is a change.
    expect(() =>
      imfs(m(2, 3, [1, 4, 1, -1, 2, 9]), plan, { changedCols: [2], verifyHint: before }),
    ).toThrow(
      "omit row 0 and column 0, whose weight changed from 0 (previous row 0, column 0) to 1",
    );
  });

  it("handles a call far larger than any before it (the scratch pool grows to fit)", () => {
    // The work arrays of a call come from a pool kept between calls (arena.ts), which grows by
    // doubling; this call needs about 1 MB of them at once, more than twice the pool so far.
    const cols = 60_000;
    const weights = new Float64Array(2 * cols);
    for (let j = 0; j < cols; j++) {
      weights[j] = 1 + (j % 7);
      weights[cols + j] = 1 + (j % 5);
    }
    const matrix = m(2, cols, Array.from(weights));
    const plan = mfs(matrix);
    const colOrigin = Array.from({ length: cols }, (_, j) => (j + 1) % cols);
    const shifted = new Float64Array(2 * cols);
    for (let i = 0; i < 2; i++)
      for (let j = 0; j < cols; j++) shifted[i * cols + j] = weights[i * cols + colOrigin[j]!]!;
    const next = imfs({ rows: 2, cols, weights: shifted }, plan, { colOrigin });
    expect([next.size, next.weight]).toEqual([2, 12]);
    assertCertificate({ rows: 2, cols, weights: shifted }, next);
  });

  it("with a false hint and a state without pair weights, rows sent to dummies beyond the hint's count still fit", () => {
    // A state without recorded pair weights: its kept pairs are read even on unlisted lines.
    // Here every pair became ineligible while the hint promises nothing changed: all three
    // rows go to dummies, more than the hint alone would allow. The result is still a matching
    // (README, untruthful hint), and a call without a hint from its state is exact again.
    const plan = mfs(m(3, 3, [5, 0, 0, 0, 5, 0, 0, 0, 5]));
    const { pairWeight: _, ...bare } = plan.state;
    const old = { ...plan, state: bare } as unknown as ExactMatching;
    const after = m(3, 3, [0, 0, 0, 0, 0, 0, 0, 0, 0]);
    const lied = imfs(after, old, { changedRows: [] });
    assertValidMatching(after, lied);
    expect([lied.size, lied.weight, lied.state.dummyCost.length]).toEqual([0, 0, 3]);
    const again = imfs(m(3, 3, [0, 2, 0, 0, 0, 0, 0, 0, 0]), lied);
    expect([Array.from(again.rowToCol), again.size, again.weight]).toEqual([[1, -1, -1], 1, 2]);
  });

  it("gives a new column the highest potential that keeps the kept rows' reduced costs >= 0 (eligible entries only)", () => {
    // README ("How MFS works"): a new or changed column gets its column minimum over the kept
    // rows' eligible entries, capped at 0. Plan: rows on columns 1 and 2, u = [1, -1],
    // v = [0, -2, -3] (costs are -weights: -1 - 1 + 2 = 0 and -4 + 1 + 3 = 0).
    const plan = mfs(m(2, 3, [0, 1, 2, 0, 1, 4]));
    expect([Array.from(plan.rowToCol), Array.from(plan.state.rowPotential)]).toEqual([
      [1, 2],
      [1, -1],
    ]);
    expect(Array.from(plan.state.colPotential)).toEqual([0, -2, -3]);
    // A new column where row 0 is ineligible (0) and row 1 weighs 1: its minimum is
    // -1 - u[1] = 0 (row 0's entry does not count), so it starts free at 0, every reduced cost
    // is >= 0 and the plan's certificate stands as it is: nothing is searched or repaired.
    const after = m(2, 4, [0, 1, 2, 0, 0, 1, 4, 1]);
    for (const options of [{}, { changedRows: [] }, { changedCols: [3] }]) {
      const next = imfs(after, plan, options);
      expect([Array.from(next.rowToCol), next.weight]).toEqual([[1, 2], 5]);
      expect(Array.from(next.state.rowPotential)).toEqual([1, -1]);
      expect(Array.from(next.state.colPotential)).toEqual([0, -2, -3, 0]);
    }
  });
});
