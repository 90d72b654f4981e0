import { createJob, createPlatform, type Job, LimitExceededError, simulate } from "@sched/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { OasProfile } from "../src/cost.js";
import { oasExecutionModel } from "../src/execution.js";
import { oasSlotDefaults, solveOas } from "../src/mip.js";
import { bestSplit } from "../src/oas-best-split.js";
import { checkOasSchedule } from "../src/oas-check.js";
import {
  linkLoadViolations,
  OAS_HEURISTIC_DEFAULTS,
  OAS_RULES,
  oasHeuristic,
  ruleOrder,
} from "../src/oas-heuristics.js";
import { costOfAllocation, groupResources, oasInstance } from "../src/oas-instance.js";
import {
  ALLOCATION_CANDIDATES,
  type AllocationCandidates,
  candidateResources,
  candidatesOf,
  fastestFree,
  fastestFreeBits,
  orderRuns,
  resourcesBySlowdown,
  slottedListSchedule,
  slottedPlanFromTrace,
} from "../src/oas-slotted.js";
import { multiClusterPlatform } from "../src/platform.js";

const paper = multiClusterPlatform([
  { nodes: 2, speed: 1 },
  { nodes: 2, speed: 0.75 },
  { nodes: 2, speed: 0.5 },
]);

// Five clusters; cluster 0 (the fastest node) sits behind a 10 MB/s link, so a split job that
// puts a task there saturates it; cluster 3 has three slow nodes (a 3-task job fits there alone).
// Machines: 0 (c0, speed 1), 1 (c1, 0.9), 2 (c2, 0.8), 3-5 (c3, 0.5), 6 (c4, 0.7).
const narrow = multiClusterPlatform([
  { nodes: 1, speed: 1, bandwidth: 10e6 },
  { nodes: 1, speed: 0.9 },
  { nodes: 1, speed: 0.8 },
  { nodes: 3, speed: 0.5 },
  { nodes: 1, speed: 0.7 },
]);
// a 3-task job, 50 MB/s per task: any split puts 50 MB/s on each link it uses
const narrowJob = [createJob({ id: 1, submit: 0, runtime: 100, cores: 3 })];
const narrowProfile = (): OasProfile => ({ sigma: 0.5, ptbw: 50e6 });

const machines = (trace: ReturnType<typeof simulate>, id: number) =>
  trace.records
    .find((r) => r.job.id === id)!
    .intervals[0]!.allocation.map((p) => p.machine)
    .sort((a, b) => a - b);

describe("allocationCandidates: validation", () => {
  const inst = oasInstance(narrowJob, narrow, narrowProfile);
  it("library: an unknown reading names the option and the accepted values", () => {
    const expected =
      'options.allocationCandidates is "best", expected one of "union", "fastest", "exhaustive"';
    expect(() => oasHeuristic("FCFS", { allocationCandidates: "best" as never })).toThrow(
      `@sched/multicluster/oasHeuristic: ${expected}`,
    );
    expect(() =>
      candidateResources(inst, 0, [1, 1, 1, 1, 1, 1, 1], { allocationCandidates: "best" as never }),
    ).toThrow(`@sched/multicluster/candidateResources: ${expected}`);
    expect(() =>
      slottedListSchedule(narrowJob, narrow, [0], {
        eta: 25,
        theta: 40,
        allocationCandidates: "best" as never,
      }),
    ).toThrow(`@sched/multicluster/slottedListSchedule: ${expected}`);
    expect(() =>
      candidateResources(inst, 0, [1, 1, 1, 1, 1, 1, 1], { allocationCandidate: "union" } as never),
    ).toThrow(
      /options\.allocationCandidate is not a known key \(did you mean `allocationCandidates`\?\)/,
    );
    expect(() => oasHeuristic("FCFS", { allocationCandidates: 1 as never })).toThrow(
      /options\.allocationCandidates is 1, expected one of/,
    );
  });

  it("solveOas, buildOasModel and oasSlotDefaults check it too", async () => {
    const expected =
      'options.allocationCandidates is "all", expected one of "union", "fastest", "exhaustive"';
    await expect(
      solveOas(narrowJob, narrow, { allocationCandidates: "all" as never }),
    ).rejects.toThrow(`@sched/multicluster/solveOas: ${expected}`);
    expect(() =>
      oasSlotDefaults(narrowJob, narrow, { theta: 9, allocationCandidates: "all" as never }),
    ).toThrow(expected);
  });

  it("slottedPlanFromTrace does not take it (it keeps the trace's allocations)", () => {
    const trace = simulate(narrowJob, narrow, oasHeuristic("FCFS", { profile: narrowProfile }), {
      executionModel: oasExecutionModel({ profile: narrowProfile }),
    });
    expect(() =>
      slottedPlanFromTrace(trace, narrowJob, {
        eta: 25,
        theta: 40,
        allocationCandidates: "union",
      } as never),
    ).toThrow(/options\.allocationCandidates is not a known key/);
  });

  it("the default is exhaustive (a best allocation of the free resources), everywhere", () => {
    expect(OAS_HEURISTIC_DEFAULTS.allocationCandidates).toBe("exhaustive");
    expect(ALLOCATION_CANDIDATES).toEqual(["union", "fastest", "exhaustive"]);
    const free = [1, 1, 1, 1, 1, 1, 1];
    expect(candidateResources(inst, 0, free)).toEqual(
      candidateResources(inst, 0, free, { allocationCandidates: "exhaustive" }),
    );
    // the heuristics and the slotted list schedule: the split (0,1,1,0,1) that avoids the
    // narrow link (the union's best is the three slow nodes 3-5; see the hand-worked examples)
    const trace = simulate(narrowJob, narrow, oasHeuristic("FCFS", { profile: narrowProfile }), {
      executionModel: oasExecutionModel({ profile: narrowProfile }),
    });
    expect(machines(trace, 1)).toEqual([1, 2, 6]);
    const plan = slottedListSchedule(narrowJob, narrow, [0], {
      eta: 25,
      theta: 40,
      profile: narrowProfile,
    })!;
    expect(plan[0]!.allocation.map((p) => p.machine)).toEqual([1, 2, 6]);
  });

  it('"exhaustive" stops with a LimitExceededError naming the option on wide platforms', () => {
    const wide = multiClusterPlatform(Array.from({ length: 8 }, () => ({ nodes: 8 })));
    const big = [createJob({ id: 7, submit: 0, runtime: 10, cores: 30 })];
    const w = oasInstance(big, wide);
    let error: unknown;
    try {
      candidateResources(w, 0, new Array(64).fill(1), { allocationCandidates: "exhaustive" });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(LimitExceededError);
    expect((error as LimitExceededError).limit).toBe("options.allocationCandidates");
    expect(String((error as Error).message)).toMatch(
      /job 7 has \d+ splits of its 30 tasks over 8 clusters, more than the 10000 candidateResources lists; pass options.allocationCandidates "union" to list the union's \(the heuristics and slottedListSchedule search every split without listing them\)/,
    );
    // the union is unaffected: the fastest 30 (8, 8, 8, 6 over clusters 0-3, also clusters
    // 0-2 topped up) and clusters 3-7 each topped up with 8, 8, 6 from clusters 0-2
    expect(
      candidateResources(w, 0, new Array(64).fill(1), { allocationCandidates: "union" }).length,
    ).toBe(6);
  });
});

describe("allocationCandidates: hand-worked examples", () => {
  it("candidate lists of a 3-task job on the paper's 3 x 2 platform, all free", () => {
    // resources 0-1 (cluster 0, speed 1), 2-3 (cluster 1, 0.75), 4-5 (cluster 2, 0.5)
    const inst = oasInstance([createJob({ id: 1, submit: 0, runtime: 10, cores: 3 })], paper);
    const free = [1, 1, 1, 1, 1, 1];
    const of = (c: AllocationCandidates) =>
      candidateResources(inst, 0, free, { allocationCandidates: c });
    expect(of("fastest")).toEqual([[0, 1, 2]]);
    // the fastest three; cluster 0 topped up (the same); cluster 1 + the fastest of cluster 0;
    // cluster 2 + the fastest of cluster 0
    expect(of("union")).toEqual([
      [0, 1, 2],
      [0, 2, 3],
      [0, 4, 5],
    ]);
    // the union's first, then every other split (2,0,1), (1,1,1), (0,2,1), (0,1,2)
    expect(of("exhaustive")).toEqual([
      [0, 1, 2],
      [0, 2, 3],
      [0, 4, 5],
      [0, 1, 4],
      [0, 2, 4],
      [2, 3, 4],
      [2, 4, 5],
    ]);
  });

  it("the heuristic's pick per reading: fastest rejects, union stays in the slow cluster, exhaustive avoids the narrow link", () => {
    const profile = narrowProfile;
    const executionModel = oasExecutionModel({ profile });
    const run = (c: AllocationCandidates, links = true) =>
      simulate(
        narrowJob,
        narrow,
        oasHeuristic("FCFS", { profile, links, allocationCandidates: c }),
        {
          executionModel,
        },
      );
    // "fastest": machines 0, 1, 2 put 50 MB/s on the 10 MB/s link: nothing else is tried
    const fastest = run("fastest");
    expect(fastest.records[0]!.outcome).toBe("rejected");
    // "union": every candidate but cluster 3 alone uses cluster 0 (the fastest, or a top-up from
    // it): the three 0.5 nodes, SP 2, ct = 0.5 * 2 + 0.5 = 1.5
    const union = run("union");
    expect(machines(union, 1)).toEqual([3, 4, 5]);
    expect(union.records[0]!.end).toBeCloseTo(150, 9);
    // "exhaustive": the split (0,1,1,0,1), machines 1, 2, 6: SP 1/0.7, ct = 0.5/0.7 + 0.5
    const exhaustive = run("exhaustive");
    expect(machines(exhaustive, 1)).toEqual([1, 2, 6]);
    expect(exhaustive.records[0]!.end).toBeCloseTo(100 * (0.5 / 0.7 + 0.5), 9);
    // link-blind, every reading takes machines 0-2: the heuristics rank by the model's ct
    // (eq. 18, no saturation), which the tau fastest minimise, and they come first; the engine
    // then charges the job its own saturation (SC = 5): 100 * (0.5 * 1.25 + 0.5 * 5)
    for (const c of ALLOCATION_CANDIDATES) {
      const blind = run(c, false);
      expect(machines(blind, 1)).toEqual([0, 1, 2]);
      expect(blind.records[0]!.end).toBeCloseTo(100 * (0.5 * 1.25 + 0.5 * 5), 9);
    }
  });

  it("the MIP's default horizon is the best list schedule's under the reading (5 slots with exhaustive, the default; 6 with the union)", () => {
    const o = { eta: 25, profile: narrowProfile };
    expect(oasSlotDefaults(narrowJob, narrow, o).theta).toBe(5);
    expect(oasSlotDefaults(narrowJob, narrow, { ...o, allocationCandidates: "union" }).theta).toBe(
      6,
    );
    expect(
      oasSlotDefaults(narrowJob, narrow, { ...o, allocationCandidates: "exhaustive" }).theta,
    ).toBe(5);
    // no list schedule with "fastest": the serial horizon (slowest resources, ct 1.5)
    expect(
      oasSlotDefaults(narrowJob, narrow, { ...o, allocationCandidates: "fastest" }).theta,
    ).toBe(6);
  });

  it("slottedListSchedule per reading (eta 25 s): none, 6 slots, 5 slots", () => {
    const o = (c: AllocationCandidates) => ({
      eta: 25,
      theta: 40,
      profile: narrowProfile,
      allocationCandidates: c,
    });
    expect(slottedListSchedule(narrowJob, narrow, [0], o("fastest"))).toBeNull();
    const union = slottedListSchedule(narrowJob, narrow, [0], o("union"))!;
    expect(union[0]).toMatchObject({ startSlot: 0, slots: 6 }); // 150 s
    expect(union[0]!.allocation.map((p) => p.machine)).toEqual([3, 4, 5]);
    const ex = slottedListSchedule(narrowJob, narrow, [0], o("exhaustive"))!;
    expect(ex[0]).toMatchObject({ startSlot: 0, slots: 5 }); // 121.4 s
    expect(ex[0]!.allocation.map((p) => p.machine)).toEqual([1, 2, 6]);
  });
});

/** Random small multi-cluster platforms (1-4 clusters of 1-3 nodes, some narrow links). */
function arbPlatform() {
  return fc
    .array(
      fc.record({
        nodes: fc.integer({ min: 1, max: 3 }),
        speed: fc.constantFrom(1, 0.75, 0.5),
        bandwidth: fc.constantFrom(125e6, 40e6),
      }),
      { minLength: 1, maxLength: 4 },
    )
    .map((cs) => multiClusterPlatform(cs));
}

describe("allocationCandidates: properties", () => {
  it("fastest is in union, union in exhaustive; the best fitting (ct, demand) never improves with a weaker set, and exhaustive's is the best of all allocations", () => {
    fc.assert(
      fc.property(
        arbPlatform(),
        fc.integer({ min: 1, max: 6 }),
        fc.constantFrom(0.3, 0.5, 1),
        fc.constantFrom(0, 20e6, 60e6),
        fc.array(fc.integer({ min: 0, max: 1 }), { minLength: 12, maxLength: 12 }),
        fc.array(fc.constantFrom(0, 20e6, 35e6), { minLength: 4, maxLength: 4 }),
        fc.boolean(),
        (platform, cores, sigma, ptbw, freeBits, baseLoad, aware) => {
          const R = platform.machines.length;
          const tau = Math.min(cores, R);
          const inst = oasInstance(
            [createJob({ id: 1, submit: 0, runtime: 50, cores: tau })],
            platform,
            () => ({ sigma, ptbw }),
          );
          const free = freeBits.slice(0, R);
          while (free.length < R) free.push(1);
          const load = baseLoad.slice(0, platform.links.length);
          const cand = (c: AllocationCandidates) =>
            candidateResources(inst, 0, free, { allocationCandidates: c });
          const keys = (l: number[][]) => new Set(l.map((x) => x.join(",")));
          const f = keys(cand("fastest"));
          const u = keys(cand("union"));
          const e = keys(cand("exhaustive"));
          for (const k of f) expect(u.has(k)).toBe(true);
          for (const k of u) expect(e.has(k)).toBe(true);
          // the heuristics' criterion: smallest ct, then least total demand, among allocations
          // that keep every link within its bandwidth over `load` (link-aware) or any (blind)
          const best = (lists: number[][]) => {
            let b: [number, number] = [Infinity, Infinity];
            for (const res of lists) {
              const c = costOfAllocation(inst, 0, groupResources(inst, res));
              if (
                aware &&
                load.some(
                  (x, l) =>
                    c.demand[l]! > 0 &&
                    x + c.demand[l]! > platform.links[l]!.bandwidth * (1 + 1e-9),
                )
              )
                continue;
              const d = aware ? c.demand.reduce((s, x) => s + x, 0) : 0;
              if (c.ct < b[0] || (c.ct === b[0] && d < b[1])) b = [c.ct, d];
            }
            return b;
          };
          const bf = best(cand("fastest"));
          const bu = best(cand("union"));
          const be = best(cand("exhaustive"));
          expect(bu[0]).toBeLessThanOrEqual(bf[0]);
          expect(be[0]).toBeLessThanOrEqual(bu[0]);
          // every tau-subset of the free resources (the brute force the splits stand for)
          const freeList = free.flatMap((x, r) => (x ? [r] : []));
          const all: number[][] = [];
          const pick = (from: number, acc: number[]) => {
            if (acc.length === tau) {
              all.push([...acc]);
              return;
            }
            for (let i = from; i < freeList.length; i++) pick(i + 1, [...acc, freeList[i]!]);
          };
          pick(0, []);
          const ba = best(all);
          expect(be[0]).toBeCloseTo(ba[0], 12);
          if (Number.isFinite(ba[0])) expect(be[1]).toBeCloseTo(ba[1], 3);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("every reading's slotted list schedule passes checkOasSchedule; every heuristic run saturates no link and makes a valid slotted plan", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            runtime: fc.integer({ min: 20, max: 300 }),
            cores: fc.integer({ min: 1, max: 5 }),
            sigma: fc.constantFrom(0.5, 0.8, 1),
            ptbw: fc.constantFrom(0, 20e6, 60e6),
          }),
          { minLength: 1, maxLength: 7 },
        ),
        fc.constantFrom(...OAS_RULES),
        fc.constantFrom(...ALLOCATION_CANDIDATES),
        fc.constantFrom(30, 100),
        (specs, rule, c, eta) => {
          const jobs = specs.map((s, i) =>
            createJob({ id: i, submit: 0, runtime: s.runtime, cores: s.cores }),
          );
          const profile = (job: Job): OasProfile => ({
            sigma: specs[job.id]!.sigma,
            ptbw: specs[job.id]!.ptbw,
          });
          const theta = Math.ceil((7 * 600) / eta);
          const list = slottedListSchedule(jobs, paper, ruleOrder(rule, jobs), {
            eta,
            theta,
            profile,
            allocationCandidates: c,
          });
          if (c !== "fastest") expect(list).not.toBeNull();
          if (list !== null)
            expect(checkOasSchedule(jobs, paper, list, { eta, theta, profile })).toEqual([]);
          const trace = simulate(
            jobs,
            paper,
            oasHeuristic(rule, { profile, allocationCandidates: c }),
            {
              executionModel: oasExecutionModel({ profile }),
            },
          );
          expect(linkLoadViolations(trace, profile)).toEqual([]);
          if (trace.records.every((r) => r.outcome === "completed")) {
            const plan = slottedPlanFromTrace(trace, jobs, { eta, theta, profile });
            expect(plan).not.toBeNull();
            expect(checkOasSchedule(jobs, paper, plan!, { eta, theta, profile })).toEqual([]);
          } else {
            // only the plain reading may leave a job with no allocation it considers
            expect(c).toBe("fastest");
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});

// The heuristics take, on one cluster without a link, the `cores` fastest free resources
// without the search: every reading lists that one candidate, and the "exhaustive" search
// picks it (one split, no demand).
describe("allocationCandidates: one cluster without a link", () => {
  it("fastestFree is every reading's only candidate and the exhaustive search's pick", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            cores: fc.integer({ min: 1, max: 3 }),
            speed: fc.constantFrom(0.5, 0.75, 1, 1.25),
          }),
          { minLength: 1, maxLength: 8 },
        ),
        fc.integer({ min: 1, max: 12 }),
        fc.constantFrom(0.5, 1, 2),
        fc.array(fc.boolean(), { minLength: 24, maxLength: 24 }),
        (specs, want, benchmark, freeBits) => {
          const platform = createPlatform({ machines: specs });
          const R = platform.totalCores;
          const job = createJob({
            id: 1,
            submit: 0,
            runtime: 10,
            cores: Math.min(want, R),
            benchmark,
          });
          const inst = oasInstance([job], platform);
          const free = Array.from({ length: R }, (_, r) => (freeBits[r] ? 1 : 0));
          const fast = fastestFree(inst, 0, free, resourcesBySlowdown(inst, 0));
          for (const reading of ALLOCATION_CANDIDATES) {
            expect(candidatesOf(inst, 0, free, reading)).toEqual(fast);
          }
          const sigma = inst.sigma[0]!;
          const searched = bestSplit(
            inst,
            0,
            free,
            candidatesOf(inst, 0, free, "union"),
            (sp) => sigma * sp + (1 - sigma),
            () => ({ base: new Float64Array(0) }),
          );
          expect(searched === null ? [] : [searched]).toEqual(fast);
        },
      ),
      { numRuns: 300 },
    );
  });
});

// The heuristics' walk on one cluster without a link: a bit set of the free resources, walked
// by runs of consecutive indices of the order, 32 resources a word; the plain walk is the oracle.
describe("fastestFreeBits: the plain walk on a bit set", () => {
  // an order of R resources: the identity, or shuffled stretches (runs of consecutive indices
  // in any order, some single resources), so that runs and picks cross word boundaries
  const orderArb = fc
    .integer({ min: 1, max: 200 })
    .chain((R) =>
      fc.tuple(
        fc.constant(R),
        fc.array(fc.integer({ min: 1, max: 70 }), { minLength: 1, maxLength: 12 }),
        fc.boolean(),
        fc.array(fc.nat(), { minLength: 12, maxLength: 12 }),
      ),
    )
    .map(([R, cuts, identity, keys]) => {
      const stretches: number[][] = [];
      for (let r = 0, i = 0; r < R; i++) {
        const len = Math.min(cuts[i % cuts.length]!, R - r);
        stretches.push(Array.from({ length: len }, (_, k) => r + k));
        r += len;
      }
      if (!identity) {
        const key = (i: number) => keys[i % keys.length]! * 31 + i;
        stretches.sort((a, b) => key(a[0]!) - key(b[0]!));
      }
      return Int32Array.from(stretches.flat());
    });

  it("picks what fastestFree picks, on any free set, order and task count", () => {
    fc.assert(
      fc.property(
        orderArb,
        fc.array(fc.boolean(), { minLength: 200, maxLength: 200 }),
        fc.integer({ min: 1, max: 202 }),
        (order, bits, tau) => {
          const R = order.length;
          const free = Array.from({ length: R }, (_, r) => (bits[r] ? 1 : 0));
          const words = new Int32Array((R + 31) >>> 5);
          for (let r = 0; r < R; r++) if (free[r]) words[r >>> 5]! |= 1 << (r & 31);
          const runs = orderRuns(order);
          // the runs spell the order
          const spelled: number[] = [];
          for (let k = 0; k < runs.length; k += 2) {
            for (let r = runs[k]!; r < runs[k + 1]!; r++) spelled.push(r);
          }
          expect(spelled).toEqual([...order]);
          const platform = createPlatform({ machines: [{ cores: R }] });
          const job = createJob({ id: 1, submit: 0, runtime: 10, cores: Math.min(tau, R) });
          const inst = { ...oasInstance([], platform), tasks: Int32Array.of(tau), jobs: [job] };
          const plain = fastestFree(inst, 0, free, order);
          const got = fastestFreeBits(tau, words, runs);
          expect(got === null ? [] : [[...got]]).toEqual(plain);
        },
      ),
      { numRuns: 400 },
    );
  });
});
