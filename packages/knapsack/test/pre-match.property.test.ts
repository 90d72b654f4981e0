import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LicenseClusters, type LicenseJob, preMatch } from "../src/index.js";
import { clone } from "./helpers.js";

const NAMES = ["a", "b", "c", "d", "e"];
const inputArb = fc
  .array(fc.dictionary(fc.constantFrom(...NAMES), fc.integer({ min: 0, max: 2 }), { maxKeys: 3 }), {
    maxLength: 12,
  })
  .chain((needs) =>
    fc.record({
      jobs: fc.constant(needs.map((licenses, i) => ({ id: 50 - i, licenses }))),
      copies: fc.record(Object.fromEntries(NAMES.map((n) => [n, fc.integer({ min: 0, max: 3 })]))),
      costs: fc.array(fc.double({ min: 0, max: 10, noNaN: true }), {
        minLength: needs.length,
        maxLength: needs.length,
      }),
    }),
  );

function usage(kept: readonly LicenseJob[], name: string): number {
  return kept.reduce((sum, job) => sum + (job.licenses?.[name] ?? 0), 0);
}

describe("preMatch properties", () => {
  it("the jobs not cleared never ask for more copies than available; only clustered jobs are cleared", () => {
    fc.assert(
      fc.property(
        inputArb,
        fc.constantFrom("greedy" as const, "exact" as const),
        (input, solver) => {
          const before = clone(input);
          const r = preMatch(input, { solver });
          expect(input).toEqual(before);
          const cleared = new Set(r.clear);
          const kept = input.jobs.filter((job) => !cleared.has(job.id));
          for (const name of NAMES) {
            expect(usage(kept, name)).toBeLessThanOrEqual(input.copies[name] as number);
          }
          const clustered = new Set(r.clusters.flatMap((c) => c.jobs));
          for (const id of r.clear) expect(clustered.has(id)).toBe(true);
          // clear is in input order
          const order = input.jobs.map((j) => j.id).filter((id) => cleared.has(id));
          expect(r.clear).toEqual(order);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("the exact solver keeps at least the greedy's total cost in every cluster", () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const g = preMatch(input);
        const e = preMatch(input, { solver: "exact" });
        expect(e.clusters.length).toBe(g.clusters.length);
        e.clusters.forEach((cluster, c) => {
          const value = (keep: readonly number[]) =>
            keep.reduce(
              (s, id) => s + (input.costs[input.jobs.findIndex((j) => j.id === id)] as number),
              0,
            );
          expect(cluster.optimal).toBe(true);
          expect(value(cluster.keep)).toBeGreaterThanOrEqual(
            value(g.clusters[c]?.keep ?? []) - 1e-9,
          );
        });
      }),
      { numRuns: 150 },
    );
  });
});

describe("preMatch with a persistent LicenseClusters", () => {
  it("equals preMatch over the tracked jobs in arrival order, after any adds and removes", () => {
    fc.assert(
      fc.property(
        inputArb,
        fc.array(fc.nat(), { maxLength: 6 }),
        fc.constantFrom("greedy" as const, "exact" as const),
        (input, removals, solver) => {
          const lc = new LicenseClusters(input.copies);
          for (const job of input.jobs) lc.add(job);
          const gone = new Set<number>();
          for (const r of removals) {
            const alive = input.jobs.filter((j) => !gone.has(j.id));
            if (alive.length === 0) break;
            const id = (alive[r % alive.length] as LicenseJob).id;
            lc.remove(id);
            gone.add(id);
          }
          const keep = input.jobs.map((j, i) => [j, input.costs[i] as number] as const);
          const alive = keep.filter(([j]) => !gone.has(j.id));
          const jobs = alive.map(([j]) => j);
          const costs = alive.map(([, c]) => c);
          const fresh = preMatch({ jobs, copies: input.copies, costs }, { solver });
          const kept = preMatch({ jobs, copies: input.copies, costs, clusters: lc }, { solver });
          expect(kept.clear).toEqual(fresh.clear);
          expect(kept.critical).toEqual(fresh.critical);
          expect(kept.clusters.map((c) => c.keep)).toEqual(fresh.clusters.map((c) => c.keep));
        },
      ),
      { numRuns: 200 },
    );
  });
  it("accepts a clustering that tracks more jobs when they are on no critical license", () => {
    const lc = new LicenseClusters({ a: 1, b: 5 });
    lc.add({ id: 1, licenses: { a: 1 } });
    lc.add({ id: 2, licenses: { a: 1 } });
    lc.add({ id: 3, licenses: { b: 1 } });
    const r = preMatch(
      {
        jobs: [
          { id: 1, licenses: { a: 1 } },
          { id: 2, licenses: { a: 1 } },
        ],
        copies: { a: 1, b: 5 },
        costs: [1, 2],
        clusters: lc,
      },
      {},
    );
    expect(r.clear).toEqual([1]);
  });
  it("refuses a clustering that is not a LicenseClusters, naming it (not a raw TypeError)", () => {
    const jobs = [{ id: 1, licenses: { a: 1 } }];
    for (const clusters of [{}, { has: () => true }, [], "lc"]) {
      expect(() =>
        preMatch({ jobs, copies: { a: 1 }, costs: [1], clusters: clusters as never }),
      ).toThrow("@sched/knapsack/preMatch: clusters is not a LicenseClusters");
    }
  });

  it("names a clustered job missing from jobs, and a job the clustering does not track", () => {
    const lc = new LicenseClusters({ a: 1 });
    lc.add({ id: 1, licenses: { a: 1 } });
    lc.add({ id: 2, licenses: { a: 1 } });
    expect(() =>
      preMatch({
        jobs: [{ id: 1, licenses: { a: 1 } }],
        copies: { a: 1 },
        costs: [1],
        clusters: lc,
      }),
    ).toThrow(/job 2/);
    expect(() =>
      preMatch({
        jobs: [
          { id: 1, licenses: { a: 1 } },
          { id: 7, licenses: { a: 1 } },
        ],
        copies: { a: 1 },
        costs: [1, 1],
        clusters: lc,
      }),
    ).toThrow(/id 7/);
  });
});
