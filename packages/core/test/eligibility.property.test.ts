import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type Allocation,
  eligibleMachines,
  fitsMachine,
  type Job,
  type LicenseRequest,
  licensesFreeOn,
  type Platform,
  ResourceLedger,
  whyNeverFits,
} from "../src/index.js";
import { arbPlatform } from "../src/testing/index.js";

// The oracle is the engine's resource ledger: eligibility must say yes exactly when the ledger
// accepts the corresponding allocation.

/** Whether `ledger` accepts `job` on `allocation` now (without taking anything). */
function accepts(ledger: ResourceLedger, job: Job, allocation: Allocation): boolean {
  try {
    ledger.check(job, allocation, "test");
    return true;
  } catch {
    return false;
  }
}

/** A job of 1..`maxCores` cores asking for some of the platform's licenses and a missing one, 1..4 copies each. */
function arbJob(platform: Platform, maxCores: number, id = 1): fc.Arbitrary<Job> {
  const names = [...platform.licenses.map((l) => l.name), "missing"];
  const request = fc
    .dictionary(fc.constantFrom(...names), fc.integer({ min: 1, max: 4 }), { maxKeys: 3 })
    .map((r) => r as LicenseRequest);
  return fc
    .record({ cores: fc.integer({ min: 1, max: maxCores }), licenses: fc.option(request) })
    .map(({ cores, licenses }) => ({
      id,
      submit: 0,
      runtime: 1,
      estimate: 1,
      cores,
      ...(licenses === null ? {} : { licenses }),
    }));
}

const farm = arbPlatform({ shape: "farm", maxMachines: 5, maxCores: 4 });

/** A platform and a ledger on it holding some jobs (placed on one machine each, where they fit). */
const busy = farm.chain((platform) =>
  fc
    .tuple(
      fc.constant(platform),
      fc.array(
        fc.tuple(arbJob(platform, 4, 100), fc.integer({ min: 0, max: platform.machines.length })),
        { maxLength: 4 },
      ),
      arbJob(platform, 3),
    )
    .map(([p, held, job]) => {
      const ledger = new ResourceLedger(p);
      held.forEach(([h, m], k) => {
        const allocation = [{ machine: m % p.machines.length, cores: h.cores }];
        const j = { ...h, id: 100 + k };
        if (accepts(ledger, j, allocation)) ledger.take(j, allocation);
      });
      return { platform: p, ledger, job };
    }),
);

/** Every allocation of `job` on `platform`: a first machine, then a subset of the others, cores filled greedily. */
function* allocations(job: Job, platform: Platform): Generator<Allocation> {
  const n = platform.machines.length;
  for (let first = 0; first < n; first++) {
    for (let mask = 0; mask < 1 << n; mask++) {
      if ((mask >> first) & 1) continue;
      const machines = [first];
      for (let m = 0; m < n; m++) if ((mask >> m) & 1) machines.push(m);
      const parts: { machine: number; cores: number }[] = [];
      let left = job.cores;
      for (const m of machines) {
        const take = Math.min(left, platform.machines[m]!.cores);
        if (take > 0) parts.push({ machine: m, cores: take });
        left -= take;
      }
      if (left === 0) yield parts;
    }
  }
}

describe("eligibility agrees with the engine's resource ledger", () => {
  it("fitsMachine(job, platform, m) exactly when the empty platform accepts the job alone on m", () => {
    fc.assert(
      fc.property(
        farm.chain((p) => fc.tuple(fc.constant(p), arbJob(p, 5))),
        ([platform, job]) => {
          const ledger = new ResourceLedger(platform);
          for (let m = 0; m < platform.machines.length; m++) {
            expect(fitsMachine(job, platform, m)).toBe(
              accepts(ledger, job, [{ machine: m, cores: job.cores }]),
            );
          }
        },
      ),
    );
  });

  it("eligibleMachines lists the machines fitsMachine accepts, ascending", () => {
    fc.assert(
      fc.property(
        farm.chain((p) => fc.tuple(fc.constant(p), arbJob(p, 5))),
        ([platform, job]) => {
          const expected = platform.machines
            .map((m) => m.id)
            .filter((m) => fitsMachine(job, platform, m));
          expect(eligibleMachines(job, platform)).toEqual(expected);
        },
      ),
    );
  });

  it("whyNeverFits is null exactly when some allocation is accepted on the empty platform (brute force)", () => {
    fc.assert(
      fc.property(
        farm.chain((p) => fc.tuple(fc.constant(p), arbJob(p, 12))),
        ([platform, job]) => {
          const ledger = new ResourceLedger(platform);
          let any = false;
          for (const a of allocations(job, platform)) {
            if (accepts(ledger, job, a)) {
              any = true;
              break;
            }
          }
          const why = whyNeverFits(job, platform);
          expect(why === null).toBe(any);
          if (why !== null) expect(why).toMatch(/^needs |^no machine holds/);
          const single = whyNeverFits(job, platform, { singleMachine: true });
          expect(single === null).toBe(eligibleMachines(job, platform).length > 0);
        },
      ),
    );
  });

  it("licensesFreeOn, with the machine's free cores, says whether the ledger accepts the job on it now", () => {
    fc.assert(
      fc.property(busy, ({ platform, ledger, job }) => {
        const view = {
          platform,
          freeLicenses: (name: string, m: number) => ledger.freeLicenses(name, m),
        };
        for (let m = 0; m < platform.machines.length; m++) {
          const now = ledger.freeCores(m) >= job.cores && licensesFreeOn(job, view, m);
          expect(now).toBe(accepts(ledger, job, [{ machine: m, cores: job.cores }]));
        }
      }),
    );
  });

  it("licensesFreeOn with first: false decides the other machine of a two-machine allocation", () => {
    fc.assert(
      fc.property(busy, ({ platform, ledger, job }) => {
        const two = { ...job, cores: 2 };
        const view = {
          platform,
          freeLicenses: (name: string, m: number) => ledger.freeLicenses(name, m),
        };
        const n = platform.machines.length;
        for (let f = 0; f < n; f++) {
          for (let m = 0; m < n; m++) {
            if (m === f || ledger.freeCores(f) < 1 || ledger.freeCores(m) < 1) continue;
            const allocation = [
              { machine: f, cores: 1 },
              { machine: m, cores: 1 },
            ];
            const ok =
              licensesFreeOn(two, view, f) && licensesFreeOn(two, view, m, { first: false });
            expect(ok).toBe(accepts(ledger, two, allocation));
          }
        }
      }),
    );
  });
});
