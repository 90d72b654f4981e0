import { InvalidInputError } from "@sched/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Mapping } from "../src/mapping.js";
import { mct } from "../src/mct.js";
import { etcLists, firstMapped, maxMin, minMin } from "../src/min-min.js";

type Rule = "min" | "max" | "mct";

/**
 * The heuristics by their textbook definitions, recomputing every completion time at every step
 * (no incremental bookkeeping): the oracle the fast versions must match exactly.
 */
function bruteForce(etc: number[], n: number, m: number, ready0: number[], rule: Rule) {
  const ready = ready0.slice();
  const machineOf = new Array<number>(n).fill(-1);
  const order: number[] = [];
  const bestOf = (t: number): [number, number] => {
    let bm = -1;
    let be = Number.POSITIVE_INFINITY;
    for (let j = 0; j < m; j++) {
      const c = ready[j]! + etc[t * m + j]!;
      if (etc[t * m + j] !== Number.POSITIVE_INFINITY && c < be) [bm, be] = [j, c];
    }
    return [bm, be];
  };
  if (rule === "mct") {
    for (let t = 0; t < n; t++) {
      const [bm, be] = bestOf(t);
      if (bm < 0) continue;
      machineOf[t] = bm;
      ready[bm] = be;
      order.push(t);
    }
  } else {
    const left = new Set<number>();
    for (let t = 0; t < n; t++) if (bestOf(t)[0] >= 0) left.add(t);
    while (left.size > 0) {
      let pick = -1;
      let pickEnd = 0;
      let pickMachine = -1;
      for (const t of [...left].sort((a, b) => a - b)) {
        const [bm, be] = bestOf(t);
        if (pick < 0 || (rule === "min" ? be < pickEnd : be > pickEnd)) {
          [pick, pickEnd, pickMachine] = [t, be, bm];
        }
      }
      machineOf[pick] = pickMachine;
      ready[pickMachine] = pickEnd;
      order.push(pick);
      left.delete(pick);
    }
  }
  return { machineOf, order, makespan: Math.max(0, ...ready) };
}

const run = { min: minMin, max: maxMin, mct } as const;

/** Checks the mapping is a consistent schedule: back-to-back tasks per machine from `ready`. */
function checkTimes(map: Mapping, etc: number[], m: number, ready0: number[]): void {
  const ready = ready0.slice();
  for (const t of map.order) {
    const j = map.machineOf[t]!;
    expect(map.start[t]).toBe(ready[j]);
    expect(map.end[t]).toBeCloseTo(ready[j]! + etc[t * m + j]!, 9);
    ready[j] = map.end[t]!;
  }
}

describe("minMin / maxMin / mct on a hand-worked example", () => {
  // tasks x machines: t0 [2, 4], t1 [3, 6], t2 [10, 12], t3 [1, 3]
  const problem = { tasks: 4, machines: 2, etc: [2, 4, 3, 6, 10, 12, 1, 3] };

  it("Min-Min maps the small tasks first: t3, t0, t1 on m0, then t2 on m1; makespan 12", () => {
    const r = minMin(problem);
    expect(Array.from(r.order)).toEqual([3, 0, 1, 2]);
    expect(Array.from(r.machineOf)).toEqual([0, 0, 1, 0]);
    expect(Array.from(r.end)).toEqual([3, 6, 12, 1]);
    expect(r.makespan).toBe(12);
  });

  it("Max-Min maps t2 first on m0 and packs the rest on m1; makespan 11", () => {
    const r = maxMin(problem);
    expect(Array.from(r.order)).toEqual([2, 1, 0, 3]);
    expect(Array.from(r.machineOf)).toEqual([1, 1, 0, 0]);
    expect(r.makespan).toBe(11);
  });

  it("MCT takes the tasks in order; makespan 12", () => {
    const r = mct(problem);
    expect(Array.from(r.machineOf)).toEqual([0, 0, 1, 0]);
    expect(Array.from(r.start)).toEqual([0, 2, 0, 5]);
    expect(r.makespan).toBe(12);
  });

  it("respects machine ready times and leaves out tasks no machine can run", () => {
    const r = minMin({ tasks: 2, machines: 2, etc: [1, 1, Infinity, Infinity], ready: [5, 0] });
    expect(Array.from(r.machineOf)).toEqual([1, -1]);
    expect(Array.from(r.order)).toEqual([0]);
    expect(Number.isNaN(r.start[1])).toBe(true);
    expect(r.makespan).toBe(5);
  });

  it("validates the problem", () => {
    expect(() => minMin({ tasks: 2, machines: 2, etc: [1, 2, 3] })).toThrow(
      "@sched/elo/minMin: problem.etc has length 3, expected tasks * machines = 4",
    );
    expect(() => mct({ tasks: 1, machines: 1, etc: [Number.NaN] })).toThrow(InvalidInputError);
    expect(() => mct(null as never)).toThrow("@sched/elo/mct: problem is null, expected {");
    expect(() => maxMin({ tasks: 1, machines: 1, etc: [1], ready: [1, 2] })).toThrow(
      "problem.ready",
    );
    // a machine's ready time is a finite time (Infinity is refused, not read as "never ready")
    for (const bad of [Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.NaN]) {
      expect(() => minMin({ tasks: 1, machines: 2, etc: [1, 1], ready: [0, bad] })).toThrow(
        `@sched/elo/minMin: problem.ready[1] is ${bad}, expected a finite number`,
      );
    }
    expect(() => mct({ tasks: 1, machines: 1, etc: [-1] })).toThrow("problem.etc[0]");
  });
});

describe("minMin / maxMin / mct against their brute-force definitions", () => {
  const instance = fc
    .tuple(fc.integer({ min: 0, max: 7 }), fc.integer({ min: 1, max: 4 }))
    .chain(([n, m]) =>
      fc.record({
        n: fc.constant(n),
        m: fc.constant(m),
        // small integers force ties; Infinity marks ineligible pairs
        etc: fc.array(fc.oneof(fc.integer({ min: 0, max: 6 }), fc.constant(Infinity)), {
          minLength: n * m,
          maxLength: n * m,
        }),
        ready: fc.array(fc.integer({ min: 0, max: 5 }), { minLength: m, maxLength: m }),
      }),
    );

  for (const rule of ["min", "max", "mct"] as const) {
    it(`${rule === "min" ? "minMin" : rule === "max" ? "maxMin" : "mct"} matches the definition on every small instance`, () => {
      fc.assert(
        fc.property(instance, ({ n, m, etc, ready }) => {
          const got = run[rule]({ tasks: n, machines: m, etc, ready });
          const want = bruteForce(etc, n, m, ready, rule);
          expect(Array.from(got.machineOf)).toEqual(want.machineOf);
          expect(Array.from(got.order)).toEqual(want.order);
          expect(got.makespan).toBe(want.makespan);
          checkTimes(got, etc, m, ready);
        }),
        { numRuns: 300 },
      );
    });
  }

  it("on one machine, Min-Min is shortest-first and Max-Min longest-first", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 100 }), { maxLength: 12 }), (times) => {
        const p = { tasks: times.length, machines: 1, etc: times };
        const idx = times.map((_, i) => i);
        const spt = idx.slice().sort((a, b) => times[a]! - times[b]! || a - b);
        const lpt = idx.slice().sort((a, b) => times[b]! - times[a]! || a - b);
        expect(Array.from(minMin(p).order)).toEqual(spt);
        expect(Array.from(maxMin(p).order)).toEqual(lpt);
      }),
    );
  });
});

describe("firstMapped (the online schedulers' form): the mapping up to the last wanted machine's first task", () => {
  it("is the prefix of minMin's / maxMin's order that ends when every wanted machine has a task", () => {
    const instance = fc
      .tuple(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 1, max: 6 }))
      .chain(([n, m]) =>
        fc.record({
          n: fc.constant(n),
          m: fc.constant(m),
          etc: fc.array(fc.oneof(fc.integer({ min: 0, max: 9 }), fc.constant(Infinity)), {
            minLength: n * m,
            maxLength: n * m,
          }),
          ready: fc.array(fc.integer({ min: 0, max: 5 }), { minLength: m, maxLength: m }),
          wanted: fc.array(fc.boolean(), { minLength: m, maxLength: m }),
          largest: fc.boolean(),
        }),
      );
    fc.assert(
      fc.property(instance, ({ n, m, etc, ready, wanted, largest }) => {
        const full = bruteForce(etc, n, m, ready, largest ? "max" : "min");
        // where the definition gives the last wanted machine its first task
        const waiting = new Set(wanted.flatMap((w, j) => (w ? [j] : [])));
        let cut = full.order.length;
        for (let k = 0; k < full.order.length && waiting.size > 0; k++) {
          waiting.delete(full.machineOf[full.order[k]!]!);
          if (waiting.size === 0) cut = k + 1;
        }
        const got = firstMapped(
          n,
          m,
          etcLists(n, m, etc),
          Float64Array.from(ready),
          largest,
          Uint8Array.from(wanted, (w) => (w ? 1 : 0)),
        );
        expect(got.order).toEqual(full.order.slice(0, cut));
        for (const t of got.order) expect(got.machineOf[t]).toBe(full.machineOf[t]);
        // and the full heuristics on these larger instances still match the definition
        const whole = (largest ? maxMin : minMin)({ tasks: n, machines: m, etc, ready });
        expect(Array.from(whole.order)).toEqual(full.order);
        expect(Array.from(whole.machineOf)).toEqual(full.machineOf);
      }),
      { numRuns: 300 },
    );
  });
});
