import { describe, expect, it } from "vitest";
import {
  compareLicenseWeight,
  licenseOffer,
  licenseRho,
  licensesHeuristic,
  licenseWeight,
} from "../src/licenses.js";
import { contextOf, farm, job, row, rowOf } from "./helpers.js";

const platform = farm({
  licenses: [
    { name: "cad", copies: 2 },
    { name: "fem", copies: 4, machines: [0, 1] },
    { name: "nl", kind: "node-locked", copies: 1, machines: [1, 2] },
  ],
});
const jobs = [
  job({ id: 1, licenses: { cad: 1 } }),
  job({ id: 2, licenses: { cad: 1, fem: 1 } }),
  job({ id: 3, licenses: { cad: 1 } }),
  job({ id: 4, licenses: { nl: 1 } }),
  job({ id: 5 }),
];
const rows = jobs.map((j) => rowOf(j));

describe("licenses", () => {
  it("licenseOffer: floating copies; node-locked copies x machines", () => {
    expect(licenseOffer(platform)).toEqual({ cad: 2, fem: 4, nl: 2 });
  });
  it("licenseRho: requests over offer (cad 3/2 is critical)", () => {
    expect(licenseRho(rows, platform)).toEqual({ cad: 1.5, fem: 0.25, nl: 0.5 });
    expect(licenseRho([], platform)).toEqual({ cad: 0, fem: 0, nl: 0 });
  });
  it("licenseRho: a license asked for but offered nowhere has an infinite rho (none asked: 0)", () => {
    const none = farm({
      licenses: [
        { name: "gone", copies: 0 },
        { name: "nowhere", kind: "node-locked", copies: 2, machines: [] },
      ],
    });
    const asking = [rowOf(job({ id: 1, licenses: { gone: 1, nowhere: 1 } }))];
    expect(licenseOffer(none)).toEqual({ gone: 0, nowhere: 0 });
    expect(licenseRho(asking, none)).toEqual({
      gone: Number.POSITIVE_INFINITY,
      nowhere: Number.POSITIVE_INFINITY,
    });
    expect(licenseRho([], none)).toEqual({ gone: 0, nowhere: 0 });
  });
  it("licenseWeight: w = |L| * critical part + non-critical part", () => {
    const rho = licenseRho(rows, platform);
    expect(licenseWeight(jobs[0]!.licenses, rho, 3)).toEqual({
      critical: 1.5,
      nonCritical: 0,
      w: 4.5,
    });
    expect(licenseWeight(jobs[1]!.licenses, rho, 3)).toEqual({
      critical: 1.5,
      nonCritical: 0.25,
      w: 4.75,
    });
    expect(licenseWeight(undefined, rho, 3).w).toBe(0);
    expect(licenseWeight({ gone: 1 }, { gone: Number.POSITIVE_INFINITY }, 3).w).toBe(0);
  });
  it("compareLicenseWeight orders by critical part first, then the rest", () => {
    const a = { critical: 1, nonCritical: 9, w: 12 };
    const b = { critical: 2, nonCritical: 0, w: 6 };
    expect(compareLicenseWeight(a, b)).toBeLessThan(0);
    expect(compareLicenseWeight(b, a)).toBeGreaterThan(0);
    expect(compareLicenseWeight(a, { ...a, nonCritical: 10 })).toBeLessThan(0);
    expect(compareLicenseWeight(a, a)).toBe(0);
  });
  it("licensesHeuristic: LI * w(i) / max w on eligible machines", () => {
    const ctx = contextOf(platform, rows);
    const p = new Float64Array(rows.length * 3);
    licensesHeuristic().apply(ctx, p);
    expect(row(p, 0, 3)).toEqual([(2.5 * 4.5) / 4.75, (2.5 * 4.5) / 4.75, (2.5 * 4.5) / 4.75]);
    expect(row(p, 1, 3)).toEqual([2.5, 2.5, 0]); // fem only on m0, m1
    expect(row(p, 3, 3)).toEqual([0, (2.5 * 0.5) / 4.75, (2.5 * 0.5) / 4.75]); // nl on m1, m2
    expect(row(p, 4, 3)).toEqual([0, 0, 0]);
  });
  it("licensesHeuristic adds nothing when no job asks for a license", () => {
    const ctx = contextOf(platform, [rowOf(job({ id: 9 }))]);
    const p = new Float64Array(3);
    licensesHeuristic({ weight: 7 }).apply(ctx, p);
    expect(Array.from(p)).toEqual([0, 0, 0]);
  });
});

describe("licenses: rho = 1 exactly (critical means rho > 1), and the comparator's check", () => {
  // two copies of cad, two jobs asking for one each: rho 1, not critical
  const two = farm({
    licenses: [
      { name: "cad", copies: 2 },
      { name: "fem", copies: 4 },
    ],
  });
  const asking = [
    rowOf(job({ id: 1, licenses: { cad: 1 } })),
    rowOf(job({ id: 2, licenses: { cad: 1, fem: 1 } })),
  ];
  it("licenseWeight counts a license at rho 1 in the non-critical part", () => {
    const rho = licenseRho(asking, two);
    expect(rho).toEqual({ cad: 1, fem: 0.25 });
    expect(licenseWeight({ cad: 1, fem: 1 }, rho, 2)).toEqual({
      critical: 0,
      nonCritical: 1.25,
      w: 1.25,
    });
  });
  it("compareLicenseWeight refuses a NaN part", () => {
    const ok = { critical: 1, nonCritical: 0, w: 2 };
    expect(() => compareLicenseWeight({ ...ok, nonCritical: Number.NaN }, ok)).toThrow(
      "@sched/convergent/compareLicenseWeight: a.nonCritical is NaN, expected a number",
    );
  });
});
