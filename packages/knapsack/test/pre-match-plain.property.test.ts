import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  clusterLicenses,
  LicenseClusters,
  type LicenseJob,
  type MkpGreedyOptions,
  type MkpInstance,
  mkpGreedy,
  type PreMatchResult,
  preMatch,
} from "../src/index.js";

// preMatch builds each cluster's knapsack from the requests its clustering tracks and runs the
// greedy on it directly. These properties compare it with the plain computation: the clustering
// from scratch, every critical license looked up in every job's record, and the public greedy.

const NAMES = ["a", "b", "c", "d", "e", "f"];
// Keys in any order; copies whose shares sum differently in another order (0.1 + 0.2 + 0.3 is
// not 0.3 + 0.2 + 0.1), so a knapsack built with the licenses out of order ranks differently.
const requestArb = fc.dictionary(
  fc.constantFrom(...NAMES),
  fc.oneof(
    fc.integer({ min: 0, max: 3 }),
    fc.double({ min: 0.25, max: 2.5, noNaN: true }),
    fc.constantFrom(0.1, 0.2, 0.3),
  ),
  { maxKeys: 4 },
);
const greedyArb: fc.Arbitrary<Omit<MkpGreedyOptions, "costs">> = fc.record(
  {
    reweight: fc.boolean(),
    strategy: fc.constantFrom("fill" as const, "drop" as const),
    rhoExponent: fc.constantFrom(0, 1, 2.5),
  },
  { requiredKeys: [] },
);
const inputArb = fc.array(requestArb, { maxLength: 24 }).chain((requests) =>
  fc.record({
    jobs: fc.constant(requests.map((licenses, i) => ({ id: 1000 - 3 * i, licenses }))),
    copies: fc.record(Object.fromEntries(NAMES.map((n) => [n, fc.integer({ min: 0, max: 4 })]))),
    // Few distinct costs: ties in the greedy's ranking.
    costs: fc.array(
      fc.oneof(fc.constantFrom(0, 1, 2, 4), fc.double({ min: -1, max: 10, noNaN: true })),
      { minLength: requests.length, maxLength: requests.length },
    ),
  }),
);

/** preMatch's result computed plainly from `jobs` (clusters in the order `order` lists jobs). */
function plainPreMatch(
  jobs: readonly LicenseJob[],
  order: readonly LicenseJob[],
  copies: Record<string, number>,
  costs: readonly number[],
  greedy: Omit<MkpGreedyOptions, "costs">,
): PreMatchResult {
  const clustering = clusterLicenses(order, copies);
  const cleared = new Set<number>();
  const clusters = clustering.clusters.map((cluster) => {
    const at = cluster.jobs.map((id) => jobs.findIndex((j) => j.id === id));
    const instance: MkpInstance = {
      values: at.map((i) => costs[i] as number),
      weights: cluster.licenses.map((l) => at.map((i) => jobs[i]?.licenses?.[l] ?? 0)),
      capacities: cluster.licenses.map((l) => copies[l] ?? 0),
    };
    const chosen = new Set(mkpGreedy(instance, greedy).items);
    const keep = cluster.jobs.filter((_, item) => chosen.has(item));
    for (const id of cluster.jobs) if (!keep.includes(id)) cleared.add(id);
    return { ...cluster, instance, keep, optimal: false };
  });
  const clear = jobs.map((j) => j.id).filter((id) => cleared.has(id));
  return { clear, critical: clustering.critical, clusters };
}

describe("preMatch's greedy path equals the plain computation", () => {
  it("clustering built from jobs: same clusters, instances, kept and cleared jobs", () => {
    fc.assert(
      fc.property(inputArb, greedyArb, (input, greedy) => {
        const r = preMatch(input, { greedy });
        expect(r).toEqual(plainPreMatch(input.jobs, input.jobs, input.copies, input.costs, greedy));
      }),
      { numRuns: 300 },
    );
  });

  it("persistent clustering tracking more jobs, after departures: same as from scratch", () => {
    fc.assert(
      fc.property(
        inputArb,
        fc.array(requestArb, { maxLength: 6 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        greedyArb,
        (input, extra, removals, greedy) => {
          // Extra tracked jobs ask only for licenses with plenty of copies (never critical).
          const copies = { ...input.copies, g: 1000 };
          const lc = new LicenseClusters(copies);
          const tracked: LicenseJob[] = [];
          input.jobs.forEach((job, i) => {
            lc.add(job);
            tracked.push(job);
            const more = extra[i];
            if (more !== undefined) {
              const other = { id: 5000 + i, licenses: { g: 1 + Object.keys(more).length } };
              lc.add(other);
              tracked.push(other);
            }
          });
          const gone = new Set<number>();
          for (const k of removals) {
            const alive = input.jobs.filter((j) => !gone.has(j.id));
            if (alive.length === 0) break;
            const id = (alive[k % alive.length] as LicenseJob).id;
            lc.remove(id);
            gone.add(id);
          }
          const alive = input.jobs
            .map((job, i) => ({ job, cost: input.costs[i] as number }))
            .filter(({ job }) => !gone.has(job.id))
            .reverse(); // jobs not in arrival order: clusters still list arrival order
          const jobs = alive.map(({ job }) => job);
          const costs = alive.map(({ cost }) => cost);
          const r = preMatch({ jobs, copies, costs, clusters: lc }, { greedy });
          const order = tracked.filter((j) => !gone.has(j.id));
          expect(r).toEqual(plainPreMatch(jobs, order, copies, costs, greedy));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("ranks jobs whose records list the same licenses in another order alike", () => {
    // All three licenses are critical until job 1 or 2 goes. 0.1 + 0.2 + 0.3 > 0.6 = 0.3 + 0.2 +
    // 0.1: summed in record order, job 2's surrogate weight would be smaller than job 1's, and
    // job 1 would be dropped instead of job 2 (the tie goes to the higher index).
    const jobs = [
      { id: 1, licenses: { a: 0.1, b: 0.2, c: 0.3 } },
      { id: 2, licenses: { c: 0.3, b: 0.2, a: 0.1 } },
      { id: 3, licenses: { a: 0.85, b: 0.75, c: 0.65 } },
    ];
    const copies = { a: 1, b: 1, c: 1 };
    const costs = [1, 1, 100];
    for (const clusters of [undefined, new LicenseClusters(copies, jobs)]) {
      const input =
        clusters === undefined ? { jobs, copies, costs } : { jobs, copies, costs, clusters };
      const r = preMatch(input);
      expect(r.clear).toEqual([2]);
      expect(r).toEqual(plainPreMatch(jobs, jobs, copies, costs, {}));
    }
  });

  it("sums each job's shares in license-name order when jobs ask for many licenses of unlike copies", () => {
    // A job on 3-7 critical licenses with copies 3, 5, 7, ... has a surrogate weight
    // 1/3 + 1/5 + 1/7 + ... whose last bit depends on the order of the sum; two jobs on
    // different licenses can then rank one way in name order (the plain instance's constraint
    // order) and the other way in any other order, and keep other jobs.
    const names = ["a", "b", "c", "d", "e", "f", "g"];
    const manyArb = fc
      .array(fc.shuffledSubarray(names), { minLength: 5, maxLength: 40 })
      .chain((requests) =>
        fc.record({
          jobs: fc.constant(
            requests.map((licenses, id) => ({
              id,
              licenses: Object.fromEntries(licenses.map((l) => [l, 1])),
            })),
          ),
          copies: fc.record(
            Object.fromEntries(names.map((n) => [n, fc.constantFrom(3, 5, 6, 7, 9, 11, 13)])),
          ),
          costs: fc.array(fc.constantFrom(1, 2), {
            minLength: requests.length,
            maxLength: requests.length,
          }),
        }),
      );
    fc.assert(
      fc.property(manyArb, ({ jobs, copies, costs }) => {
        expect(preMatch({ jobs, copies, costs })).toEqual(
          plainPreMatch(jobs, jobs, copies, costs, {}),
        );
      }),
      { numRuns: 200 },
    );
  });

  it("a bad capacity is still named by the greedy's own check", () => {
    const jobs = [
      { id: 1, licenses: { a: 1 } },
      { id: 2, licenses: { a: 1 } },
    ];
    const lc = new LicenseClusters({ a: 1 }, jobs);
    expect(() => preMatch({ jobs, copies: { a: -1 }, costs: [1, 2], clusters: lc })).toThrowError(
      "@sched/knapsack/mkpGreedy: capacities[0] is -1, expected a number >= 0",
    );
  });
});
