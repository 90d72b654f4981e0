import type { Job } from "./types.js";

/** What the queue needs of an entry: its job, and two flags the engine sets. */
export interface QueueEntry {
  readonly job: Job;
  /** Left the queue (started, rejected); stays in the array until the queue is tidied. */
  removed: boolean;
  /** Preempted in the current call and not yet in the array (it enters when the call returns). */
  pending: boolean;
}

/** Arrays up to this length are left-trimmed by V8's `shift` in O(1). */
export const SHIFT_LIMIT = 16_000;

/** After a call, dead entries past the head are compacted once more than this many (and half). */
export const COMPACT_ABOVE = 32;

function queueBefore(a: Job, b: Job): boolean {
  return a.submit < b.submit || (a.submit === b.submit && a.id < b.id);
}

/**
 * The engine's waiting queue in queue order (submit, then id), as the policy's view shows it.
 *
 * The queue is `entries[head..]`: entries before `head` are dead (left the queue) and are trimmed
 * lazily; `dead` counts dead entries at or after `head` (marked `removed`, still in place).
 * Removing the head is O(1): the next preparation moves `head` past it, and the dead prefix is
 * trimmed when it exceeds half of the array (one move of the live half, amortised O(1) per
 * removal) or when a policy reads the whole array, which must be a real array starting at the
 * queue's head. During a `schedule` call the first read takes a snapshot that holds until the
 * call returns (`beginCall` starts a call).
 *
 * `shiftLimit` is where trimming switches from `shift` (O(1) left-trim below ~16k entries in V8)
 * to one `splice` of the live part, and `compactAbove` how many dead entries past the head a
 * call may leave before they are compacted; a test passes small ones to exercise every path on
 * short queues. Internal (not exported from the package).
 */
export class WaitingQueue<E extends QueueEntry> {
  private readonly entries: E[] = [];
  private head = 0;
  private dead = 0;
  private frozen = false;

  constructor(
    private readonly shiftLimit = SHIFT_LIMIT,
    private readonly compactAbove = COMPACT_ABOVE,
  ) {}

  /** A `schedule` call starts: the next read takes the call's snapshot. */
  beginCall(): void {
    this.frozen = false;
  }

  /** The queue as a real array starting at its head (the call's snapshot when `inCall`). */
  array(inCall: boolean): readonly E[] {
    this.prepare(inCall);
    // Entries before the head are dead even during a call: trimming them keeps the snapshot.
    if (this.head > 0) this.trimHead();
    return this.entries;
  }

  /** `array(inCall)[index]`, in O(1) without building the array. */
  at(index: number, inCall: boolean): E | undefined {
    this.prepare(inCall);
    if (!(index >= 0) || !Number.isInteger(index)) return undefined;
    return this.entries[this.head + index];
  }

  /** `array(inCall).length`, in O(1). */
  count(inCall: boolean): number {
    this.prepare(inCall);
    return this.entries.length - this.head;
  }

  /** Inserts `entry` at its queue position: O(1) after the tail (arrivals), else O(log n + moves). */
  insert(entry: E): void {
    const w = this.entries;
    const job = entry.job;
    if (w.length === this.head || queueBefore(w[w.length - 1]!.job, job)) {
      w.push(entry);
      return;
    }
    let lo = this.head;
    let hi = w.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (queueBefore(w[mid]!.job, job)) lo = mid + 1;
      else hi = mid;
    }
    w.splice(lo, 0, entry);
  }

  /** Marks `entry` as gone (it stays in the array, and in a call's snapshot, until tidied). */
  remove(entry: E): void {
    entry.removed = true;
    // Only entries in the array count (a job preempted in this call is not there yet).
    if (!entry.pending) this.dead++;
  }

  /** Amortised clean-up after a call, so dead entries do not pile up when the policy never reads. */
  tidy(): void {
    if (this.dead === 0) return;
    // Cheap part first: the dead prefix.
    const h = this.skipDeadPrefix();
    if (this.dead > this.compactAbove && this.dead * 2 > this.entries.length - h) this.dropDead();
    else this.maybeTrimHead();
  }

  /** Every live entry, in queue order (for error messages and the end of a run). O(n). */
  live(): E[] {
    const out: E[] = [];
    for (let i = this.head; i < this.entries.length; i++) {
      const e = this.entries[i]!;
      if (!e.removed) out.push(e);
    }
    return out;
  }

  private prepare(inCall: boolean): void {
    if (inCall && this.frozen) return;
    if (this.dead > 0) this.dropDead();
    if (inCall) this.frozen = true;
  }

  /** Moves the head past a dead prefix (each entry is passed once); returns the new head. */
  private skipDeadPrefix(): number {
    const w = this.entries;
    let h = this.head;
    while (this.dead > 0 && h < w.length && w[h]!.removed) {
      h++;
      this.dead--;
    }
    this.head = h;
    return h;
  }

  /** Moves the head past dead entries and compacts dead entries after it. */
  private dropDead(): void {
    const w = this.entries;
    const h = this.skipDeadPrefix();
    if (this.dead > 0) {
      let j = h;
      for (let i = h; i < w.length; i++) {
        const e = w[i]!;
        if (!e.removed) w[j++] = e;
      }
      w.length = j;
      this.dead = 0;
    }
    this.maybeTrimHead();
  }

  /** Trims the dead prefix when it is cheap (short array) or more than half of the array. */
  private maybeTrimHead(): void {
    const h = this.head;
    if (h > 0 && (this.entries.length <= this.shiftLimit || h * 2 >= this.entries.length)) {
      this.trimHead();
    }
  }

  private trimHead(): void {
    const w = this.entries;
    const h = this.head;
    if (w.length <= this.shiftLimit || h <= 8) {
      // shift() lets V8 left-trim the backing store in O(1) below ~16k entries; above, each
      // shift is one move of the array, still the fastest way to drop a few entries.
      for (let i = 0; i < h; i++) w.shift();
    } else {
      // One move of the live part instead of one per dropped entry.
      w.splice(0, h);
    }
    this.head = 0;
  }
}
