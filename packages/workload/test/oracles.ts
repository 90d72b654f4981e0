import type { LublinParameters } from "../src/lublin.js";

/** Measure of [a, b) ∩ [lo, hi). */
function overlap(a: number, b: number, lo: number, hi: number): number {
  return Math.max(0, Math.min(b, hi) - Math.max(a, lo));
}

/** The exact size distribution of the model (oracle): size -> probability. */
export function exactSizePmf(p: LublinParameters, procs: number): Map<number, number> {
  const pmf = new Map<number, number>();
  const add = (s: number, q: number) => {
    if (q > 0) pmf.set(s, (pmf.get(s) ?? 0) + q);
  };
  add(1, p.serialProb);
  const stages = [
    { lo: p.uLow, hi: p.uMed, w: p.uProb },
    { lo: p.uMed, hi: p.uHi, w: 1 - p.uProb },
  ];
  const pow2 = p.pow2Prob;
  const other = 1 - p.serialProb - p.pow2Prob;
  const maxPow2 = 2 ** Math.floor(Math.log2(procs));
  for (const st of stages) {
    const len = st.hi - st.lo;
    if (len <= 0) continue;
    // power-of-two path: 2^j for u in [j - 1/2, j + 1/2)
    for (let j = Math.floor(st.lo - 1); j <= Math.ceil(st.hi + 1); j++) {
      const q = (overlap(j - 0.5, j + 0.5, st.lo, st.hi) / len) * st.w * pow2;
      const s = 2 ** j;
      add(s > procs ? maxPow2 : Math.max(1, s), q);
    }
    // other path: n for 2^u in [n - 1/2, n + 1/2)
    for (let n = 1; n <= Math.ceil(2 ** st.hi) + 1; n++) {
      const a = n === 1 ? Number.NEGATIVE_INFINITY : Math.log2(n - 0.5);
      const q = (overlap(a, Math.log2(n + 0.5), st.lo, st.hi) / len) * st.w * other;
      add(Math.min(procs, n), q);
    }
  }
  return pmf;
}

/** Pearson chi-square of observed counts against a pmf, pooling cells expected below 5. */
export function chiSquare(counts: Map<number, number>, pmf: Map<number, number>, n: number) {
  let chi = 0;
  let cells = 0;
  let poolE = 0;
  let poolO = 0;
  for (const [s, q] of pmf) {
    const e = q * n;
    const o = counts.get(s) ?? 0;
    if (e < 5) {
      poolE += e;
      poolO += o;
      continue;
    }
    chi += (o - e) ** 2 / e;
    cells++;
  }
  if (poolE > 0) {
    chi += (poolO - poolE) ** 2 / poolE;
    cells++;
  }
  for (const s of counts.keys()) if (!pmf.has(s)) chi = Number.POSITIVE_INFINITY;
  return { chi, df: cells - 1 };
}
