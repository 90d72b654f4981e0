import { createJob, createPlatform, type Job, type Platform, simulate } from "@sched/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { OasProfile } from "../src/cost.js";
import { oasExecutionModel } from "../src/execution.js";
import { bestSplit, DEMAND_TIE, NEAR_TIES } from "../src/oas-best-split.js";
import { OAS_RULES, oasHeuristic } from "../src/oas-heuristics.js";
import {
  costOfAllocation,
  groupResources,
  type OasAssignment,
  type OasInstance,
  oasInstance,
  slotsNeeded,
} from "../src/oas-instance.js";
import { candidatesOf, slottedListSchedule } from "../src/oas-slotted.js";
import { multiClusterPlatform } from "../src/platform.js";

// The oracle: the "exhaustive" enumeration (every split, in its order), scored as the heuristics
// score it: stage, then total demand (float `<`), the first of equal totals (`strict`, the
// default); or, with `strict` false, demand ties within DEMAND_TIE, the first in order (the
// search's rule when more than NEAR_TIES splits are near the least).
function enumeratedBest(
  inst: OasInstance,
  j: number,
  free: ArrayLike<number>,
  stageOf: (ct: number) => number,
  limitsOf: (stage: number) => { base: ArrayLike<number>; usable?: (r: number) => boolean } | null,
  strict = true,
): number[] | null {
  const p = inst.platform;
  const scored: { res: number[]; stage: number; total: number }[] = [];
  for (const res of candidatesOf(inst, j, free, "exhaustive")) {
    const c = costOfAllocation(inst, j, groupResources(inst, res));
    const stage = stageOf(c.ct);
    const limits = limitsOf(stage);
    if (limits === null) continue;
    if (limits.usable !== undefined && !res.every(limits.usable)) continue;
    let ok = true;
    for (let l = 0; l < p.links.length; l++) {
      if (c.demand[l]! > 0 && limits.base[l]! + c.demand[l]! > p.links[l]!.bandwidth * (1 + 1e-9))
        ok = false;
    }
    if (ok) scored.push({ res, stage, total: c.demand.reduce((a, b) => a + b, 0) });
  }
  if (scored.length === 0) return null;
  if (strict) {
    let best = scored[0]!;
    for (const s of scored)
      if (s.stage < best.stage || (s.stage === best.stage && s.total < best.total)) best = s;
    return best.res;
  }
  const stage = Math.min(...scored.map((s) => s.stage));
  const least = Math.min(...scored.filter((s) => s.stage === stage).map((s) => s.total));
  return scored.find((s) => s.stage === stage && s.total <= least + least * DEMAND_TIE)!.res;
}

const ctOf = (inst: OasInstance, j: number) => (sp: number) =>
  inst.sigma[j]! * sp + (1 - inst.sigma[j]!);

/** A random platform: 1-4 clusters of 1-3 machines (1-2 cores), few speeds, links maybe shared. */
const platformArb = fc
  .record({
    clusters: fc.array(
      fc.record({
        machines: fc.array(
          fc.record({
            cores: fc.integer({ min: 1, max: 2 }),
            speed: fc.constantFrom(1, 0.75, 0.5),
          }),
          { minLength: 1, maxLength: 3 },
        ),
        link: fc.integer({ min: -1, max: 3 }),
      }),
      { minLength: 1, maxLength: 4 },
    ),
    bandwidths: fc.array(fc.constantFrom(40, 100, 150, 300, 1000), { minLength: 4, maxLength: 4 }),
  })
  .map(({ clusters, bandwidths }) =>
    createPlatform({
      machines: clusters.flatMap((c, k) => c.machines.map((m) => ({ ...m, cluster: k }))),
      clusters: clusters.map((c) => (c.link < 0 ? {} : { link: c.link })),
      links: bandwidths.map((bandwidth) => ({ bandwidth })),
    }),
  );

const caseArb = platformArb.chain((platform) =>
  fc.record({
    platform: fc.constant(platform),
    cores: fc.integer({ min: 1, max: platform.totalCores }),
    sigma: fc.constantFrom(0, 0.3, 0.5, 1),
    ptbw: fc.constantFrom(0, 10, 30, 50, 70, 7.1653034356606, 13.37, 29.3),
    free: fc.array(fc.constantFrom(0, 1, 1, 1), {
      minLength: platform.totalCores,
      maxLength: platform.totalCores,
    }),
    base: fc.array(fc.constantFrom(0, 0, 20, 60, 200), { minLength: 4, maxLength: 4 }),
  }),
);

describe("bestSplit: the exhaustive set's best allocation without enumeration", () => {
  it("picks what the enumeration picks, float ties included, links shared or absent", () => {
    fc.assert(
      fc.property(caseArb, ({ platform, cores, sigma, ptbw, free, base }) => {
        const job = createJob({ id: 1, submit: 0, runtime: 10, cores });
        const inst = oasInstance([job], platform, () => ({ sigma, ptbw }));
        const union = candidatesOf(inst, 0, free, "union");
        const got = bestSplit(inst, 0, free, union, ctOf(inst, 0), () => ({ base }));
        expect(got).toEqual(
          enumeratedBest(
            inst,
            0,
            free,
            (ct) => ct,
            () => ({ base }),
          ),
        );
      }),
      { numRuns: 1000 },
    );
  });

  it("with per-stage limits (slots, busy resources, window loads) as the slotted schedule", () => {
    fc.assert(
      fc.property(
        caseArb,
        fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 12, maxLength: 12 }),
        fc.integer({ min: 1, max: 5 }),
        ({ platform, cores, sigma, ptbw, free, base }, busyFrom, room) => {
          const job = createJob({ id: 1, submit: 0, runtime: 10, cores });
          const inst = oasInstance([job], platform, () => ({ sigma, ptbw }));
          const stageOf = (ct: number) => slotsNeeded({ baseTime: 10, ct, eta: 4 });
          // resource r is busy from slot busyFrom[r]; the load grows with the window
          const limitsOf = (n: number) =>
            n > room + 2
              ? null
              : {
                  base: base.map((b) => b + 10 * n),
                  usable: (r: number) => busyFrom[r % 12]! >= n,
                };
          const union = candidatesOf(inst, 0, free, "union");
          const got = bestSplit(inst, 0, free, union, (sp) => stageOf(ctOf(inst, 0)(sp)), limitsOf);
          expect(got).toEqual(enumeratedBest(inst, 0, free, stageOf, limitsOf));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("a tie decided by the last bit, as the enumeration decides it (the paper's 3 x 2, WL-3)", () => {
    // splits (2,2,1) and (2,1,2) of a 5-task job have the same eq.-4 demand, 2 f(2) + f(1), but
    // summed in another order; the enumeration took the one whose float sum is smaller, (2,1,2),
    // although (2,2,1), the 5 fastest, comes first (LPT on WL-3, heavy links, at time 0)
    const platform = multiClusterPlatform([
      { nodes: 2, speed: 1 },
      { nodes: 2, speed: 0.75 },
      { nodes: 2, speed: 0.5 },
    ]);
    const job = createJob({ id: 5, submit: 0, runtime: 10, cores: 5 });
    const inst = oasInstance([job], platform, () => ({
      sigma: 0.5397903523427277,
      ptbw: 71653034.35660683,
    }));
    const free = [1, 1, 1, 1, 1, 1];
    const union = candidatesOf(inst, 0, free, "union");
    const got = bestSplit(inst, 0, free, union, ctOf(inst, 0), () => ({ base: [0, 0, 0] }));
    expect(got).toEqual([0, 1, 2, 4, 5]);
    expect(got).toEqual(
      enumeratedBest(
        inst,
        0,
        free,
        (ct) => ct,
        () => ({ base: [0, 0, 0] }),
      ),
    );
  });

  it("near-ties within DEMAND_TIE: a split whose sum rounds above the least is still one", () => {
    // clusters on links 1, 3, 0, 2: the search adds a split's demands in cluster order, the
    // enumeration per link then in link order, so the two sums of one split may differ in the
    // last bit (found by the property above with ptbw 0.7, one case in about 5 000)
    const platform = createPlatform({
      machines: [
        { cores: 2, speed: 0.75, cluster: 0 },
        { cores: 2, speed: 1, cluster: 1 },
        { cores: 1, speed: 0.5, cluster: 1 },
        { cores: 2, speed: 0.75, cluster: 2 },
        { cores: 1, speed: 0.75, cluster: 2 },
        { cores: 1, speed: 0.5, cluster: 3 },
      ],
      clusters: [{ link: 1 }, { link: 3 }, { link: 0 }, { link: 2 }],
      links: [40, 40, 1000, 100].map((bandwidth) => ({ bandwidth })),
    });
    const job = createJob({ id: 1, submit: 0, runtime: 10, cores: 6 });
    const inst = oasInstance([job], platform, () => ({ sigma: 0, ptbw: 0.7 }));
    const free = [1, 1, 0, 1, 1, 1, 1, 1, 0];
    const base = [0, 0, 0, 0];
    const union = candidatesOf(inst, 0, free, "union");
    const got = bestSplit(inst, 0, free, union, ctOf(inst, 0), () => ({ base }));
    expect(got).toEqual(
      enumeratedBest(
        inst,
        0,
        free,
        (ct) => ct,
        () => ({ base }),
      ),
    );
  });

  it("more than NEAR_TIES near-ties: the first in order among them (16 equal clusters)", () => {
    // a 60-task job on 16 equal clusters of 8: least demand 7 full clusters and a share of 4,
    // 16 x C(15, 7) = 102 960 near-ties (the same demand but for the order of the sum)
    const platform = multiClusterPlatform(
      Array.from({ length: 16 }, () => ({ nodes: 8, bandwidth: 1e9 })),
    );
    const job = createJob({ id: 1, submit: 0, runtime: 10, cores: 60 });
    const inst = oasInstance([job], platform, () => ({ sigma: 0.5, ptbw: 1e6 }));
    const free = new Array(128).fill(1);
    const union = candidatesOf(inst, 0, free, "union");
    const got = bestSplit(inst, 0, free, union, ctOf(inst, 0), () => ({
      base: new Array(16).fill(0),
    }))!;
    const perCluster = new Array(16).fill(0);
    for (const r of got) perCluster[inst.resourceCluster[r]!]! += 1;
    // the union's first: the 60 fastest (lowest indices), clusters 0-6 full and 4 in cluster 7
    expect(perCluster).toEqual([8, 8, 8, 8, 8, 8, 8, 4, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(NEAR_TIES).toBe(1000);
  });

  it("a 64-task job on 8 clusters of 8 (4.7e8 splits): the least demand, no enumeration", () => {
    const wide = multiClusterPlatform(
      Array.from({ length: 8 }, (_, k) => ({
        nodes: 8,
        speed: 1 - 0.05 * (k % 4),
        bandwidth: 1e9,
      })),
    );
    const job = createJob({ id: 3, submit: 0, runtime: 100, cores: 40 });
    const inst = oasInstance([job], wide, () => ({ sigma: 0.5, ptbw: 50e6 }));
    const free = new Array(64).fill(1);
    const union = candidatesOf(inst, 0, free, "union");
    const got = bestSplit(inst, 0, free, union, ctOf(inst, 0), () => ({
      base: new Array(8).fill(0),
    }))!;
    // speeds 1 (clusters 0, 4), 0.95 (1, 5): 40 tasks on 32 resources of speed >= 0.9 (clusters
    // 0, 1, 2, 4, 5, 6 hold 48); least demand: as few clusters as possible, 8 + 8 + 8 + 8 + 8
    // (each share of 8 puts 8 * 50e6 * 32 / 39 on its link), the first such split in order
    const perCluster = new Array(8).fill(0);
    for (const r of got) perCluster[inst.resourceCluster[r]!]! += 1;
    expect(perCluster).toEqual([8, 8, 8, 0, 8, 8, 0, 0]);
  });
});

/** The slotted list schedule with the enumeration (the former "exhaustive" code path, ties within 1e-9). */
function enumeratedSlotted(
  jobs: readonly Job[],
  platform: Platform,
  order: readonly number[],
  eta: number,
  T: number,
  profile: (j: Job) => OasProfile,
): (OasAssignment | undefined)[] | null {
  const inst = oasInstance(jobs, platform, profile);
  const R = inst.resourceMachine.length;
  const L = platform.links.length;
  const busy = new Uint8Array(R * T);
  const load = new Float64Array(L * T);
  const out: (OasAssignment | undefined)[] = new Array(jobs.length);
  for (const j of order) {
    let placed = false;
    for (let s = 0; s < T && !placed; s++) {
      const free = new Uint8Array(R);
      for (let r = 0; r < R; r++) free[r] = busy[r * T + s] ? 0 : 1;
      const stageOf = (ct: number) => slotsNeeded({ baseTime: inst.baseTime[j]!, ct, eta });
      const res = enumeratedBest(inst, j, free, stageOf, (n) => {
        if (s + n > T) return null;
        const base = new Float64Array(L);
        for (let l = 0; l < L; l++)
          for (let t = s; t < s + n; t++) base[l] = Math.max(base[l]!, load[l * T + t]!);
        return {
          base,
          usable: (r: number) => {
            for (let t = s; t < s + n; t++) if (busy[r * T + t]) return false;
            return true;
          },
        };
      });
      if (res === null) continue;
      const cost = costOfAllocation(inst, j, groupResources(inst, res));
      const n = stageOf(cost.ct);
      for (let t = s; t < s + n; t++) {
        for (const r of res) busy[r * T + t] = 1;
        for (let l = 0; l < L; l++) load[l * T + t]! += cost.demand[l]!;
      }
      out[j] = {
        jobId: jobs[j]!.id,
        startSlot: s,
        slots: n,
        allocation: groupResources(inst, res),
      };
      placed = true;
    }
    if (!placed) return null;
  }
  return out;
}

describe('"exhaustive" in the schedulers', () => {
  it("slottedListSchedule equals its enumeration on random batches", () => {
    fc.assert(
      fc.property(
        platformArb,
        fc.array(
          fc.record({
            cores: fc.integer({ min: 1, max: 6 }),
            runtime: fc.integer({ min: 5, max: 40 }),
            ptbw: fc.constantFrom(0, 20, 50, 7.1653034356606, 13.37),
          }),
          { minLength: 1, maxLength: 5 },
        ),
        (platform, specs) => {
          const totalCores = platform.totalCores;
          const jobs = specs.map((s, i) =>
            createJob({
              id: i,
              submit: 0,
              runtime: s.runtime,
              cores: Math.min(s.cores, totalCores),
            }),
          );
          const profile = (job: Job) => ({ sigma: 0.5, ptbw: specs[job.id]!.ptbw });
          const order = jobs.map((_, i) => i);
          const got = slottedListSchedule(jobs, platform, order, {
            eta: 10,
            theta: 40,
            profile,
            allocationCandidates: "exhaustive",
          });
          expect(got).toEqual(enumeratedSlotted(jobs, platform, order, 10, 40, profile));
        },
      ),
      { numRuns: 150 },
    );
  });

  it("slottedListSchedule equals its enumeration where links bind: a window's every slot counts", () => {
    // Longer batches of wide jobs with heavy per-task bandwidths: later slots carry the link
    // load of jobs placed before, so a job's window of n slots meets loads its first slots lack.
    const batch = fc.array(
      fc.record({
        cores: fc.integer({ min: 2, max: 6 }),
        runtime: fc.integer({ min: 5, max: 40 }),
        ptbw: fc.constantFrom(20, 50, 90, 13.37),
      }),
      { minLength: 3, maxLength: 8 },
    );
    fc.assert(fc.property(platformArb, batch, sameAsEnumerated), { numRuns: 200 });
    // the property's shrunk counterexample to a window's link load read without its last slot
    // (about one batch in 250 catches it): a fixed case that always does
    const platform = createPlatform({
      machines: [
        { cores: 1, speed: 0.5, cluster: 0 },
        { cores: 2, speed: 1, cluster: 0 },
        { cores: 2, speed: 1, cluster: 0 },
        { cores: 1, speed: 1, cluster: 1 },
        { cores: 1, speed: 0.5, cluster: 1 },
        { cores: 2, speed: 0.75, cluster: 1 },
        { cores: 1, speed: 0.75, cluster: 2 },
        { cores: 1, speed: 0.5, cluster: 3 },
      ],
      clusters: [{ link: 1 }, { link: 0 }, { link: 0 }, { link: 0 }],
      links: [100, 100, 40, 40].map((bandwidth) => ({ bandwidth })),
    });
    sameAsEnumerated(platform, [
      { cores: 6, runtime: 18, ptbw: 20 },
      { cores: 5, runtime: 14, ptbw: 90 },
      { cores: 3, runtime: 27, ptbw: 20 },
      { cores: 2, runtime: 5, ptbw: 20 },
      { cores: 2, runtime: 5, ptbw: 20 },
      { cores: 2, runtime: 5, ptbw: 20 },
    ]);
  });

  it("oasHeuristic runs a 64-task job on 8 x 8 (the enumeration stopped above 10 000 splits)", () => {
    const wide = multiClusterPlatform(Array.from({ length: 8 }, () => ({ nodes: 8 })));
    const jobs = [
      createJob({ id: 1, submit: 0, runtime: 100, cores: 30 }),
      createJob({ id: 2, submit: 0, runtime: 100, cores: 64 }),
    ];
    const profile = () => ({ sigma: 0.5, ptbw: 5e6 });
    for (const rule of OAS_RULES) {
      const trace = simulate(
        jobs,
        wide,
        oasHeuristic(rule, { profile, allocationCandidates: "exhaustive" }),
        { executionModel: oasExecutionModel({ profile }) },
      );
      expect(trace.records.every((r) => r.outcome === "completed")).toBe(true);
    }
  });
});

/** slottedListSchedule ("exhaustive", eta 10, theta 60, sigma 0.5) equals {@link enumeratedSlotted} on the batch in its order. */
function sameAsEnumerated(
  platform: Platform,
  specs: readonly { cores: number; runtime: number; ptbw: number }[],
): void {
  const jobs = specs.map((s, i) =>
    createJob({
      id: i,
      submit: 0,
      runtime: s.runtime,
      cores: Math.min(s.cores, platform.totalCores),
    }),
  );
  const profile = (job: Job) => ({ sigma: 0.5, ptbw: specs[job.id]!.ptbw });
  const order = jobs.map((_, i) => i);
  const got = slottedListSchedule(jobs, platform, order, {
    eta: 10,
    theta: 60,
    profile,
    allocationCandidates: "exhaustive",
  });
  expect(got).toEqual(enumeratedSlotted(jobs, platform, order, 10, 60, profile));
}
