import { requireFinite, requireInteger } from "./validate.js";

/** A seeded pseudo-random number generator: the same seed gives the same sequence. */
export interface Random {
  /** A float uniformly distributed in [0, 1). */
  next(): number;
  /** An integer uniformly distributed in [0, n) (n a positive integer). */
  int(n: number): number;
}

/**
 * Creates a seeded PRNG: a 32-bit Weyl sequence (step 0x9E3779B9) passed through the
 * murmur3 32-bit finaliser. Period 2^32; good enough to draw machines and workloads, not for
 * cryptography. Library code never calls `Math.random`.
 *
 * Complexity: O(1) per draw.
 *
 * @param seed - any finite number; its low 32 bits (after truncation) are the state.
 * @throws InvalidInputError when `seed` is not finite.
 * @example
 * ```ts
 * const rng = createRandom(42);
 * rng.int(6); // the same value on every run with seed 42
 * ```
 */
export function createRandom(seed: number): Random {
  requireFinite("@sched/elo/createRandom", "seed", seed);
  let state = Math.trunc(seed) >>> 0;
  const next = (): number => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    z ^= z >>> 16;
    return (z >>> 0) / 4294967296;
  };
  return {
    next,
    int(n: number): number {
      requireInteger("@sched/elo/createRandom", "int(n)", n, 1);
      return Math.floor(next() * n);
    },
  };
}
