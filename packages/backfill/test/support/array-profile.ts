// The plain-array oracle of the availability profile, shared by the property tests of
// UncheckedProfile (src/profile.ts) and AvailabilityProfile (src/availability-profile.ts). It
// shares no code with src/.

/**
 * The oracle: a plain array of `[time, free]` segments, changed the obvious way (split at both
 * ends, add to every segment inside, merge every pair of equal neighbours).
 */
export class ArrayProfile {
  segs: [number, number][];
  constructor(origin: number, free: number) {
    this.segs = [[origin, free]];
  }
  private split(t: number): void {
    let i = 0;
    while (i + 1 < this.segs.length && this.segs[i + 1]![0] <= t) i++;
    if (this.segs[i]![0] !== t) this.segs.splice(i + 1, 0, [t, this.segs[i]![1]]);
  }
  add(start: number, end: number, delta: number): void {
    if (delta === 0) return;
    const s = Math.max(start, this.segs[0]![0]);
    if (end <= s) return;
    this.split(s);
    if (end !== Number.POSITIVE_INFINITY) this.split(end);
    for (const seg of this.segs) if (seg[0] >= s && seg[0] < end) seg[1] += delta;
    const merged: [number, number][] = [];
    for (const seg of this.segs) {
      if (merged.length > 0 && merged[merged.length - 1]![1] === seg[1]) continue;
      merged.push([seg[0], seg[1]]);
    }
    this.segs = merged;
  }
  trimBefore(t: number): void {
    if (t <= this.segs[0]![0]) return;
    let i = 0;
    while (i + 1 < this.segs.length && this.segs[i + 1]![0] <= t) i++;
    this.segs = this.segs.slice(i);
    this.segs[0] = [t, this.segs[0]![1]];
  }
}

/**
 * The earliest start before `limit` (from `from`, `from` and every breakpoint after it the
 * candidates) of `amount` lasting `duration` on the segments `segs`, with `own` more free in
 * the segments that start at or after `ownStart`: the definition, tried candidate by candidate.
 */
export function reference(
  segs: [number, number][],
  q: { amount: number; duration: number; from: number; limit: number },
  ownStart: number,
  own: number,
): number {
  const first = Math.max(q.from, segs[0]![0]);
  const cands = [first, ...segs.map(([t]) => t).filter((t) => t > first)];
  for (const t of cands) {
    if (t >= q.limit) return Number.POSITIVE_INFINITY;
    let ok = true;
    for (let i = 0; i < segs.length && ok; i++) {
      const s0 = segs[i]![0];
      const s1 = i + 1 < segs.length ? segs[i + 1]![0] : Number.POSITIVE_INFINITY;
      const free = segs[i]![1] + (s0 >= ownStart ? own : 0);
      if (s1 > t && (s0 < t + q.duration || s0 <= t) && free < q.amount) ok = false;
    }
    if (ok) return t;
  }
  return Number.POSITIVE_INFINITY;
}
