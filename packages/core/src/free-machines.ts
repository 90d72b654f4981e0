/**
 * The machines that have a free core, for `ResourceLedger.nextFreeMachine`: a bitset with a bit
 * per machine, and above it one summary level per 32 words (bit `w` of level `k + 1` is set
 * exactly when word `w` of level `k` is not 0), up to a level of one word.
 *
 * Invariants: a bit of level 0 is set exactly when its machine was added and not deleted since;
 * bits past the last machine are never set; each summary bit mirrors whether its word is non-zero.
 *
 * Complexity: `next` O(levels) word reads (levels = ceil(log32 machines), 4 up to a million
 * machines); `add` and `delete` O(1), plus a word per level when a word turns empty or non-empty;
 * `addRange` and `deleteRange` O(words of the range), plus the same per word that turns.
 * It replaces a segment tree of free-core sums, whose take or give rewrote O(log machines)
 * nodes per part. Internal (not exported from the package).
 */
export class FreeMachines {
  /** `levels[0]` has a bit per machine; each next level a bit per word of the one below. */
  private readonly levels: Int32Array[];

  /** An empty set for machines `0 .. machines - 1`. */
  constructor(machines: number) {
    let words = Math.max(1, Math.ceil(machines / 32));
    const levels = [new Int32Array(words)];
    while (words > 1) {
      words = Math.ceil(words / 32);
      levels.push(new Int32Array(words));
    }
    this.levels = levels;
  }

  /** Adds machine `m` (an index of the set). */
  add(m: number): void {
    this.addAt(0, m);
  }

  /** Deletes machine `m` (an index of the set). */
  delete(m: number): void {
    this.deleteAt(0, m);
  }

  /** Adds machines `start .. end - 1`, a word at a time. */
  addRange(start: number, end: number): void {
    const words = this.levels[0]!;
    for (let i = start; i < end; ) {
      const w = i >>> 5;
      const mask = rangeMask(i & 31, Math.min(end - (w << 5), 32));
      const before = words[w]!;
      words[w] = before | mask;
      if (before === 0 && this.levels.length > 1) this.addAt(1, w);
      i = (w + 1) << 5;
    }
  }

  /** Deletes machines `start .. end - 1`, a word at a time. */
  deleteRange(start: number, end: number): void {
    const words = this.levels[0]!;
    for (let i = start; i < end; ) {
      const w = i >>> 5;
      const mask = rangeMask(i & 31, Math.min(end - (w << 5), 32));
      const before = words[w]!;
      const after = before & ~mask;
      words[w] = after;
      if (after === 0 && before !== 0 && this.levels.length > 1) this.deleteAt(1, w);
      i = (w + 1) << 5;
    }
  }

  /** The lowest machine in the set at or after `from` (an integer >= 0), or -1. */
  next(from: number): number {
    const levels = this.levels;
    let i = from;
    let k = 0;
    // Up: the first word at level k with a set bit at or after position i.
    for (;;) {
      const level = levels[k]!;
      const w = i >>> 5;
      if (w >= level.length) return -1;
      const bits = level[w]! & (-1 << (i & 31));
      if (bits !== 0) {
        i = (w << 5) | lowestBit(bits);
        break;
      }
      if (++k === levels.length) return -1;
      i = w + 1;
    }
    // Down: each set summary bit names a non-zero word below.
    while (k > 0) {
      k--;
      i = (i << 5) | lowestBit(levels[k]![i]!);
    }
    return i;
  }

  /**
   * The lowest machine at or after `from` (an integer >= 0) that is not in the set, or `limit`
   * when every machine from `from` to `limit - 1` is (`limit` at most the set's size): the end
   * of the run of members that starts at `from`, read 32 machines a word.
   */
  runEnd(from: number, limit: number): number {
    const words = this.levels[0]!;
    let i = from;
    while (i < limit) {
      const w = i >>> 5;
      const gaps = ~words[w]! & (-1 << (i & 31));
      if (gaps !== 0) {
        const j = (w << 5) | lowestBit(gaps);
        return Math.min(j, limit);
      }
      i = (w + 1) << 5;
    }
    return limit;
  }

  private addAt(k: number, index: number): void {
    const levels = this.levels;
    let i = index;
    for (; k < levels.length; k++) {
      const level = levels[k]!;
      const w = i >>> 5;
      const before = level[w]!;
      level[w] = before | (1 << (i & 31));
      if (before !== 0) return;
      i = w;
    }
  }

  private deleteAt(k: number, index: number): void {
    const levels = this.levels;
    let i = index;
    for (; k < levels.length; k++) {
      const level = levels[k]!;
      const w = i >>> 5;
      const after = level[w]! & ~(1 << (i & 31));
      level[w] = after;
      if (after !== 0) return;
      i = w;
    }
  }
}

/** Bits `lo .. hi - 1` of a word (`0 <= lo < hi <= 32`). */
function rangeMask(lo: number, hi: number): number {
  return (hi === 32 ? -1 : (1 << hi) - 1) & (-1 << lo);
}

/** The index of the lowest set bit of `bits` (not 0). */
function lowestBit(bits: number): number {
  return 31 - Math.clz32(bits & -bits);
}
