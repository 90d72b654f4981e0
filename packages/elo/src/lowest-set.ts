/**
 * A set of the integers `0 .. size - 1` that answers its lowest member: a bitset, and above it
 * one summary level per 32 words (bit `w` of level `k + 1` is set exactly when word `w` of level
 * `k` is not 0), up to a level of one word. `first`, `add` and `delete` read or write a word per
 * level (4 levels up to a million members). @internal
 */
export class LowestSet {
  readonly #levels: Int32Array[];

  /** The set of every integer in `0 .. size - 1` (`full`), or the empty set. */
  constructor(size: number, full: boolean) {
    let words = Math.max(1, Math.ceil(size / 32));
    const levels = [new Int32Array(words)];
    while (words > 1) {
      words = Math.ceil(words / 32);
      levels.push(new Int32Array(words));
    }
    this.#levels = levels;
    if (full) for (let i = 0; i < size; i++) this.add(i);
  }

  /** Adds `i`. */
  add(i: number): void {
    for (const level of this.#levels) {
      const w = i >>> 5;
      const was = level[w]!;
      level[w] = was | (1 << (i & 31));
      if (was !== 0) return;
      i = w;
    }
  }

  /** Removes `i`. */
  delete(i: number): void {
    for (const level of this.#levels) {
      const w = i >>> 5;
      const now = level[w]! & ~(1 << (i & 31));
      level[w] = now;
      if (now !== 0) return;
      i = w;
    }
  }

  /** Whether `i` is in the set. */
  has(i: number): boolean {
    return (this.#levels[0]![i >>> 5]! & (1 << (i & 31))) !== 0;
  }

  /** The lowest member, or -1 when the set is empty. */
  first(): number {
    const levels = this.#levels;
    let w = 0;
    for (let k = levels.length - 1; k >= 0; k--) {
      const word = levels[k]![w]!;
      if (word === 0) return -1;
      w = (w << 5) | (31 - Math.clz32(word & -word));
    }
    return w;
  }
}
