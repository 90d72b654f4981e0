import type { ExactMatching, MatchingInput } from "../src/index.js";
import { maxCardinality } from "./oracle.js";

/**
 * Checks the dual certificate an exact result carries, independently of the solver: with it,
 * LP duality proves the matching has maximum cardinality and then maximum weight (see the
 * README's proof). Throws a description of the first violation.
 *
 * The rounding tolerance is relative to the largest weight of `matrix`, or to `magnitude` when
 * that is larger: after a chain of incremental calls the potentials carry rounding from the
 * earlier matrices, so pass the largest weight seen along the chain.
 */
export function assertCertificate(
  matrix: MatchingInput,
  result: ExactMatching,
  magnitude = 0,
): void {
  const { rows, cols, weights } = matrix;
  const s = result.state;
  if (s.rows !== rows || s.cols !== cols) throw new Error("state dimensions differ");
  const t = s.transposed;
  const n = t ? cols : rows;
  const m = t ? rows : cols;
  const K = s.dummyCost.length;
  const cost = (i: number, j: number): number => {
    const w = (t ? weights[j * cols + i] : weights[i * cols + j])!;
    return w > 0 ? -w * s.scale : Number.POSITIVE_INFINITY;
  };
  let max = magnitude;
  for (let k = 0; k < weights.length; k++) if (weights[k]! > max) max = weights[k]!;
  const tol = 1e-9 * max * s.scale * (n + m + 1);
  const u = s.rowPotential;
  const v = s.colPotential;
  const used = new Uint8Array(m + K);
  for (let i = 0; i < n; i++) {
    const a = s.assignment[i]!;
    if (a < 0 || a >= m + K) throw new Error(`row ${i} has no column (${a})`);
    if (used[a] === 1) throw new Error(`column ${a} used twice`);
    used[a] = 1;
    for (let j = 0; j < m + K; j++) {
      const c = j < m ? cost(i, j) : s.dummyCost[j - m]!;
      if (c === Number.POSITIVE_INFINITY) {
        if (a === j) throw new Error(`row ${i} on a forbidden column ${j}`);
        continue;
      }
      const r = c - u[i]! - v[j]!;
      if (r < -tol) throw new Error(`reduced cost (${i}, ${j}) = ${r} < 0`);
      if (a === j && Math.abs(r) > tol) throw new Error(`matched (${i}, ${j}) not tight: ${r}`);
    }
  }
  for (let j = 0; j < m + K; j++) {
    if (used[j] === 1 && v[j]! > tol) throw new Error(`matched column ${j} has potential ${v[j]}`);
    if (used[j] === 0 && j >= m) throw new Error(`dummy ${j - m} unused`);
    if (used[j] === 0 && Math.abs(v[j]!) > tol) throw new Error(`free column ${j}: v = ${v[j]}`);
  }
  const nu = maxCardinality(matrix);
  if (K !== n - nu) throw new Error(`K = ${K}, expected ${n} - ${nu}`);
}
