/**
 * Fixed-width bitsets of processing elements (PEs), one bit per PE in `Uint32Array` words:
 * PE `p` is bit `p & 31` of word `p >>> 5`. Internal to the package: `AvailRectList` stores
 * one per record. All functions take the word count implicitly from the arrays' length and
 * never allocate unless their name says so.
 */

/** Words needed for `pes` PEs. */
export function wordsFor(pes: number): number {
  return (pes + 31) >>> 5;
}

/** Number of set bits in a 32-bit word (branch-free SWAR count). */
export function popcount32(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/** Number of PEs in `set`. O(W). */
export function count(set: Uint32Array): number {
  let c = 0;
  for (let w = 0; w < set.length; w++) c += popcount32(set[w]!);
  return c;
}

/** True when `a` and `b` hold the same PEs. O(W). */
export function equal(a: Uint32Array, b: Uint32Array): boolean {
  for (let w = 0; w < a.length; w++) if (a[w] !== b[w]) return false;
  return true;
}

/** True when `set` is empty. O(W). */
export function isEmpty(set: Uint32Array): boolean {
  for (let w = 0; w < set.length; w++) if (set[w] !== 0) return false;
  return true;
}

/** True when `a` and `b` share no PE. O(W). */
export function disjoint(a: Uint32Array, b: Uint32Array): boolean {
  for (let w = 0; w < a.length; w++) if ((a[w]! & b[w]!) !== 0) return false;
  return true;
}

/** True when every PE of `sub` is in `sup`. O(W). */
export function subset(sub: Uint32Array, sup: Uint32Array): boolean {
  for (let w = 0; w < sub.length; w++) if ((sub[w]! & ~sup[w]!) !== 0) return false;
  return true;
}

/** `into |= other`, in place. O(W). */
export function orInto(into: Uint32Array, other: Uint32Array): void {
  for (let w = 0; w < into.length; w++) into[w]! |= other[w]!;
}

/** `into &= ~other`, in place. O(W). */
export function andNotInto(into: Uint32Array, other: Uint32Array): void {
  for (let w = 0; w < into.length; w++) into[w]! &= ~other[w]!;
}

/** Writes the complement of `set` restricted to PEs `0 .. pes-1` into `out`. O(W). */
export function complementInto(out: Uint32Array, set: Uint32Array, pes: number): void {
  const last = set.length - 1;
  for (let w = 0; w < last; w++) out[w] = ~set[w]! >>> 0;
  if (last >= 0) {
    const tail = pes & 31;
    const mask = tail === 0 ? 0xffffffff : (1 << tail) - 1;
    out[last] = (~set[last]! & mask) >>> 0;
  }
}

/** The PEs of `set` in increasing order (allocates). O(W + size). */
export function toArray(set: Uint32Array): number[] {
  return lowest(set, Number.POSITIVE_INFINITY);
}

/** The `n` lowest-index PEs of `set`, in increasing order (fewer if `set` is smaller). O(W + n). */
export function lowest(set: Uint32Array, n: number): number[] {
  const out: number[] = [];
  for (let w = 0; w < set.length && out.length < n; w++) {
    let x = set[w]!;
    if (x === 0xffffffff && n - out.length >= 32) {
      // A whole word (busy sets on big machines are mostly runs of them).
      const base = w << 5;
      for (let i = 0; i < 32; i++) out.push(base + i);
      continue;
    }
    while (x !== 0 && out.length < n) {
      const bit = x & -x;
      out.push((w << 5) + 31 - Math.clz32(bit));
      x ^= bit;
    }
  }
  return out;
}

/** The `n` highest-index PEs of `set`, in increasing order (fewer if `set` is smaller). O(W + n). */
export function highest(set: Uint32Array, n: number): number[] {
  const out: number[] = [];
  for (let w = set.length - 1; w >= 0 && out.length < n; w--) {
    let x = set[w]!;
    while (x !== 0 && out.length < n) {
      const bit = 31 - Math.clz32(x);
      out.push((w << 5) + bit);
      x ^= 1 << bit;
    }
  }
  return out.reverse();
}
