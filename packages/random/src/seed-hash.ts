import { describeValue, InvalidInputError } from "@sched/errors";

/**
 * The 128-bit starting state of the stream named `name` of seed `seed`: four 32-bit lanes, each
 * a multiply-xorshift hash of the words `[seed low 32 bits, seed high bits, name length, the
 * name's UTF-16 code units...]` with its own multiplier and starting value, cross-mixed at the end
 * so every input bit reaches every lane. Not cryptographic; what matters is that distinct
 * (seed, name) pairs give unrelated states, and that it is the same on every platform (32-bit
 * integer arithmetic only).
 *
 * @throws InvalidInputError when `seed` is not a safe integer or `name` is not a string.
 */
export function seedState(
  where: string,
  seed: number,
  name: string,
): [number, number, number, number] {
  if (!Number.isSafeInteger(seed)) {
    throw new InvalidInputError(
      where,
      "seed",
      `is ${describeValue(seed)}, expected a safe integer`,
    );
  }
  if (typeof name !== "string") {
    throw new InvalidInputError(where, "name", `is ${typeof name}, expected a string`);
  }
  // seed = hi * 2^32 + lo exactly, lo in [0, 2^32): distinct safe integers give distinct pairs.
  const lo = seed >>> 0;
  const hi = Math.floor(seed / 4294967296) | 0;
  let a = 0x243f6a88;
  let b = 0x85a308d3;
  let c = 0x13198a2e;
  let d = 0x03707344;
  const feed = (w: number): void => {
    a = Math.imul(a ^ w, 0x9e3779b1);
    b = Math.imul(b ^ w, 0x85ebca77);
    c = Math.imul(c ^ w, 0xc2b2ae3d);
    d = Math.imul(d ^ w, 0x27d4eb2f);
    a ^= a >>> 15;
    b ^= b >>> 13;
    c ^= c >>> 16;
    d ^= d >>> 14;
  };
  feed(lo);
  feed(hi);
  feed(name.length);
  for (let i = 0; i < name.length; i++) feed(name.charCodeAt(i));
  // Cross-mix the lanes (two rounds), then finalize each one.
  for (let r = 0; r < 2; r++) {
    a = Math.imul(a ^ (b >>> 7) ^ (d << 3), 0x9e3779b1);
    b = Math.imul(b ^ (c >>> 11) ^ (a << 5), 0x85ebca77);
    c = Math.imul(c ^ (d >>> 5) ^ (b << 7), 0xc2b2ae3d);
    d = Math.imul(d ^ (a >>> 13) ^ (c << 11), 0x27d4eb2f);
  }
  return [fmix(a), fmix(b), fmix(c), fmix(d)];
}

/** MurmurHash3's 32-bit finalizer: every input bit affects every output bit. */
function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * A fixed 32-bit hash of a non-negative integer `index` (no seed, no state): spreads
 * consecutive indices over `[0, 2^32)` for deterministic tie-breaking, e.g. the knapsack dual
 * simplex's cost perturbation. The same index gives the same value on every machine.
 *
 * Complexity: O(1).
 *
 * @throws InvalidInputError when `index` is not a safe integer >= 0.
 *
 * @example
 * ```ts
 * indexHash(0) === indexHash(0); // true
 * ```
 */
export function indexHash(index: number): number {
  if (!Number.isSafeInteger(index) || index < 0) {
    throw new InvalidInputError(
      "@sched/random/indexHash",
      "index",
      `is ${describeValue(index)}, expected a safe integer >= 0`,
    );
  }
  let h = Math.imul(index + 1, 0x9e3779b1) >>> 0;
  h = Math.imul(h ^ (h >>> 15), 0x85ebca6b) >>> 0;
  h ^= h >>> 13;
  return h >>> 0;
}
