/** Processors per block of {@link ProcessorPool}'s counts (32 words of 32 bits). */
const BLOCK_BITS = 10;

/**
 * The pool of available processors of the space-sharing decision, kept as it changes: one flag
 * per processor (`flags`, what the plain code reads), the same flags as bits of 32-bit words,
 * and a count per block of 1,024 processors. The available processors in index order, or those
 * of given ranks (rank r: the r-th available one in index order, from 0), are then found by
 * skipping empty blocks and words instead of reading every flag: on a machine of 131,072
 * processors, 128 block counts and the words of the blocks read, not 131,072 flags. Internal
 * (the core path keeps one between calls; the public pass builds one per call).
 *
 * Complexity: `set` O(1); `firstAvailable(c)` and `select` O(M / 1024 + 32 per block read +
 * bits passed), M processors.
 */
export class ProcessorPool {
  /** One per processor: 1 available, 0 not. Read it; change it by {@link ProcessorPool.set} only. */
  readonly flags: Uint8Array;
  private readonly words: Int32Array;
  private readonly blocks: Int32Array;
  private available = 0;

  constructor(readonly size: number) {
    this.flags = new Uint8Array(size);
    this.words = new Int32Array((size + 31) >>> 5);
    this.blocks = new Int32Array((size + (1 << BLOCK_BITS) - 1) >>> BLOCK_BITS);
  }

  /** How many processors are available. */
  get count(): number {
    return this.available;
  }

  /** Marks processor `m` available (`f` 1) or not (0). */
  set(m: number, f: number): void {
    if (this.flags[m] === f) return;
    this.flags[m] = f;
    const bit = 1 << (m & 31);
    if (f) {
      this.words[m >>> 5]! |= bit;
      this.blocks[m >>> BLOCK_BITS]!++;
      this.available++;
    } else {
      this.words[m >>> 5]! &= ~bit;
      this.blocks[m >>> BLOCK_BITS]!--;
      this.available--;
    }
  }

  /** Marks the available processors `list` not available (each once; faster than `set` one by one). */
  take(list: readonly number[]): void {
    const { flags, words, blocks } = this;
    for (let i = 0; i < list.length; i++) {
      const m = list[i]!;
      flags[m] = 0;
      words[m >>> 5]! &= ~(1 << (m & 31));
      blocks[m >>> BLOCK_BITS]!--;
    }
    this.available -= list.length;
  }

  /** The first `count` available processors in index order (fewer when fewer are available). */
  firstAvailable(count: number): number[] {
    const c = Math.max(0, Math.min(count, this.available));
    const out = new Array<number>(c);
    const { words, blocks } = this;
    let i = 0;
    for (let b = 0; i < c && b < blocks.length; b++) {
      if (blocks[b] === 0) continue;
      const end = Math.min(words.length, (b + 1) << (BLOCK_BITS - 5));
      for (let w = b << (BLOCK_BITS - 5); w < end && i < c; w++) {
        let x = words[w]!;
        while (x !== 0 && i < c) {
          const low = x & -x;
          out[i++] = (w << 5) + 31 - Math.clz32(low);
          x ^= low;
        }
      }
    }
    return out;
  }

  /** Writes the available processors in index order to `out` (room for `count`). */
  listInto(out: Int32Array): void {
    const { words, blocks } = this;
    let i = 0;
    for (let b = 0; b < blocks.length; b++) {
      if (blocks[b] === 0) continue;
      const end = Math.min(words.length, (b + 1) << (BLOCK_BITS - 5));
      for (let w = b << (BLOCK_BITS - 5); w < end; w++) {
        let x = words[w]!;
        while (x !== 0) {
          const low = x & -x;
          out[i++] = (w << 5) + 31 - Math.clz32(low);
          x ^= low;
        }
      }
    }
  }

  /**
   * The processors of ranks `ranks[0..length)`, which must be increasing and below `count`:
   * `out[i]` is the `ranks[i]`-th available processor (so `out` is increasing too).
   * @throws RangeError for a rank out of order or not below `count` (a caller's bug).
   */
  select(ranks: Int32Array, length: number, out: number[]): void {
    const { words, blocks } = this;
    let b = 0;
    let blockBase = 0; // available processors before block b
    let w = 0;
    let mask = 0; // the bits of word w not passed yet
    let at = 0; // rank of mask's lowest bit (of the word's first bit past, if mask is 0)
    let started = false;
    let previous = -1;
    for (let i = 0; i < length; i++) {
      const r = ranks[i]!;
      // (else the search below would run past the last word)
      if (!(r > previous && r < this.available)) {
        throw new RangeError(
          `rank ${r} at ${i}: expected increasing ranks below ${this.available}`,
        );
      }
      previous = r;
      if (!started || r >= blockBase + blocks[b]!) {
        while (r >= blockBase + blocks[b]!) blockBase += blocks[b++]!;
        w = b << (BLOCK_BITS - 5);
        mask = words[w]!;
        at = blockBase;
        started = true;
      }
      for (;;) {
        const c = popcount(mask);
        if (r < at + c) break;
        at += c;
        if (++w >= words.length) throw new RangeError(`rank ${r}: the words hold fewer`);
        mask = words[w]!;
      }
      for (; at < r; at++) mask &= mask - 1;
      const low = mask & -mask;
      out[i] = (w << 5) + 31 - Math.clz32(low);
      mask ^= low;
      at++;
    }
  }
}

/** Set bits of a 32-bit word. */
function popcount(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}
