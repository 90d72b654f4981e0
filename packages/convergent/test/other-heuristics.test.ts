import { createPlatform } from "@sched/core";
import { describe, expect, it } from "vitest";
import { antiAgingHeuristic } from "../src/anti-aging.js";
import type { HeuristicContext } from "../src/heuristic.js";
import { bandwidth, inputHeuristic, transferTime } from "../src/input.js";
import { overheadHeuristic } from "../src/overhead.js";
import { waitMinimizationHeuristic } from "../src/wait-minimization.js";
import { contextOf, farm, job, row, rowOf } from "./helpers.js";

describe("input heuristic", () => {
  // m0, m1 in cluster 0 (uplink 10 B/s), m2 in cluster 1 (uplink 5 B/s)
  const platform = createPlatform({
    machines: [{ cluster: 0 }, { cluster: 0 }, { cluster: 1 }],
    clusters: [{ link: 0 }, { link: 1 }],
    links: [
      { bandwidth: 10, latency: 0 },
      { bandwidth: 5, latency: 0 },
    ],
  });
  it("bandwidth: the smaller uplink; infinite on the same machine", () => {
    expect(bandwidth(platform, 0, 1)).toBe(10);
    expect(bandwidth(platform, 0, 2)).toBe(5);
    expect(bandwidth(platform, 2, 2)).toBe(Number.POSITIVE_INFINITY);
  });
  it("transferTime sums the inputs not on the machine over their bandwidth", () => {
    const j = job({
      id: 1,
      input: [
        { size: 100, machine: 0 },
        { size: 50, machine: 2 },
      ],
    });
    expect(transferTime(j, platform, 0)).toBe(50 / 5); // 10
    expect(transferTime(j, platform, 1)).toBe(100 / 10 + 50 / 5); // 20
    expect(transferTime(j, platform, 2)).toBe(100 / 5); // 20
  });
  it("Δ = IN (1 - Transf(m) / Σ Transf)", () => {
    const j = job({
      id: 1,
      input: [
        { size: 100, machine: 0 },
        { size: 50, machine: 2 },
      ],
    });
    const ctx = contextOf(platform, [rowOf(j)]);
    const p = new Float64Array(3);
    inputHeuristic().apply(ctx, p);
    // Σ = 50: [3 * (1 - 10/50), 3 * (1 - 20/50), 3 * (1 - 20/50)]
    expect(row(p, 0, 3).map((x) => +x.toFixed(12))).toEqual([2.4, 1.8, 1.8]);
  });
  it("gives IN everywhere when nothing has to move", () => {
    const ctx = contextOf(platform, [rowOf(job({ id: 1 }))]);
    const p = new Float64Array(3);
    inputHeuristic({ weight: 6 }).apply(ctx, p);
    expect(Array.from(p)).toEqual([6, 6, 6]);
  });
  it("transferTime checks the weight it is given, though it does not use it", () => {
    const j = job({ id: 1, input: [{ size: 100, machine: 0 }] });
    expect(() => transferTime(j, platform, 1, { weight: Number.NaN })).toThrow(
      "@sched/convergent/transferTime: options.weight is NaN, expected a finite number",
    );
    expect(transferTime(j, platform, 1, { weight: -2 })).toBe(10);
  });
  it("on a single eligible machine holding all the input gives IN", () => {
    const single = createPlatform({ machines: [{}] });
    const ctx = contextOf(single, [rowOf(job({ id: 1, input: [{ size: 5, machine: 0 }] }))]);
    const p = new Float64Array(1);
    inputHeuristic().apply(ctx, p);
    expect(p[0]).toBe(3);
  });
});

describe("wait minimization heuristic", () => {
  it("Δ = WM (1 - Remaining / SupRemaining) over the whole matrix", () => {
    const platform = farm(); // speeds 1, 2, 4
    // job 1: estimate 100 -> remaining 100, 50, 25; job 2: estimate 40, 3 cores -> only m1: 20
    const rows = [
      rowOf(job({ id: 1, estimate: 100 })),
      rowOf(job({ id: 2, estimate: 40, cores: 3 })),
    ];
    const ctx = contextOf(platform, rows);
    const p = new Float64Array(6);
    waitMinimizationHeuristic().apply(ctx, p);
    expect(row(p, 0, 3)).toEqual([0, 4 * 0.5, 4 * 0.75]);
    expect(row(p, 1, 3)).toEqual([0, 4 * 0.8, 0]);
  });
  it("counts progress", () => {
    const platform = farm();
    const rows = [rowOf(job({ id: 1, estimate: 100 })), rowOf(job({ id: 2, estimate: 100 }), 0.5)];
    const p = new Float64Array(6);
    waitMinimizationHeuristic().apply(contextOf(platform, rows), p);
    expect(row(p, 1, 3)).toEqual([4 * 0.5, 4 * 0.75, 4 * 0.875]);
  });
  it("with sup 'row', SupRemaining is the job's own: fast machines gain, short jobs do not", () => {
    const platform = farm(); // speeds 1, 2, 4
    // the first example: job 2 (only m1, remaining 20) is its own maximum, so it gets 0, not 3.2
    const rows = [
      rowOf(job({ id: 1, estimate: 100 })),
      rowOf(job({ id: 2, estimate: 40, cores: 3 })),
    ];
    const p = new Float64Array(6);
    waitMinimizationHeuristic({ sup: "row" }).apply(contextOf(platform, rows), p);
    expect(row(p, 0, 3)).toEqual([0, 4 * 0.5, 4 * 0.75]);
    expect(row(p, 1, 3)).toEqual([0, 0, 0]);
    // half done or not, a job's row is WM (1 - BM_slowest / BM_m): 0, 2, 3
    const q = new Float64Array(6);
    const halfDone = [
      rowOf(job({ id: 1, estimate: 100 })),
      rowOf(job({ id: 2, estimate: 100 }), 0.5),
    ];
    waitMinimizationHeuristic({ sup: "row" }).apply(contextOf(platform, halfDone), q);
    expect(row(q, 0, 3)).toEqual([0, 2, 3]);
    expect(row(q, 1, 3)).toEqual([0, 2, 3]);
  });
  it("rejects an unknown sup, naming the option", () => {
    expect(() => waitMinimizationHeuristic({ sup: "all" as never })).toThrow(
      '@sched/convergent/waitMinimizationHeuristic: options.sup is "all", expected "global" or "row"',
    );
  });
});

describe("overhead minimization heuristic", () => {
  it("adds Δ to the previous plan's eligible associations only", () => {
    const platform = farm();
    const rows = [rowOf(job({ id: 1 })), rowOf(job({ id: 2, cores: 4 })), rowOf(job({ id: 3 }))];
    // job 2 was on m0 but no longer fits there (4 cores): nothing
    const ctx = contextOf(platform, rows, 0, [2, 0, -1]);
    const p = new Float64Array(9);
    overheadHeuristic({ weight: 800 }).apply(ctx, p);
    expect(Array.from(p)).toEqual([0, 0, 800, 0, 0, 0, 0, 0, 0]);
    const q = new Float64Array(9);
    overheadHeuristic().apply(ctx, q);
    expect(q[2]).toBe(8);
  });
});

describe("anti-aging heuristic", () => {
  it("Δ = AA (now - submit) on every eligible machine", () => {
    const platform = farm();
    const rows = [rowOf(job({ id: 1, submit: 0 })), rowOf(job({ id: 2, submit: 50, cores: 4 }))];
    const p = new Float64Array(6);
    antiAgingHeuristic().apply(contextOf(platform, rows, 150), p);
    expect(row(p, 0, 3).map((x) => +x.toFixed(12))).toEqual([3, 3, 3]);
    expect(row(p, 1, 3).map((x) => +x.toFixed(12))).toEqual([0, 2, 0]);
  });
});

describe("input heuristic cache", () => {
  it("reuses a job's row only for the same platform and eligibility", () => {
    const linked = createPlatform({
      machines: [{ cluster: 0 }, { cluster: 0 }, { cluster: 1 }],
      clusters: [{ link: 0 }, { link: 1 }],
      links: [
        { bandwidth: 10, latency: 0 },
        { bandwidth: 5, latency: 0 },
      ],
    });
    const plain = createPlatform({ machines: [{}, {}, {}] });
    const j = job({ id: 1, input: [{ size: 100, machine: 0 }] });
    const h = inputHeuristic();
    const applyTo = (heuristic: ReturnType<typeof inputHeuristic>, ctx: HeuristicContext) => {
      const p = new Float64Array(ctx.jobs.length * ctx.cols);
      heuristic.apply(ctx, p);
      return Array.from(p);
    };
    const ctxLinked = contextOf(linked, [rowOf(j)]);
    const ctxPlain = contextOf(plain, [rowOf(j)]);
    // the same job with machine 1 ineligible
    const masked = { ...ctxPlain, eligible: Uint8Array.from([1, 0, 1]) };
    for (const ctx of [ctxLinked, ctxPlain, masked, ctxLinked, masked]) {
      expect(applyTo(h, ctx)).toEqual(applyTo(inputHeuristic(), ctx));
    }
    expect(applyTo(h, masked)[1]).toBe(0);
  });
});
