/**
 * A small seeded pseudo-random generator (mulberry32 state update fed through a SplitMix-style
 * seed scramble): the CLI's only source of randomness, so the same seed gives the same bytes.
 * Not for cryptography.
 */
export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** A standard normal deviate (Box-Muller, one value per call). */
  normal(): number;
  /** An exponential deviate with mean 1. */
  exponential(): number;
}

/** A {@link Random} seeded by the integer `seed` (any safe integer; equal seeds, equal streams). */
export function createRandom(seed: number): Random {
  // Scramble the seed so neighbouring seeds give unrelated streams.
  let state = Math.imul((seed ^ (seed >>> 16)) >>> 0, 0x45d9f3b) >>> 0;
  state = Math.imul(state ^ (state >>> 16), 0x45d9f3b) >>> 0;
  state = (state ^ (state >>> 16) ^ Math.floor(seed / 0x100000000)) >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    normal() {
      const u = 1 - next(); // (0, 1]
      const v = next();
      return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    },
    exponential() {
      return -Math.log(1 - next());
    },
  };
}
