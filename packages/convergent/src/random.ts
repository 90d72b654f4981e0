/**
 * A small seeded PRNG (mulberry32 on a 32-bit state): `next()` is uniform in [0, 1). Same seed,
 * same sequence, on every platform.
 *
 * @example
 * ```ts
 * const rng = seededRandom(7);
 * rng.int(1, 8); // an integer in [1, 8]
 * ```
 */
export interface SeededRandom {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [lo, hi] (both included). */
  int(lo: number, hi: number): number;
  /** Uniform real in [lo, hi). */
  uniform(lo: number, hi: number): number;
  /** Exponential with the given mean. */
  exponential(mean: number): number;
  /** True with probability `p`. */
  chance(p: number): boolean;
}

/** Builds a {@link SeededRandom} from an integer seed. */
export function seededRandom(seed: number): SeededRandom {
  let state = (Math.trunc(seed) ^ 0x9e3779b9) >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    uniform: (lo, hi) => lo + next() * (hi - lo),
    exponential: (mean) => -mean * Math.log(1 - next()),
    chance: (p) => next() < p,
  };
}
