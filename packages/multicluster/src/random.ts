/**
 * A small seeded PRNG (mulberry32) for the package's synthetic background load and workloads:
 * same seed, same sequence. Not cryptographic.
 *
 * Complexity: O(1) per draw.
 */
export class SeededRandom {
  private state: number;

  constructor(seed: number) {
    this.state = (Math.trunc(seed) ^ 0x9e3779b9) >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An exponential variate of mean `mean`. */
  exponential(mean: number): number {
    return -mean * Math.log(1 - this.next());
  }

  /** An integer in [lo, hi]. */
  integer(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
}
