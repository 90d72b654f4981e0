import { InvalidInputError } from "@sched/errors";
import { describe, expect, it } from "vitest";
import { clusterLicenses, LicenseClusters } from "../src/index.js";

describe("clusterLicenses", () => {
  it("groups jobs sharing critical licenses and leaves the others out", () => {
    const r = clusterLicenses(
      [
        { id: 1, licenses: { cad: 1 } },
        { id: 2, licenses: { cad: 1, fem: 1 } },
        { id: 3, licenses: { sim: 1 } },
      ],
      { cad: 1, fem: 4, sim: 4 },
    );
    expect(r).toEqual({
      rho: { cad: 2, fem: 0.25, sim: 0.25 },
      critical: ["cad"],
      clusters: [{ jobs: [1, 2], licenses: ["cad"] }],
    });
  });

  it("links clusters through a job that asks for two critical licenses (the hypergraph)", () => {
    const jobs = [
      { id: 10, licenses: { a: 1 } },
      { id: 11, licenses: { b: 1 } },
      { id: 12, licenses: { a: 1 } },
      { id: 13, licenses: { b: 1 } },
      { id: 14, licenses: { c: 1 } },
      { id: 15, licenses: { c: 1 } },
    ];
    const copies = { a: 1, b: 1, c: 1 };
    expect(clusterLicenses(jobs, copies).clusters).toEqual([
      { jobs: [10, 12], licenses: ["a"] },
      { jobs: [11, 13], licenses: ["b"] },
      { jobs: [14, 15], licenses: ["c"] },
    ]);
    expect(
      clusterLicenses([...jobs, { id: 16, licenses: { a: 1, b: 1 } }], copies).clusters,
    ).toEqual([
      { jobs: [10, 11, 12, 13, 16], licenses: ["a", "b"] },
      { jobs: [14, 15], licenses: ["c"] },
    ]);
  });

  it("sums requested copies, treats unknown licenses as 0 copies and rho = 1 as not critical", () => {
    const r = clusterLicenses(
      [
        { id: 1, licenses: { big: 3, ghost: 1 } },
        { id: 2, licenses: { big: 2, even: 2, none: 0 } },
        { id: 3 },
      ],
      { big: 4, even: 2, spare: 1 },
    );
    expect(r.rho).toEqual({ big: 1.25, even: 1, ghost: Number.POSITIVE_INFINITY, spare: 0 });
    expect(r.critical).toEqual(["big", "ghost"]);
    expect(r.clusters).toEqual([{ jobs: [1, 2], licenses: ["big", "ghost"] }]);
  });

  it("rejects duplicate ids and bad copies, naming the field", () => {
    expect(() => clusterLicenses([{ id: 1 }, { id: 1 }], {})).toThrow(
      "@sched/knapsack/clusterLicenses: jobs[1].id is 1, which is already tracked",
    );
    expect(() => new LicenseClusters({}, [{ id: 1 }]).add({ id: 1 })).toThrow(
      "@sched/knapsack/LicenseClusters: job.id is 1, which is already tracked",
    );
    expect(() => clusterLicenses([], { a: -1 })).toThrow(InvalidInputError);
    expect(() => clusterLicenses([{ id: 1, licenses: { a: Number.NaN } }], { a: 1 })).toThrow(
      /jobs\[0\]\.licenses\.a is NaN/,
    );
  });

  it("names the first bad license of a request by name, whatever the record's key order", () => {
    const licenses = { zeta: -1, beta: 1, alpha: Number.POSITIVE_INFINITY, gamma: Number.NaN };
    expect(() => new LicenseClusters({}).add({ id: 1, licenses })).toThrow(
      "@sched/knapsack/LicenseClusters: job.licenses.alpha is Infinity, expected a finite number >= 0",
    );
    const lc = new LicenseClusters({ a: 1 });
    expect(() => lc.add({ id: 2, licenses: { b: 1, a: "1" as never } })).toThrow(
      "@sched/knapsack/LicenseClusters: job.licenses.a is string, expected a finite number >= 0",
    );
    expect(lc.has(2)).toBe(false);
    // Requests are kept in name order (with -0 and 0 left out) whatever the key order.
    lc.add({ id: 3, licenses: { c: 1, a: 2, b: -0, d: 0 } });
    lc.add({ id: 4, licenses: { c: 1, a: 1 } });
    expect(lc.snapshot()).toEqual(
      clusterLicenses(
        [
          { id: 3, licenses: { a: 2, c: 1 } },
          { id: 4, licenses: { a: 1, c: 1 } },
        ],
        { a: 1 },
      ),
    );
  });

  it("rejects jobs that are not iterable with a typed error (a TypeError before)", () => {
    expect(() => clusterLicenses(null as never, { a: 1 })).toThrow(
      "@sched/knapsack/clusterLicenses: jobs is null, expected an iterable of { id, licenses? }",
    );
    expect(() => new LicenseClusters({ a: 1 }, { id: 1 } as never)).toThrow(InvalidInputError);
  });
});

describe("LicenseClusters", () => {
  it("merges clusters when a license becomes critical and splits them when it stops", () => {
    const lc = new LicenseClusters({ cad: 1, fem: 1, sim: 5 });
    lc.add({ id: 1, licenses: { cad: 1 } });
    lc.add({ id: 2, licenses: { cad: 1, fem: 1 } });
    expect(lc.clusters()).toEqual([{ jobs: [1, 2], licenses: ["cad"] }]);
    lc.add({ id: 3, licenses: { fem: 1, sim: 1 } });
    expect(lc.critical()).toEqual(["cad", "fem"]);
    expect(lc.clusters()).toEqual([{ jobs: [1, 2, 3], licenses: ["cad", "fem"] }]);
    lc.add({ id: 4, licenses: { fem: 1 } });
    // Job 2 leaves: cad is no longer critical; fem still is (jobs 3 and 4).
    expect(lc.remove(2)).toBe(true);
    expect(lc.clusters()).toEqual([{ jobs: [3, 4], licenses: ["fem"] }]);
    expect(lc.remove(2)).toBe(false);
    expect(lc.size).toBe(3);
    expect(lc.has(3)).toBe(true);
    expect(lc.rho("cad")).toBe(1);
    expect(lc.isCritical("fem")).toBe(true);
  });

  it("splits a cluster when the job linking two licenses leaves", () => {
    const lc = new LicenseClusters({ a: 1, b: 1 }, [
      { id: 1, licenses: { a: 1 } },
      { id: 2, licenses: { a: 1, b: 1 } },
      { id: 3, licenses: { b: 1 } },
      { id: 4, licenses: { a: 1 } },
      { id: 5, licenses: { b: 1 } },
    ]);
    expect(lc.clusters()).toEqual([{ jobs: [1, 2, 3, 4, 5], licenses: ["a", "b"] }]);
    lc.remove(2);
    expect(lc.clusters()).toEqual([
      { jobs: [1, 4], licenses: ["a"] },
      { jobs: [3, 5], licenses: ["b"] },
    ]);
  });

  it("reacts to changes in the available copies", () => {
    const lc = new LicenseClusters({ a: 2 }, [
      { id: 1, licenses: { a: 1 } },
      { id: 2, licenses: { a: 1 } },
    ]);
    expect(lc.clusters()).toEqual([]);
    lc.setCopies("a", 1);
    expect(lc.clusters()).toEqual([{ jobs: [1, 2], licenses: ["a"] }]);
    lc.setCopies("a", 5);
    expect(lc.critical()).toEqual([]);
    expect(() => lc.setCopies("a", Number.NaN)).toThrow(/copies\.a is NaN/);
  });
});
