import {
  createPlatform,
  type Job,
  licensesFreeOn,
  type Scheduler,
  simulate,
  whyNeverFits,
} from "@sched/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { edf } from "../src/edf.js";
import { job } from "./support/run.js";

// EDF without preemption is a list greedy: at each call it walks the queue in deadline order
// and starts every job that fits when its turn comes. A job it passes over cannot fit later in
// the same call (starts only take cores and licenses), so after every call no ready waiting job
// that belongs on one machine may fit on any machine. The pass skips, without searching, a
// job that needs more cores than any one machine has free: this checks that it never skips one
// that fits, on farms of unequal machines with floating and node-locked licenses.
describe("edf: nothing that fits is left waiting after a call", () => {
  it("holds on random farms, with licenses, every machine order and both deadline orders", () => {
    const machineArb = fc.record({
      cores: fc.integer({ min: 1, max: 8 }),
      speed: fc.constantFrom(1, 1.5, 2),
    });
    const jobArb = fc.record({
      submit: fc.integer({ min: 0, max: 200 }),
      runtime: fc.integer({ min: 1, max: 120 }),
      cores: fc.integer({ min: 1, max: 8 }),
      deadline: fc.option(fc.integer({ min: 0, max: 600 }), { nil: undefined }),
      license: fc.option(fc.constantFrom("a", "b"), { nil: undefined }),
    });
    fc.assert(
      fc.property(
        fc.array(machineArb, { minLength: 1, maxLength: 6 }),
        fc.array(jobArb, { minLength: 1, maxLength: 30 }),
        fc.constantFrom("index" as const, "speed" as const, "best-fit" as const),
        fc.constantFrom("increasing" as const, "decreasing" as const),
        fc.boolean(),
        (machines, specs, machineOrder, deadlineOrder, exclusive) => {
          const platform = createPlatform({
            machines,
            licenses: [
              { name: "a", copies: 2 },
              { name: "b", kind: "node-locked", copies: 1, machines: [0] },
            ],
          });
          const sorted = [...specs].sort((a, b) => a.submit - b.submit);
          const jobs: Job[] = sorted.map((s, i) =>
            job(i + 1, s.submit, s.runtime, s.cores, {
              ...(s.deadline === undefined ? {} : { deadline: s.submit + s.deadline }),
              ...(s.license === undefined ? {} : { licenses: { [s.license]: 1 } }),
            }),
          );
          const inner = edf({ machineOrder, deadlineOrder, exclusive, preemption: false });
          const left: string[] = [];
          const checked: Scheduler = {
            name: inner.name,
            reset: (p) => inner.reset?.(p),
            schedule(ctx) {
              inner.schedule(ctx);
              const view = ctx.view;
              for (const w of view.waiting) {
                const j = w.job;
                // (the list is the one the call began with: skip the jobs it started)
                if (!view.isWaiting(j.id)) continue;
                if (whyNeverFits(j, platform, { singleMachine: true }) !== null) continue;
                for (let m = 0; m < platform.machines.length; m++) {
                  const free = view.freeCores(m);
                  const room = exclusive ? free === platform.machines[m]!.cores : free >= j.cores;
                  if (room && free >= j.cores && licensesFreeOn(j, view, m)) {
                    left.push(`t=${view.now}: job ${j.id} fits on machine ${m} but waits`);
                  }
                }
              }
            },
          };
          simulate(jobs, platform, checked);
          expect(left).toEqual([]);
        },
      ),
      { numRuns: 200 },
    );
  });
});
