/** Ids below this many bits beyond 32 per id added go into the bit set (the rest into a Set). */
const BITS_PER_ID = 32;
/** Ids below this are always kept as bits (128 KiB at most). */
const MIN_BITS = 1 << 20;
/** The largest id kept as a bit (a 256 MiB set at most). */
const MAX_BIT = 2 ** 31 - 1;

/**
 * The set of every job id a run has read, for the duplicate check and for error messages that
 * tell an ended job from an unknown one. Integer ids in `[0, 32 * added + 2^20)` (job numbers,
 * sequential ids) are one bit each in a growing `Uint32Array`, so ten million sequential ids
 * take 1.25 MB instead of a hash table of ten million entries; other ids go to a `Set`.
 * Internal (not exported from the package).
 *
 * Complexity: `add` and `has` O(1) amortised.
 */
export class IdSet {
  private bits = new Uint32Array(1024);
  private readonly others = new Set<number>();
  private added = 0;

  /** Adds `id`; returns false when it was already there. */
  add(id: number): boolean {
    if (this.fitsBits(id)) {
      const word = id >>> 5;
      if (word >= this.bits.length) this.grow(word);
      const mask = 1 << (id & 31);
      const w = this.bits[word]!;
      if ((w & mask) !== 0) return false;
      this.bits[word] = w | mask;
    } else {
      if (this.others.has(id)) return false;
      this.others.add(id);
    }
    this.added++;
    return true;
  }

  has(id: number): boolean {
    if (Number.isInteger(id) && id >= 0 && id < this.bits.length * 32) {
      return (this.bits[id >>> 5]! & (1 << (id & 31))) !== 0;
    }
    return this.others.has(id);
  }

  private fitsBits(id: number): boolean {
    if (!Number.isInteger(id) || id < 0 || id > MAX_BIT) return false;
    if (id < this.bits.length * 32) return true;
    return id < BITS_PER_ID * this.added + MIN_BITS;
  }

  /** Grows the bits to hold `word`, moving the ids of the Set that now fit into them. */
  private grow(word: number): void {
    let size = this.bits.length;
    while (size <= word) size *= 2;
    const bits = new Uint32Array(size);
    bits.set(this.bits);
    this.bits = bits;
    for (const id of this.others) {
      if (Number.isInteger(id) && id >= 0 && id < size * 32) {
        bits[id >>> 5] = bits[id >>> 5]! | (1 << (id & 31));
        this.others.delete(id);
      }
    }
  }
}
