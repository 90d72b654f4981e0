/**
 * `s + x + x + … + x` (`n` times `x`), added one at a time from the left in doubles, exactly as
 * `for (let k = 0; k < n; k++) s += x;` computes it (every addition rounded, ties to even), in
 * O(log n) steps when `s >= 0` and `x > 0` are finite (any other input: that loop).
 *
 * Why it is exact: between two powers of two `[lo, 2 lo)` every double is a multiple of
 * `u = lo * 2^-52`, so from a partial sum `s'` there, while `s' + x` stays at least `u` below
 * `2 lo`, the rounded sum is `s' + round(x / u) * u`: the same step `d` at every addition (when
 * `x / u` is not a tie, i.e. its fraction is not exactly one half; a tie rounds to even, which
 * depends on `s'`, so those additions are made one at a time). So the additions within one such
 * interval are made in one multiplication (how many, counted exactly in integers), and the one
 * that leaves it on its own; `s + k d` is exact (a multiple of `u` below `2 lo`). A sum that
 * stops growing (`x` under half a unit of `s`) stays where it is. Below 256 additions, the loop
 * itself (as fast: measured against it from 8 to 4,096 additions). Internal.
 *
 * Used where a row of equal entries is summed (a platform of identical machines: the convergent
 * ranking of a one-core job sums one entry per machine).
 */
export function repeatSum(s: number, x: number, n: number): number {
  if (
    n < SHORT ||
    !(s >= 0 && x > 0 && s < Number.POSITIVE_INFINITY && x < Number.POSITIVE_INFINITY)
  ) {
    for (let k = 0; k < n; k++) s += x;
    return s;
  }
  // The interval [top / 2, top) of the partial sum s (top 0: not found yet), its unit u, and
  // x / u = whole + fraction; the step d = D u of an addition there (D 0: one at a time).
  let top = 0;
  let u = 0;
  let whole = 0;
  let fraction = 0;
  let D = 0;
  while (n > 0) {
    const next = s + x;
    n--;
    // x is below half a unit of s: so it is of every later partial sum (they only grow)
    if (next === s) return s;
    s = next;
    if (n === 0 || s === Number.POSITIVE_INFINITY) break;
    if (!(s < top)) {
      let lo: number;
      if (top === 0) {
        lo = 2 ** Math.floor(Math.log2(s));
        if (lo > s) lo /= 2;
        else if (2 * lo <= s) lo *= 2;
      } else {
        lo = top;
        while (2 * lo <= s) lo *= 2;
      }
      top = 2 * lo;
      u = lo * 2 ** -52;
      const r = x / u; // exact (a division by a power of two)
      D = 0;
      if (r < 2 ** 52) {
        whole = Math.floor(r);
        fraction = r - whole;
        // a tie rounds to even, which depends on s: those additions are made one at a time
        if (fraction !== 0.5) D = fraction < 0.5 ? whole : whole + 1;
      }
    }
    if (D === 0) continue;
    // The additions from s + j d (j = 0, 1, …) add d while s + j d + x <= top - u; in units of
    // u, j D <= B below (integers under 2^53: every operation exact, the division's floor too).
    let B = (top - s) / u - 1 - whole;
    if (fraction > 0) B -= 1;
    if (B < 0) continue;
    const k = Math.min(n, Math.floor(B / D) + 1);
    s += k * D * u;
    n -= k;
  }
  return s;
}

/** Below this many additions, {@link repeatSum} makes them one at a time (no faster). */
const SHORT = 256;
