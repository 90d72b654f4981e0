/** The first place in the ascending `sorted` whose value is at least `x` (its length if none). Internal. */
export function firstAtLeast(sorted: Int32Array | Float64Array, x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
