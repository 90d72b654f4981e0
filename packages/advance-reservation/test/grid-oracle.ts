/**
 * A brute-force model of a reservation timeline for the property tests: a per-PE grid of unit
 * time cells `[t, t + 1)` for integer `t` in `[0, H)`, nothing reserved outside it. Everything
 * the structure computes cleverly is recomputed here cell by cell, from the definitions.
 */

/** The readings of which PEs a reservation takes (the oracle's own statement of them). */
export type OracleSelection =
  | "lowest-index"
  | "highest-index"
  | "soonest-reserved"
  | "latest-released";

export type Scores = (r: { start: number; begin: number; end: number; freePEs: number }) => number;

/** The seven policies as (name, score, direction): the oracle's own statement of section 5. */
export const ORACLE_POLICIES: readonly { name: string; score: Scores; dir: 1 | -1 }[] = [
  { name: "FF", score: (r) => r.start, dir: 1 },
  { name: "PE_B", score: (r) => r.freePEs, dir: 1 },
  { name: "PE_W", score: (r) => r.freePEs, dir: -1 },
  { name: "Du_B", score: (r) => r.end - r.begin, dir: 1 },
  { name: "Du_W", score: (r) => r.end - r.begin, dir: -1 },
  { name: "PEDu_B", score: (r) => r.freePEs * (r.end - r.begin), dir: 1 },
  { name: "PEDu_W", score: (r) => r.freePEs * (r.end - r.begin), dir: -1 },
];

export class Grid {
  readonly cells: boolean[][];
  constructor(
    readonly pes: number,
    readonly horizon: number,
  ) {
    this.cells = Array.from({ length: horizon }, () => new Array<boolean>(pes).fill(false));
  }

  busy(t: number, p: number): boolean {
    return t >= 0 && t < this.horizon && this.cells[t]![p]!;
  }

  busySet(t: number): number[] {
    const out: number[] = [];
    for (let p = 0; p < this.pes; p++) if (this.busy(t, p)) out.push(p);
    return out;
  }

  /** True when some PE of `pes` is busy in some cell of `[ts, te)`. */
  conflicts(ts: number, te: number, pes: readonly number[]): boolean {
    for (let t = ts; t < te; t++) for (const p of pes) if (this.busy(t, p)) return true;
    return false;
  }

  /** True when every PE of `pes` is busy in every cell of `[ts, te)`. */
  holds(ts: number, te: number, pes: readonly number[]): boolean {
    for (let t = ts; t < te; t++) for (const p of pes) if (!this.busy(t, p)) return false;
    return true;
  }

  set(ts: number, te: number, pes: readonly number[], value: boolean): void {
    for (let t = ts; t < te; t++) for (const p of pes) this.cells[t]![p] = value;
  }

  /** The minimal records from `origin` on: a record wherever the busy set differs from the cell before (empty before origin). */
  records(origin = 0): { time: number; busy: number[] }[] {
    const out: { time: number; busy: number[] }[] = [];
    let prev = "";
    for (let t = origin; t <= this.horizon; t++) {
      const set = this.busySet(t);
      const key = set.join(",");
      if (key !== prev) out.push({ time: t, busy: set });
      prev = key;
    }
    return out;
  }

  freeDuring(ts: number, te: number): number[] {
    const out: number[] = [];
    for (let p = 0; p < this.pes; p++) {
      let ok = true;
      for (let t = ts; t < te && ok; t++) if (this.busy(t, p)) ok = false;
      if (ok) out.push(p);
    }
    return out;
  }

  /** The maximum availability rectangle of start `s`, from the cells. */
  rectangle(s: number, tdu: number, origin = 0, cap = Number.POSITIVE_INFINITY) {
    const free = this.freeDuring(s, s + tdu);
    const allFree = (t: number) => free.every((p) => !this.busy(t, p));
    let begin = s;
    while (begin > origin && allFree(begin - 1)) begin--;
    let end = s + tdu;
    while (end < this.horizon && end < cap && allFree(end)) end++;
    return {
      free,
      rect: {
        start: s,
        begin,
        end: Math.min(end >= this.horizon ? Number.POSITIVE_INFINITY : end, cap),
        freePEs: free.length,
      },
    };
  }

  /**
   * `n` of the PEs `free` (all free in `[ts, te)`) by `selection`, increasing, from the cells:
   * the next busy cell at or after `te` (none: Infinity), or the end of the last busy cell in
   * `[origin, ts)` (none: -Infinity); ties to the lower index.
   */
  pick(
    free: readonly number[],
    ts: number,
    te: number,
    n: number,
    selection: OracleSelection,
    origin = 0,
  ): number[] {
    const key = (p: number): number => {
      if (selection === "lowest-index") return p;
      if (selection === "highest-index") return -p;
      if (selection === "soonest-reserved") {
        for (let t = te; t < this.horizon; t++) if (this.busy(t, p)) return t;
        return Number.POSITIVE_INFINITY;
      }
      for (let t = ts - 1; t >= origin; t--) if (this.busy(t, p)) return -(t + 1);
      return Number.POSITIVE_INFINITY;
    };
    return [...free]
      .sort((a, b) => key(a) - key(b) || a - b)
      .slice(0, n)
      .sort((a, b) => a - b);
  }

  /** The paper's candidate start times, from the grid's change points. */
  candidates(tr: number, tdu: number, tdl: number, origin = 0): number[] {
    const a = Math.max(tr, origin);
    const latest = tdl - tdu;
    if (latest < a) return [];
    const slots = this.records(origin).map((r) => r.time);
    const set = new Set<number>([a, latest]);
    for (const t of slots) {
      if (t >= a && t <= latest) set.add(t);
      if (t - tdu >= a && t - tdu <= latest) set.add(t - tdu);
    }
    return [...set].sort((x, y) => x - y);
  }

  /** findAllocation by brute force: the best rectangle for the policy among the candidates, ties earliest. */
  find(
    tr: number,
    tdu: number,
    tdl: number,
    n: number,
    policy: (typeof ORACLE_POLICIES)[number],
    origin = 0,
    clipToDeadline = true,
    selection: OracleSelection = "lowest-index",
  ) {
    let best: { start: number; begin: number; end: number; freePEs: number } | null = null;
    let bestFree: number[] = [];
    for (const s of this.candidates(tr, tdu, tdl, origin)) {
      const cap = clipToDeadline ? tdl : Number.POSITIVE_INFINITY;
      const { free, rect } = this.rectangle(s, tdu, origin, cap);
      if (free.length < n) continue;
      const better =
        best === null ||
        (policy.dir === 1
          ? policy.score(rect) < policy.score(best)
          : policy.score(rect) > policy.score(best));
      if (better) {
        best = rect;
        bestFree = free;
      }
    }
    if (best === null) return null;
    const pes = this.pick(bestFree, best.start, best.start + tdu, n, selection, origin);
    return { start: best.start, end: best.start + tdu, pes, rectangle: best };
  }

  /** Whether any integer start in `[tr, tdl - tdu]` has `n` PEs free throughout. */
  anyFeasible(tr: number, tdu: number, tdl: number, n: number): boolean {
    for (let s = tr; s + tdu <= tdl; s++) if (this.freeDuring(s, s + tdu).length >= n) return true;
    return false;
  }
}
