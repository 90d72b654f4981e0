import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  clusterLicenses,
  type LicenseClustering,
  LicenseClusters,
  type LicenseJob,
} from "../src/index.js";

const NAMES = ["a", "b", "c", "d", "e", "f"];
const copiesArb = fc.record(
  Object.fromEntries(NAMES.map((n) => [n, fc.integer({ min: 0, max: 3 })])),
);
const needsArb = fc.dictionary(fc.constantFrom(...NAMES), fc.integer({ min: 0, max: 2 }), {
  maxKeys: 3,
});
const jobsArb = fc
  .array(needsArb, { maxLength: 14 })
  .map((needs) => needs.map((licenses, i) => ({ id: 100 + i, licenses })));

function checkInvariants(jobs: readonly LicenseJob[], r: LicenseClustering): void {
  const critical = new Set(r.critical);
  const clusterOf = new Map<number, number>();
  r.clusters.forEach((cluster, c) => {
    for (const id of cluster.jobs) {
      expect(clusterOf.has(id)).toBe(false); // no job in two clusters
      clusterOf.set(id, c);
    }
  });
  const criticalOf = (job: LicenseJob) =>
    Object.keys(job.licenses ?? {}).filter((l) => (job.licenses?.[l] ?? 0) > 0 && critical.has(l));
  for (const job of jobs) {
    // A job is clustered exactly when it asks for a critical license.
    expect(clusterOf.has(job.id)).toBe(criticalOf(job).length > 0);
  }
  for (const x of jobs) {
    for (const y of jobs) {
      if (criticalOf(x).some((l) => criticalOf(y).includes(l))) {
        expect(clusterOf.get(x.id)).toBe(clusterOf.get(y.id)); // sharing a critical license
      }
    }
  }
  for (const cluster of r.clusters) {
    // Licenses are exactly the critical ones its jobs ask for, and the cluster is connected.
    const members = jobs.filter((j) => cluster.jobs.includes(j.id));
    expect(cluster.licenses).toEqual([...new Set(members.flatMap(criticalOf))].sort());
    const reached = new Set([cluster.jobs[0]]);
    let grew = true;
    while (grew) {
      grew = false;
      for (const x of members) {
        if (reached.has(x.id)) continue;
        if (
          members.some(
            (y) => reached.has(y.id) && criticalOf(y).some((l) => criticalOf(x).includes(l)),
          )
        ) {
          reached.add(x.id);
          grew = true;
        }
      }
    }
    expect(reached.size).toBe(cluster.jobs.length);
  }
  for (const [name, rho] of Object.entries(r.rho)) expect(critical.has(name)).toBe(rho > 1);
}

describe("license clustering properties", () => {
  it("puts jobs sharing a critical license together, no job in two clusters, clusters connected", () => {
    fc.assert(
      fc.property(jobsArb, copiesArb, (jobs, copies) => {
        checkInvariants(jobs, clusterLicenses(jobs, copies));
      }),
      { numRuns: 300 },
    );
  });

  it("LicenseClusters after arrivals, departures and copy changes equals clustering from scratch", () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant("add" as const), licenses: needsArb }),
      fc.record({ kind: fc.constant("remove" as const), pick: fc.nat() }),
      fc.record({
        kind: fc.constant("copies" as const),
        name: fc.constantFrom(...NAMES),
        copies: fc.integer({ min: 0, max: 3 }),
      }),
    );
    fc.assert(
      fc.property(copiesArb, fc.array(op, { maxLength: 40 }), (initial, ops) => {
        const copies: Record<string, number> = { ...initial };
        const lc = new LicenseClusters(copies);
        const live: LicenseJob[] = [];
        let nextId = 0;
        for (const o of ops) {
          if (o.kind === "add") {
            const job = { id: nextId++, licenses: o.licenses };
            lc.add(job);
            live.push(job);
          } else if (o.kind === "remove") {
            if (live.length === 0) continue;
            const [job] = live.splice(o.pick % live.length, 1);
            expect(lc.remove((job as LicenseJob).id)).toBe(true);
          } else {
            copies[o.name] = o.copies;
            lc.setCopies(o.name, o.copies);
          }
          const fresh = clusterLicenses(live, copies);
          expect(lc.snapshot()).toEqual(fresh);
          checkInvariants(live, fresh);
        }
      }),
      { numRuns: 150 },
    );
  });

  it("LicenseClusters splits a component when a departing job was its only bridge", () => {
    // Scarce copies (most licenses critical) and jobs on two or three licenses: departures
    // often cut a component in two, or leave it whole through another path.
    const bridgeArb = fc.uniqueArray(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 3 });
    fc.assert(
      fc.property(
        fc.array(bridgeArb, { minLength: 1, maxLength: 16 }),
        fc.array(fc.nat(), { minLength: 1, maxLength: 16 }),
        fc.integer({ min: 0, max: 1 }),
        (requests, removals, spare) => {
          const copies = Object.fromEntries(NAMES.map((n, k) => [n, k % 2 === 0 ? 0 : spare]));
          const live: LicenseJob[] = requests.map((names, i) => ({
            id: i,
            licenses: Object.fromEntries(names.map((n) => [n, 1])),
          }));
          const lc = new LicenseClusters(copies, live);
          for (const k of removals) {
            if (live.length === 0) break;
            const [job] = live.splice(k % live.length, 1);
            lc.remove((job as LicenseJob).id);
            expect(lc.snapshot()).toEqual(clusterLicenses(live, copies));
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
