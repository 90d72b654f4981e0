import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type PageKit, pageKit } from "../src/report/page-kit.js";

const kit = pageKit();
/** The copy the page runs: the function's source text, evaluated on its own. */
const embedded = new Function(`return (${String(pageKit)})();`)() as PageKit;

/** Random bars on `lanes` lanes in [0, 100] s, and rows cutting the lanes into blocks. */
const arbChart = fc
  .record({
    rowSizes: fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 6 }),
    bars: fc.array(
      fc.record({
        s: fc.integer({ min: 0, max: 99 }),
        d: fc.integer({ min: 1, max: 60 }),
        lane: fc.nat(),
        lanes: fc.integer({ min: 1, max: 5 }),
      }),
      { maxLength: 25 },
    ),
    a: fc.integer({ min: 0, max: 50 }),
    span: fc.integer({ min: 1, max: 80 }),
    columns: fc.integer({ min: 1, max: 12 }),
  })
  .map(({ rowSizes, bars, a, span, columns }) => {
    const rowLane: number[] = [];
    let lanes = 0;
    for (const n of rowSizes) {
      rowLane.push(lanes);
      lanes += n;
    }
    const flat: number[] = [];
    for (const b of bars) {
      const lane = b.lane % lanes;
      flat.push(b.s, b.s + b.d, lane, Math.min(b.lanes, lanes - lane));
    }
    return { rowLane, rowLanes: rowSizes, flat, a, b: a + span, columns };
  });

/** Busy fraction of each cell, summed bar by bar and cell by cell (the oracle). */
function oracle(c: {
  rowLane: number[];
  rowLanes: number[];
  flat: number[];
  a: number;
  b: number;
  columns: number;
}): number[] {
  const w = (c.b - c.a) / c.columns;
  const out: number[] = [];
  c.rowLane.forEach((first, r) => {
    const last = first + (c.rowLanes[r] as number);
    for (let col = 0; col < c.columns; col++) {
      const t0 = c.a + col * w;
      const t1 = col === c.columns - 1 ? c.b : t0 + w;
      let busy = 0;
      for (let i = 0; i < c.flat.length; i += 4) {
        const [s, e, l0, n] = c.flat.slice(i, i + 4) as [number, number, number, number];
        const time = Math.max(0, Math.min(e, t1) - Math.max(s, t0));
        const lanes = Math.max(0, Math.min(l0 + n, last) - Math.max(l0, first));
        busy += time * lanes;
      }
      const f = busy / ((c.rowLanes[r] as number) * w);
      out.push(f < 1e-9 ? 0 : Math.min(1, f));
    }
  });
  return out;
}

describe("pageKit: the Gantt chart's binning, shared by the report writer and the page", () => {
  it("heatBins(...) equals the cell-by-cell busy fraction of every row and time bin", () => {
    fc.assert(
      fc.property(arbChart, (c) => {
        const got = kit.heatBins(c.flat, c.rowLane, c.rowLanes, c.a, c.b, c.columns);
        const want = oracle(c);
        expect(got.length).toBe(want.length);
        want.forEach((v, i) => {
          expect(got[i]).toBeCloseTo(v, 9);
        });
      }),
      { numRuns: 300 },
    );
  });

  it("the page's embedded copy gives the same bytes as the writer's", () => {
    fc.assert(
      fc.property(arbChart, (c) => {
        const args = [c.flat, c.rowLane, c.rowLanes, c.a, c.b, c.columns] as const;
        const occ = kit.heatBins(...args);
        expect([...embedded.heatBins(...args)]).toEqual([...occ]);
        const rowY = c.rowLane.map((l) => l * 3);
        const rowH = c.rowLanes.map((n) => n * 3);
        expect(embedded.heatPaths(occ, rowY, rowH, c.columns, 960, 8)).toEqual(
          kit.heatPaths(occ, rowY, rowH, c.columns, 960, 8),
        );
        expect(embedded.exactFits(c.flat, c.a, c.b, 960, 10)).toBe(
          kit.exactFits(c.flat, c.a, c.b, 960, 10),
        );
      }),
      { numRuns: 100 },
    );
  });

  it("heatPaths covers each busy cell exactly once, with the rectangle of its level, and no idle cell", () => {
    fc.assert(
      fc.property(arbChart, fc.integer({ min: 1, max: 8 }), (c, levels) => {
        const occ = kit.heatBins(c.flat, c.rowLane, c.rowLanes, c.a, c.b, c.columns);
        const rows = c.rowLane.length;
        // One unit per column and per row: the rectangles' corners are integers.
        const paths = kit.heatPaths(
          occ,
          c.rowLane.map((_, r) => r),
          c.rowLane.map(() => 1),
          c.columns,
          c.columns,
          levels,
        );
        const cover = new Array<number>(rows * c.columns).fill(0);
        paths.forEach((d, k) => {
          for (const m of d.matchAll(/M([\d.]+),([\d.]+)h([\d.]+)v1h-[\d.]+z/g)) {
            const [x, y, w] = [Number(m[1]), Number(m[2]), Number(m[3])];
            for (let col = x; col < x + w; col++) {
              const cell = y * c.columns + col;
              const f = occ[cell] as number;
              expect(Math.min(levels, Math.max(1, Math.ceil(f * levels - 1e-9)))).toBe(k + 1);
              cover[cell] = (cover[cell] as number) + 1;
            }
          }
        });
        cover.forEach((n, cell) => {
          expect(n).toBe((occ[cell] as number) > 0 ? 1 : 0);
        });
      }),
      { numRuns: 200 },
    );
  });

  it("utilBins is the lane-weighted mean of the rows' busy fractions", () => {
    fc.assert(
      fc.property(arbChart, (c) => {
        const occ = kit.heatBins(c.flat, c.rowLane, c.rowLanes, c.a, c.b, c.columns);
        const util = kit.utilBins(occ, c.rowLanes, c.columns);
        const lanes = c.rowLanes.reduce((s, n) => s + n, 0);
        for (let col = 0; col < c.columns; col++) {
          let want = 0;
          c.rowLanes.forEach((n, r) => {
            want += ((occ[r * c.columns + col] as number) * n) / lanes;
          });
          expect(util[col]).toBeCloseTo(want, 12);
        }
      }),
    );
  });

  it("exactFits: at most `limit` visible bars, at least half of them one unit wide", () => {
    // 10 bars of 1 s each over [0, 100]: at width 960 each is 9.6 units wide.
    const wide = Array.from({ length: 10 }, (_, i) => [i * 10, i * 10 + 1, 0, 1]).flat();
    expect(kit.exactFits(wide, 0, 100, 960, 10)).toBe(true);
    expect(kit.exactFits(wide, 0, 100, 960, 9)).toBe(false);
    // At width 50 each is half a unit: a smear.
    expect(kit.exactFits(wide, 0, 100, 50, 10)).toBe(false);
    // Zoomed on [0, 25]: three bars, each 38 units wide.
    expect(kit.exactFits(wide, 0, 25, 960, 3)).toBe(true);
  });

  it("timeAxis picks the unit that reads best and ticks inside the window", () => {
    expect(kit.timeAxis(0, 600, 8).unit).toBe("s");
    expect(kit.timeAxis(0, 7200, 8).unit).toBe("min");
    expect(kit.timeAxis(0, 86400, 8).unit).toBe("h");
    expect(kit.timeAxis(0, 30 * 86400, 8)).toMatchObject({
      unit: "d",
      seconds: 86400,
      labels: ["0", "5", "10", "15", "20", "25", "30"],
    });
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1e8, noNaN: true }),
        fc.double({ min: 1, max: 1e8, noNaN: true }),
        (a, span) => {
          const axis = kit.timeAxis(a, a + span, 8);
          expect(axis.ticks.length).toBeGreaterThanOrEqual(2);
          for (const t of axis.ticks) {
            expect(t).toBeGreaterThanOrEqual(a - span * 1e-6);
            expect(t).toBeLessThanOrEqual(a + span * (1 + 1e-6));
          }
        },
      ),
    );
  });
});
