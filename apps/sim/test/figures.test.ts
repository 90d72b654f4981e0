import { simulate } from "@sched/core";
import { describe, expect, it } from "vitest";
import { AR_FIGURES } from "../src/experiments/advance-reservation-figures.js";
import {
  beats,
  close,
  closePairs,
  orderedAcross,
  pairwise,
  steady,
  trend,
  within,
} from "../src/experiments/claims.js";
import type { Experiment, FigureResults } from "../src/experiments/experiment.js";
import { OAS_FIGURES } from "../src/experiments/oas-figures.js";
import type { ParamValue } from "../src/experiments/parameters.js";
import { EXPERIMENTS } from "../src/experiments/registry.js";
import { defaultParams } from "../src/experiments/resolve.js";
import { paperFiguresHtml, verdictOf } from "../src/report/figures.js";
import { createScheduler, type SchedulerChoice } from "../src/schedulers.js";
import { summarize } from "../src/stats.js";
import type { RunRecord } from "../src/sweep/execute.js";
import { METRICS } from "../src/sweep/metrics.js";
import type { SweepPlan } from "../src/sweep/plan.js";
import { TIMING_METRICS } from "../src/sweep/results.js";

/** Results from a table: scheduler -> one mean per x (CI from `ci`, NaN when absent). */
function results(
  xs: readonly number[],
  table: Record<string, readonly number[]>,
  ci: Record<string, readonly number[]> = {},
): FigureResults {
  return {
    xs,
    schedulers: Object.keys(table),
    value: (s, x) => {
      const i = xs.indexOf(x as number);
      const mean = table[s]?.[i];
      if (mean === undefined) return undefined;
      return { mean, ci95: ci[s]?.[i] ?? Number.NaN, runs: 3 };
    },
    name: (s) => s.toUpperCase(),
    at: (x) => `x = ${x}`,
    param: () => undefined,
    across: () => [],
  };
}

describe("claim checks", () => {
  it("beats counts the points where every better policy beats every other, naming the closest pair", () => {
    const r = results([1, 2, 3], { a: [1, 5, 2], b: [2, 4, 3], c: [3, 6, 2] });
    expect(beats({ better: ["a"], sense: "lower" })(r)).toEqual({
      held: 1,
      of: 3,
      unit: "points",
      detail: "fails at x = 2 (B 4 vs A 5); x = 3 (C 2 vs A 2)",
    });
    expect(beats({ better: ["a"], sense: "lower", ties: true })(r).held).toBe(2);
    expect(beats({ better: ["c"], than: ["a", "b"], sense: "higher" })(r).held).toBe(2);
    expect(beats({ better: ["a"], than: ["z"], sense: "lower" })(r)).toMatchObject({ of: 0 });
  });

  it("trend counts the steps (ascending x) where each policy moves the said way", () => {
    const r = results([3, 1, 2], { a: [3, 1, 2], b: [1, 3, 2] });
    expect(trend({ direction: "up" })(r)).toEqual({
      held: 2,
      of: 4,
      unit: "steps",
      detail: "fails at B x = 1 → x = 2 (3 → 2); B x = 2 → x = 3 (2 → 1)",
    });
  });

  it("within, close and pairwise", () => {
    const r = results([1, 2], { a: [1.0, 1.2], b: [1.05, 2] }, { a: [0.1, 0.1], b: [0.1, 0.1] });
    expect(within({ schedulers: ["a", "b"], max: 1.1 })(r)).toMatchObject({ held: 1, of: 2 });
    expect(within({ schedulers: ["a"], max: 1.1, where: (x) => x === 1 })(r).of).toBe(1);
    expect(close({ a: "a", b: "b" })(r)).toMatchObject({ held: 1, of: 2 });
    expect(close({ a: "a", b: "b" })(results([1], { a: [1], b: [1] }))).toMatchObject({
      of: 0,
      detail: "needs two seeds or more (95% intervals)",
    });
    expect(
      pairwise({
        pairs: [
          ["a", "b"],
          ["b", "a"],
        ],
        sense: "lower",
      })(r),
    ).toMatchObject({ held: 2, of: 4, unit: "comparisons" });
  });

  it("each check's boundary: the papers' words, not one step stricter or looser", () => {
    // close: means exactly the sum of the half-widths apart (0.5 = 0.25 + 0.25, exact in binary)
    // overlap, so they are "equal or very close"; a hair further they are not.
    const touching = results([1], { a: [1], b: [1.5] }, { a: [0.25], b: [0.25] });
    expect(close({ a: "a", b: "b" })(touching)).toMatchObject({ held: 1, of: 1 });
    const apart = results([1], { a: [1], b: [1.5000001] }, { a: [0.25], b: [0.25] });
    expect(close({ a: "a", b: "b" })(apart)).toMatchObject({ held: 0, of: 1 });
    // trend and orderedAcross are strict: a flat step neither rises nor falls.
    const flat = results([1, 2], { a: [3, 3] });
    expect(trend({ direction: "up" })(flat)).toMatchObject({ held: 0, of: 1 });
    expect(trend({ direction: "down" })(flat)).toMatchObject({ held: 0, of: 1 });
    // within: min and max are inclusive.
    const edge = results([1], { a: [2] });
    expect(within({ schedulers: ["a"], min: 2, max: 2 })(edge)).toMatchObject({ held: 1, of: 1 });
    expect(within({ schedulers: ["a"], min: 2.5 })(edge)).toMatchObject({ held: 0, of: 1 });
    // steady over [0, 8]: second quarter x = 2..4, last x = 6..8. "Almost constant" is a change
    // within ±25% either way: a fall by half is not constant, nor growth.
    const xs = [0, 1, 2, 3, 4, 5, 6, 7, 8];
    const falls = results(xs, { a: [9, 9, 10, 10, 10, 9, 5, 5, 5] });
    const span = { end: () => 8, tolerance: 0.25 };
    expect(steady({ ...span, grows: () => false })(falls)).toMatchObject({ held: 0, of: 1 });
    expect(steady({ ...span, grows: () => true })(falls)).toMatchObject({ held: 0, of: 1 });
    const within25 = results(xs, { a: [9, 9, 10, 10, 10, 9, 8, 8, 8] }); // -20%
    expect(steady({ ...span, grows: () => false })(within25)).toMatchObject({ held: 1, of: 1 });
    // orderedAcross: panels of another axis whose span means are equal are not ordered.
    const panel = (v: number, mean: number): FigureResults => ({
      ...results([0, 1, 2], { a: [mean, mean, mean] }),
      param: (name) => (name === "g" ? v : undefined),
    });
    const panels = [panel(1, 4), panel(2, 4), panel(3, 2)];
    const across: FigureResults = { ...panels[0]!, across: () => panels };
    const ordered = (direction: "up" | "down") =>
      orderedAcross({ axis: "g", direction, end: () => 2 })(across);
    expect(ordered("down")).toMatchObject({ held: 1, of: 2 });
    expect(ordered("up")).toMatchObject({ held: 0, of: 2 });
  });

  it("pairwise and closePairs count and detail only the pairs that can be judged", () => {
    // a and b have results (with intervals); z has none
    const r = results([1, 2], { a: [1, 1.1], b: [2, 1.2] }, { a: [0.2, 0.2], b: [0.2, 0.2] });
    const beaten = pairwise({
      pairs: [
        ["a", "b"],
        ["a", "z"],
      ],
      sense: "lower",
    })(r);
    expect(beaten).toEqual({ held: 2, of: 2, unit: "comparisons" });
    const near = closePairs({
      pairs: [
        ["a", "b"],
        ["a", "z"],
      ],
    })(r);
    // a, b: 1 vs 2 (not close), 1.1 vs 1.2 (close); the pair with z is not judged
    expect(near).toEqual({
      held: 1,
      of: 2,
      unit: "comparisons",
      detail: "fails at x = 1 (A 1 ± 0.2 vs B 2 ± 0.2)",
    });
    const none = closePairs({ pairs: [["a", "z"]] })(r);
    expect(none).toMatchObject({ of: 0, detail: "needs two seeds or more (95% intervals)" });
  });

  it("verdictOf words every case", () => {
    expect(verdictOf({ held: 7, of: 7, unit: "points" }).text).toBe(
      "holds at every one of the 7 points",
    );
    expect(verdictOf({ held: 5, of: 7, unit: "points", detail: "d" })).toEqual({
      kind: "partly",
      text: "holds at 5 of 7 points",
      detail: "d",
    });
    expect(verdictOf({ held: 0, of: 1, unit: "steps" }).text).toBe("does not hold (0 of 1 step)");
    expect(verdictOf({ held: 0, of: 0, unit: "points" }).kind).toBe("unknown");
  });
});

describe("the experiments' figure declarations", () => {
  for (const e of EXPERIMENTS.filter((x) => (x.figures ?? []).length > 0)) {
    it(`${e.name}: every figure names a parameter, schedulers and metrics the experiment has`, () => {
      const params = e.parameters.map((p) => p.name);
      const labels = e.schedulers(defaultParams(e, false)).map((s) => s.label);
      // Metrics a run records: the declared ones, core's, and what `measure` adds.
      const recorded = new Set([...e.metrics.map((m) => m.key), ...METRICS.map((m) => m.key)]);
      if (e.measure !== undefined && e.run === undefined && e.name === "convergent") {
        const params = { ...defaultParams(e, true), jobs: 10 };
        const instance = e.instance(params, 1);
        const trace = simulate(
          instance.jobs,
          instance.platform,
          createScheduler(
            e.schedulers(params).find((c) => c.label === "easy") as SchedulerChoice,
            1,
          ),
        );
        for (const k of Object.keys(e.measure(trace, instance, params, 1))) recorded.add(k);
      }
      const ids = new Set<string>();
      for (const f of e.figures ?? []) {
        expect(ids.has(f.id), f.id).toBe(false);
        ids.add(f.id);
        expect(params, f.id).toContain(f.x.param);
        for (const s of f.series ?? []) expect(labels, f.id).toContain(s.label);
        const metrics = [f.metric, ...(f.series ?? []).flatMap((s) => s.metric ?? [])];
        for (const m of metrics) {
          if (f.timing === true) expect(TIMING_METRICS.map((t) => t.key)).toContain(m);
          else expect([...recorded], `${f.id}: ${m}`).toContain(m);
        }
        expect(f.claims?.length ?? 0, f.id).toBeGreaterThan(0);
      }
    });
  }
});

describe("the papers' claims, checked against the policies they name", () => {
  it("oas Fig. 4: OAS is judged against the six heuristics, not against its own compacted or warm-started runs", () => {
    const claim = OAS_FIGURES[0]?.claims?.[0];
    if (claim === undefined) throw new Error("no Fig. 4 claim");
    // OAS at its slots beats every heuristic; its compacted replay is shorter still.
    const r = results([1], {
      oas: [100],
      "oas(replay=compact)": [90],
      "oas(warmStart=true)": [95],
      fcfs: [110],
      sjf: [100],
      bjf: [120],
      fpfs: [105],
      spt: [130],
      lpt: [101],
    });
    expect(claim.check(r)).toMatchObject({ held: 1, of: 1 });
    // A heuristic below OAS breaks it.
    const worse = results([1], {
      oas: [100],
      fcfs: [110],
      sjf: [100],
      bjf: [120],
      fpfs: [105],
      spt: [130],
      lpt: [99],
    });
    expect(claim.check(worse)).toMatchObject({ held: 0, of: 1 });
  });
});

describe("paperFiguresHtml", () => {
  const experiment = EXPERIMENTS.find((e) => e.name === "fcfs-load");
  if (experiment === undefined) throw new Error("no fcfs-load");
  /** A plan over load (and `extra`), with records whose means are given per scheduler. */
  function input(extra?: { name: string; values: ParamValue[] }) {
    const loads = [0.3, 0.5];
    const params = extra === undefined ? ["load"] : ["load", extra.name];
    const points: ParamValue[][] =
      extra === undefined
        ? loads.map((l) => [l])
        : loads.flatMap((l) => extra.values.map((v) => [l, v]));
    const plan: SweepPlan = {
      name: "fcfs-load",
      title: "t",
      description: "",
      source: { kind: "registry", experiment: "fcfs-load", quick: true, parameters: {} },
      params,
      points,
      seeds: [1, 2],
      schedulers: ["fcfs", "easy", "conservative"].map((label) => ({
        name: label,
        opts: [],
        label,
      })),
      metrics: ["meanWait", "meanBoundedSlowdown"],
    };
    const wait: Record<string, number> = { fcfs: 1000, easy: 100, conservative: 2000 };
    const records: RunRecord[] = [];
    for (const point of points) {
      for (const seed of plan.seeds) {
        for (const s of plan.schedulers) {
          const p = Object.fromEntries(params.map((k, i) => [k, point[i] as ParamValue]));
          records.push({
            key: `${s.label}.${JSON.stringify(p)}.${seed}`,
            scheduler: s.label,
            params: p,
            seed,
            metrics: {
              meanWait: (wait[s.label] as number) * (point[0] as number) + seed,
              meanBoundedSlowdown: 2,
            },
            events: 0,
            decisions: 0,
          });
        }
      }
    }
    return {
      plan,
      experiment: experiment as NonNullable<typeof experiment>,
      records,
      timings: new Map(),
    };
  }

  it("draws each figure with the paper's axes and series names, and a verdict per claim", () => {
    const html = paperFiguresHtml(input());
    expect(html.match(/<section class="paper-figure"/g)).toHaveLength(2);
    expect(html).toContain("mean wait (s) (log scale)");
    expect(html).toContain(">offered load</text>");
    expect(html).toContain("EASY backfilling</li>");
    // Wait: conservative (2000 x load) is worse than FCFS everywhere: the claim fails at both loads.
    expect(html).toContain('<li class="claim fails">');
    expect(html).toContain("does not hold (0 of 2 points)");
    // The pair that breaks it by the most: means over seeds 1 and 2, to 3 digits.
    expect(html).toContain("fails at load = 0.3 (FCFS 302 vs conservative backfilling 602)");
    // Its means: the plotted point is the mean over the two seeds.
    const wait = summarize([0.3 * 100 + 1, 0.3 * 100 + 2]).mean;
    expect(html).toContain(`EASY backfilling: offered load 0.3: ${wait}`);
  });

  it("draws a panel per value of another grid axis, and says when its x is not on the grid", () => {
    const html = paperFiguresHtml(input({ name: "procs", values: [64, 128] }));
    expect(html.match(/<section class="paper-figure"/g)).toHaveLength(4);
    expect(html).toContain("Panel: procs = 64.");
    expect(html).toContain("Panel: procs = 128.");
    const off = input();
    const moved = paperFiguresHtml({
      ...off,
      plan: { ...off.plan, params: ["jobs"], points: [[1000]] },
    });
    expect(moved).not.toContain('paper-figure"');
    expect(moved).toContain("needs load on the grid; this run's grid is jobs");
  });
});

describe("paperFiguresHtml names a policy drawn twice by the series of the figure's metric", () => {
  it("oas-slots: the makespan trend's failure names the plan at its slots, not the MIP objective", () => {
    const experiment = EXPERIMENTS.find((e) => e.name === "oas-slots");
    if (experiment === undefined) throw new Error("no oas-slots");
    const points: ParamValue[][] = [[0.5], [2]];
    const plan: SweepPlan = {
      name: "oas-slots",
      title: "t",
      description: "",
      source: { kind: "registry", experiment: "oas-slots", quick: true, parameters: {} },
      params: ["slotFraction"],
      points,
      seeds: [1],
      schedulers: ["oas", "oas(replay=compact)"].map((label) => ({ name: label, opts: [], label })),
      metrics: ["makespan", "mipMakespan", "solveSeconds"],
    };
    const records: RunRecord[] = points.flatMap(([slot]) =>
      plan.schedulers.map((s) => ({
        key: `${s.label}.${slot}`,
        scheduler: s.label,
        params: { slotFraction: slot as number },
        seed: 1,
        // The plan at its slots gets shorter with the bigger slot: the trend fails there.
        metrics: { makespan: slot === 0.5 ? 2000 : 1900, mipMakespan: 2100, solveSeconds: 1 },
        events: 0,
        decisions: 0,
      })),
    );
    const html = paperFiguresHtml({ plan, experiment, records, timings: new Map() });
    expect(html).toContain("fails at OAS plan at its slots slot = 50% → slot = 200% (2000 → 1900)");
    expect(html).not.toContain("fails at MIP objective");
  });
});

describe("claims as strict as the papers' words", () => {
  /** The claim of experiment `name`'s figure `id` whose text contains `words`. */
  function claimOf(name: string, id: string, words: string) {
    const figures = name.startsWith("ar-")
      ? AR_FIGURES[name]
      : EXPERIMENTS.find((e) => e.name === name)?.figures;
    const claim = figures?.find((f) => f.id === id)?.claims?.find((c) => c.text.includes(words));
    if (claim === undefined) throw new Error(`${name} ${id}: no claim "${words}"`);
    return claim;
  }

  it("convergent Fig. 4: 'equal or very close' covers both incremental/non-incremental pairs (with and without preemption)", () => {
    const claim = claimOf("convergent", "Fig. 4", "equal or very close");
    const ci = { "cs-ip": [2], "cs-nip": [2], "cs-inp": [2], "cs-ninp": [2] };
    // The preemptive pair overlaps; the non-preemptive pair is 20 points apart.
    const r = results([4], { "cs-ip": [50], "cs-nip": [51], "cs-inp": [40], "cs-ninp": [60] }, ci);
    expect(claim.check(r)).toMatchObject({
      held: 1,
      of: 2,
      detail: "fails at x = 4 (CS-INP 40 ± 2 vs CS-NINP 60 ± 2)",
    });
    const both = results(
      [4],
      { "cs-ip": [50], "cs-nip": [51], "cs-inp": [40], "cs-ninp": [41] },
      ci,
    );
    expect(claim.check(both)).toMatchObject({ held: 2, of: 2 });
  });

  it("ar-size Figure 2: 'much better than FF' needs PE_W's and Du_B's 95% intervals above FF's", () => {
    const claim = claimOf("ar-size", "Figure 2", "PE_W and Du_B perform much better than FF");
    const l = (p: string) => `ar(policy=${p})`;
    // Du_B 0.001 above FF at UMed 5 (intervals overlap); far above at UMed 6.
    const r = results(
      [5, 6],
      { [l("FF")]: [0.669, 0.568], [l("PE_W")]: [0.797, 0.678], [l("Du_B")]: [0.67, 0.682] },
      { [l("FF")]: [0.024, 0.019], [l("PE_W")]: [0.016, 0.014], [l("Du_B")]: [0.02, 0.015] },
    );
    expect(claim.check(r)).toMatchObject({
      held: 1,
      of: 2,
      detail:
        "fails at x = 5 (AR(POLICY=FF) 0.669 ± 0.024 vs AR(POLICY=DU_B) 0.67 ± 0.02: the intervals overlap)",
    });
    // One seed: no intervals, nothing judged.
    expect(
      claim.check(results([5], { [l("FF")]: [0.5], [l("PE_W")]: [0.8], [l("Du_B")]: [0.8] })),
    ).toMatchObject({ of: 0 });
    // "clearly the best": the same rule against the five others.
    const best = claimOf("ar-size", "Figure 2", "PE_W and Du_B clearly become the best");
    const others = ["PE_B", "Du_W", "PEDu_B", "PEDu_W"];
    const table = {
      ...Object.fromEntries(others.map((p) => [l(p), [0.6]])),
      [l("FF")]: [0.6],
      [l("PE_W")]: [0.8],
      [l("Du_B")]: [0.79],
    };
    const ci = Object.fromEntries(Object.keys(table).map((k) => [k, [0.01]]));
    expect(best.check(results([5], table, ci))).toMatchObject({ held: 1, of: 1 });
    table[l("PEDu_W")] = [0.775];
    expect(best.check(results([5], table, ci))).toMatchObject({ held: 0, of: 1 });
  });

  describe("convergent-workload Fig. 3, a panel per T_a", () => {
    const experiment = EXPERIMENTS.find((e) => e.name === "convergent-workload");
    if (experiment === undefined) throw new Error("no convergent-workload");
    /**
     * A plan over time 0..120 (every 10) and interArrival 4, 12, 20 for 10 jobs (arrivals end at
     * 40, 120, 200): `jobs(ta, t)` jobs in the system, the same for both policies and seeds
     * (the seeds differ by 1 job).
     */
    function html(jobs: (ta: number, t: number) => number): string {
      const times = Array.from({ length: 13 }, (_, k) => 10 * k);
      const gaps = [4, 12, 20];
      const points: ParamValue[][] = times.flatMap((t) => gaps.map((g) => [t, g]));
      const plan: SweepPlan = {
        name: "convergent-workload",
        title: "t",
        description: "",
        source: {
          kind: "registry",
          experiment: "convergent-workload",
          quick: true,
          parameters: { jobs: 10, interArrivalScale: 1 },
        },
        params: ["time", "interArrival"],
        points,
        seeds: [1, 2],
        schedulers: ["cs-ip", "easy"].map((label) => ({ name: label, opts: [], label })),
        metrics: ["jobsInSystem"],
      };
      const records: RunRecord[] = points.flatMap(([t, g]) =>
        plan.seeds.flatMap((seed) =>
          plan.schedulers.map((s) => ({
            key: `${s.label}.${t}.${g}.${seed}`,
            scheduler: s.label,
            params: { time: t as number, interArrival: g as number },
            seed,
            metrics: { jobsInSystem: jobs(g as number, t as number) + seed - 1.5 },
            events: 0,
            decisions: 0,
          })),
        ),
      );
      return paperFiguresHtml({
        plan,
        experiment: experiment as Experiment,
        records,
        timings: new Map(),
      });
    }
    /** The verdict text of the claim starting with `start` in the panel of T_a = `ta`. */
    function verdict(page: string, ta: number, start: string): string {
      const panel = page.split("Panel: interArrival = ")[[4, 12, 20].indexOf(ta) + 1] as string;
      const at = panel.indexOf(start);
      if (at < 0) throw new Error(`no claim "${start}" at T_a = ${ta}`);
      return panel.slice(at, panel.indexOf("</li>", at));
    }

    it("judges growth below T_a = 12 and an almost constant queue from 12 on, over each panel's arrivals", () => {
      // T_a = 4 grows (t jobs); 12 and 20 stay at 30 and 20 (20 and 10 at t = 0).
      const page = html((ta, t) => (ta === 4 ? t : t === 0 ? 40 - ta : 42 - ta));
      expect(verdict(page, 4, "from T_a = 12 on")).toContain("holds at every one of the 2 series");
      // [0, 40]: second quarter 10..20 (mean 15), last 30..40 (35): +133%.
      expect(verdict(page, 4, "from T_a = 12 on")).toContain("CS_i_p 15 → 35 (+133%)");
      expect(verdict(page, 12, "from T_a = 12 on")).toContain("holds at every one of the 2 series");
      // T_a = 20: arrivals end at 200, after the last time (120): judged over [0, 120].
      expect(verdict(page, 20, "from T_a = 12 on")).toContain("over [0, 120]");
      // Ordering: means over [0, 40], [0, 120], [0, 120]: 20, 29.8, 21.8: rises, then falls.
      expect(verdict(page, 4, "each stream")).toContain("holds at 2 of 4 steps");
      expect(verdict(page, 20, "each stream")).toContain("holds at 2 of 4 steps");
    });

    it("cannot judge a panel whose runs do not record jobs, interArrival and interArrivalScale", () => {
      const claims = experiment?.figures?.[0]?.claims ?? [];
      const bare = results([0, 10, 20], { "cs-ip": [1, 2, 3] });
      expect(claims.map((c) => c.check(bare))).toEqual([
        { held: 0, of: 0, unit: "steps", detail: "needs two values of interArrival or more" },
        {
          held: 0,
          of: 0,
          unit: "series",
          detail: "needs the runs' jobs, interArrival and interArrivalScale",
        },
      ]);
    });

    it("fails a queue that keeps growing at T_a = 12, and holds the ordering when the workload falls with T_a", () => {
      const page = html((ta, t) => (ta === 20 ? 5 : ta === 12 ? 10 + t : 200 + t));
      expect(verdict(page, 12, "from T_a = 12 on")).toContain("does not hold (0 of 2 series)");
      expect(verdict(page, 20, "from T_a = 12 on")).toContain("holds at every one");
      expect(verdict(page, 4, "each stream")).toContain("holds at every one of the 4 steps");
    });
  });
});
