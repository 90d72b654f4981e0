import { describe, expect, it } from "vitest";
import {
  createJob,
  createPlatform,
  eligibleMachines,
  fitsMachine,
  type Job,
  licensesFreeOn,
  whyNeverFits,
} from "../src/index.js";
import { makeView } from "../src/testing/index.js";

// A hand-worked platform: three machines of 2, 2 and 4 cores; "flo" floating, 2 copies, usable on
// machines 1 and 2; "cad" floating, 3 copies, usable everywhere; "lock" node-locked, 1 copy on
// machine 2 only.
const platform = createPlatform({
  machines: [
    { cores: 2, speed: 1 },
    { cores: 2, speed: 3 },
    { cores: 4, speed: 2 },
  ],
  licenses: [
    { name: "flo", copies: 2, machines: [1, 2] },
    { name: "cad", copies: 3 },
    { name: "lock", kind: "node-locked", copies: 1, machines: [2] },
  ],
});

/** Job 1 of `cores` cores asking for `licenses`. */
function job(cores: number, licenses: Record<string, number> = {}): Job {
  return createJob({ id: 1, submit: 0, runtime: 1, cores, licenses });
}

describe("eligibility on a hand-worked platform", () => {
  it("fitsMachine: enough cores on the machine, licenses servable there", () => {
    expect([0, 1, 2].map((m) => fitsMachine(job(2), platform, m))).toEqual([true, true, true]);
    expect([0, 1, 2].map((m) => fitsMachine(job(3), platform, m))).toEqual([false, false, true]);
    // flo is not usable on machine 0.
    expect([0, 1, 2].map((m) => fitsMachine(job(1, { flo: 1 }), platform, m))).toEqual([
      false,
      true,
      true,
    ]);
    // cad is usable everywhere, with 3 copies in all.
    expect(eligibleMachines(job(1, { cad: 3 }), platform)).toEqual([0, 1, 2]);
    expect(eligibleMachines(job(1, { cad: 4 }), platform)).toEqual([]);
    // lock lives on machine 2 only, one copy there.
    expect(eligibleMachines(job(1, { lock: 1 }), platform)).toEqual([2]);
    expect(eligibleMachines(job(1, { lock: 2 }), platform)).toEqual([]);
    expect(eligibleMachines(job(2, { flo: 2, lock: 1 }), platform)).toEqual([2]);
    // A license the platform lacks, a machine that does not exist.
    expect(eligibleMachines(job(1, { nope: 1 }), platform)).toEqual([]);
    expect(fitsMachine(job(1), platform, 3)).toBe(false);
    expect(fitsMachine(job(1), platform, -1)).toBe(false);
  });

  it("licensesFreeOn counts the copies running jobs hold, node-locked ones on the first machine only", () => {
    const holder = createJob({
      id: 9,
      submit: 0,
      runtime: 1,
      cores: 1,
      licenses: { cad: 2, lock: 1 },
    });
    const view = makeView(platform, {
      running: [
        {
          job: holder,
          allocation: [{ machine: 2, cores: 1 }],
          start: 0,
          progressAtStart: 0,
          progress: 0,
          estimatedEnd: 1,
        },
      ],
    });
    expect(licensesFreeOn(job(1, { cad: 1 }), view, 0)).toBe(true);
    expect(licensesFreeOn(job(1, { cad: 2 }), view, 0)).toBe(false);
    // The only copy of lock is held: machine 2 cannot be first, but can be another machine.
    expect(licensesFreeOn(job(1, { lock: 1 }), view, 2)).toBe(false);
    expect(licensesFreeOn(job(1, { lock: 1 }), view, 2, { first: false })).toBe(true);
    // flo is not usable on machine 0, first or not; it is on machine 1.
    expect(licensesFreeOn(job(1, { flo: 1 }), view, 0, { first: false })).toBe(false);
    expect(licensesFreeOn(job(1, { flo: 2 }), view, 1)).toBe(true);
    expect(licensesFreeOn(job(1, { nope: 1 }), view, 1, { first: false })).toBe(false);
    expect(licensesFreeOn(job(4), view, 0)).toBe(true);
  });

  it("answers about one job on two platforms from each platform's own licenses", () => {
    // flo is usable on machines 1 and 2 here, on machine 0 only there.
    const other = createPlatform({
      machines: [{ cores: 2 }, { cores: 2 }],
      licenses: [{ name: "flo", copies: 2, machines: [0] }],
    });
    const j = job(1, { flo: 1 });
    expect(fitsMachine(j, platform, 1)).toBe(true);
    expect(fitsMachine(j, other, 1)).toBe(false);
    expect(fitsMachine(j, other, 0)).toBe(true);
    expect(eligibleMachines(j, other)).toEqual([0]);
    expect(fitsMachine(j, platform, 0)).toBe(false);
    expect(eligibleMachines(j, platform)).toEqual([1, 2]);
  });

  it("licensesFreeOn takes where a floating license is usable from the platform, not the view", () => {
    // A view that reports the pool's free copies on every machine (as a pass state keeps them).
    const pool = { platform, freeLicenses: () => 2 };
    expect(licensesFreeOn(job(1, { flo: 1 }), pool, 0)).toBe(false);
    expect(licensesFreeOn(job(1, { flo: 1 }), pool, 0, { first: false })).toBe(false);
    expect(licensesFreeOn(job(1, { flo: 1 }), pool, 1)).toBe(true);
  });

  it("whyNeverFits names why a job can never run, and is null when it can", () => {
    expect(whyNeverFits(job(9), platform)).toBe("needs 9 cores, the platform has 8");
    expect(whyNeverFits(job(1, { nope: 1 }), platform)).toBe(
      "needs license nope, which the platform does not have",
    );
    expect(whyNeverFits(job(1, { flo: 3 }), platform)).toBe(
      "needs 3 copies of license flo, which has 2",
    );
    expect(whyNeverFits(job(7, { flo: 1 }), platform)).toBe(
      "needs 7 cores, the machines where its licenses are usable have 6",
    );
    expect(whyNeverFits(job(5, { lock: 1 }), platform, { singleMachine: true })).toBe(
      "needs 5 cores on one machine, the largest where its licenses are usable has 4",
    );
    // Spanning machines: lock's copy on machine 2 (first), the rest anywhere.
    expect(whyNeverFits(job(5, { lock: 1 }), platform)).toBeNull();
    expect(whyNeverFits(job(3), platform, { singleMachine: true })).toBeNull();
    // A job that asks for no license at all (the answer known per platform, not per machine).
    const plain = (cores: number): Job => {
      const { licenses: _, ...rest } = job(cores);
      return rest;
    };
    expect(whyNeverFits(plain(5), platform, { singleMachine: true })).toBe(
      "needs 5 cores on one machine, the largest where its licenses are usable has 4",
    );
    expect(whyNeverFits(plain(4), platform, { singleMachine: true })).toBeNull();
    expect(whyNeverFits(plain(9), platform, { singleMachine: true })).toBe(
      "needs 9 cores, the platform has 8",
    );
    expect(whyNeverFits(job(3, { flo: 1, lock: 1 }), platform, { singleMachine: true })).toBeNull();
    // Every license exists with enough copies, but no machine serves both.
    const split = createPlatform({
      machines: [{ cores: 2 }, { cores: 2 }],
      licenses: [
        { name: "a", kind: "node-locked", copies: 1, machines: [0] },
        { name: "b", kind: "node-locked", copies: 1, machines: [1] },
      ],
    });
    expect(whyNeverFits(job(1, { a: 1, b: 1 }), split)).toBe(
      "no machine holds every license it needs",
    );
  });
});
