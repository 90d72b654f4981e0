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
  for (let k = 0; k < prev.length; k++) prev[k] = k % 3 === 0 ? weights[k] + 1 : weights[k];
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
    expect(() => imfs(m(1, 1, [Number.NaN]), plan)).toThrow(InvalidInputError);
  });
});
