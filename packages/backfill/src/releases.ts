import type { RunningJob } from "@sched/core";

/**
 * The cores the running jobs give back, by estimated end: a sorted list of distinct release
 * times with the cores released at each, kept between scheduling events and brought up to date
 * from `view.running` at each one instead of being sorted again. Internal to the package.
 *
 * {@link ReleaseSet.sync} walks the running jobs next to the list it saw last time (the same
 * job objects with the same estimated ends match; every other job seen last time is taken out
 * and every other job now is put in), so the result is the release list of `running` whatever
 * changed (completions, starts, preemptions, an estimated end moved by a contention model, a
 * view this set has never seen). It is cheapest when `running` is the previous list minus
 * some jobs plus new ones at its end, which is what the engine's list (by start time) is.
 *
 * Complexity: `sync` O(R) to compare, plus O(log D + D) per job in or out (D distinct times).
 */
export class ReleaseSet {
  // The running jobs and their estimated ends at the last sync, in the order seen: the first
  // `count` entries (the arrays are not truncated, so that their storage is reused).
  private seen: RunningJob[] = [];
  private seenEnd = new Float64Array(64);
  private next: RunningJob[] = [];
  private nextEnd = new Float64Array(64);
  private count = 0;
  /** Distinct release times, ascending; `cores[i]` is released at `times[i]`. */
  times = new Float64Array(64);
  cores = new Float64Array(64);
  /** Number of distinct release times. */
  size = 0;

  /** Brings the list up to date with `running`. */
  sync(running: readonly RunningJob[]): void {
    const n = running.length;
    if (this.nextEnd.length < n) {
      let cap = this.nextEnd.length * 2;
      while (cap < n) cap *= 2;
      this.nextEnd = new Float64Array(cap);
    }
    const seen = this.seen;
    const seenEnd = this.seenEnd;
    const next = this.next;
    const nextEnd = this.nextEnd;
    const count = this.count;
    let j = 0;
    for (let i = 0; i < n; i++) {
      const r = running[i]!;
      const end = r.estimatedEnd;
      while (j < count && seen[j] !== r) {
        this.change(seenEnd[j]!, -seen[j]!.job.cores);
        j++;
      }
      if (j < count) {
        if (seenEnd[j] !== end) {
          this.change(seenEnd[j]!, -r.job.cores);
          this.change(end, r.job.cores);
        }
        j++;
      } else {
        this.change(end, r.job.cores);
      }
      next[i] = r;
      nextEnd[i] = end;
    }
    for (; j < count; j++) this.change(seenEnd[j]!, -seen[j]!.job.cores);
    this.seen = next;
    this.seenEnd = nextEnd;
    this.next = seen;
    this.nextEnd = seenEnd;
    this.count = n;
  }

  /** Forgets every job (the next sync starts from an empty list). */
  clear(): void {
    this.seen.length = 0;
    this.next.length = 0;
    this.count = 0;
    this.size = 0;
  }

  /** Adds `delta` cores released at `t`, inserting or removing the time as needed. */
  private change(t: number, delta: number): void {
    const times = this.times;
    const size = this.size;
    let lo = 0;
    let hi = size;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (times[mid]! < t) lo = mid + 1;
      else hi = mid;
    }
    if (lo < size && times[lo] === t) {
      const c = this.cores[lo]! + delta;
      if (c === 0) {
        times.copyWithin(lo, lo + 1, size);
        this.cores.copyWithin(lo, lo + 1, size);
        this.size = size - 1;
      } else {
        this.cores[lo] = c;
      }
      return;
    }
    if (size === times.length) {
      const t2 = new Float64Array(2 * size);
      const c2 = new Float64Array(2 * size);
      t2.set(times);
      c2.set(this.cores);
      this.times = t2;
      this.cores = c2;
    }
    this.times.copyWithin(lo + 1, lo, size);
    this.cores.copyWithin(lo + 1, lo, size);
    this.times[lo] = t;
    this.cores[lo] = delta;
    this.size = size + 1;
  }
}
