import { indexHash } from "@sched/random";

/**
 * The ids seen so far (job numbers, kept or dropped, or the ids a writer has written), to refuse
 * one given twice. Ids that arrive in increasing order (the archive's logs, the generators' jobs)
 * are stored as runs of consecutive numbers (one run for 1, 2, 3, …; a new run after each gap),
 * the others in an open-addressing table, at most 3/4 full, of 32-bit integers while every id in
 * it is below 2^32 − 1 (then of doubles). A streamed log of millions of jobs in order then holds a
 * few runs; out of order, 5.3 to 11 bytes an id (11 to 22 past 2^32; a `Set` of numbers took
 * about 49, and threw a RangeError past 2^24 ids).
 *
 * Complexity: `add` O(1) for an increasing id, O(log runs) + O(1) expected otherwise. Internal
 * (the SWF clean-up and the jobs writers). Ids must be integers from 0 to 2^53 − 1: every caller
 * checks them first.
 */
export class KeptIds {
  /** Runs [lo, hi] of increasing numbers, as pairs. */
  private runs = new Float64Array(64);
  private runCount = 0;
  /**
   * The ids below the last run's end that are in no run: an id or empty per slot (EMPTY32 in a
   * Uint32Array, EMPTY in a Float64Array once an id does not fit 32 bits).
   */
  private table: Uint32Array | Float64Array | null = null;
  /** How many ids the table holds. */
  private tableSize = 0;

  /** Adds `id`; false when it is there already. */
  add(id: number): boolean {
    const n = this.runCount;
    const last = n === 0 ? Number.NEGATIVE_INFINITY : this.runs[2 * n - 1]!;
    if (id > last) {
      if (n > 0 && id === last + 1) this.runs[2 * n - 1] = id;
      else this.push(id);
      return true;
    }
    if (this.inRuns(id)) return false;
    return this.addToTable(id);
  }

  /** Bytes held (the runs and the table), for measurements. */
  get bytes(): number {
    return this.runs.byteLength + (this.table === null ? 0 : this.table.byteLength);
  }

  private push(id: number): void {
    if (2 * this.runCount + 2 > this.runs.length) {
      const grown = new Float64Array(this.runs.length * 2);
      grown.set(this.runs);
      this.runs = grown;
    }
    this.runs[2 * this.runCount] = id;
    this.runs[2 * this.runCount + 1] = id;
    this.runCount++;
  }

  private inRuns(id: number): boolean {
    let lo = 0;
    let hi = this.runCount - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (id < this.runs[2 * mid]!) hi = mid - 1;
      else if (id > this.runs[2 * mid + 1]!) lo = mid + 1;
      else return true;
    }
    return false;
  }

  /** Adds `id` to the table (linear probing, at most 3/4 full); false when it is there. */
  private addToTable(id: number): boolean {
    let table = this.table;
    if (table === null || 4 * (this.tableSize + 1) > 3 * table.length) {
      table = this.grow(table === null ? 1024 : 2 * table.length, id);
    } else if (id >= EMPTY32 && table instanceof Uint32Array) {
      table = this.grow(table.length, id);
    }
    const empty = table instanceof Uint32Array ? EMPTY32 : EMPTY;
    const mask = table.length - 1;
    for (let i = slotOf(id) & mask; ; i = (i + 1) & mask) {
      const s = table[i]!;
      if (s === id) return false;
      if (s === empty) {
        table[i] = id;
        this.tableSize++;
        return true;
      }
    }
  }

  /**
   * A table of `slots` slots, of doubles if the old one was or `id` does not fit 32 bits, every id
   * of the old one moved in.
   */
  private grow(slots: number, id: number): Uint32Array | Float64Array {
    const old = this.table;
    const wide = old instanceof Float64Array || id >= EMPTY32;
    const table = wide ? new Float64Array(slots).fill(EMPTY) : new Uint32Array(slots).fill(EMPTY32);
    const empty = wide ? EMPTY : EMPTY32;
    const mask = slots - 1;
    if (old !== null) {
      const oldEmpty = old instanceof Uint32Array ? EMPTY32 : EMPTY;
      for (let k = 0; k < old.length; k++) {
        const x = old[k]!;
        if (x === oldEmpty) continue;
        let i = slotOf(x) & mask;
        while (table[i] !== empty) i = (i + 1) & mask;
        table[i] = x;
      }
    }
    this.table = table;
    return table;
  }
}

/** An empty slot of a table of doubles (no id is negative). */
const EMPTY = -1;
/** An empty slot of a table of 32-bit integers: 2^32 − 1, an id such a table cannot hold. */
const EMPTY32 = 0xffffffff;

/**
 * Where the search for `id` starts: `@sched/random`'s `indexHash` of its two 32-bit halves (the
 * repository's one mixing function; ids up to 2^53 - 1, so the high half is below 2^21).
 */
function slotOf(id: number): number {
  return (indexHash(id >>> 0) ^ indexHash(Math.floor(id / 4294967296))) >>> 0;
}
