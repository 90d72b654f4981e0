import { edf } from "@sched/backfill";
import { convergentVariant } from "@sched/convergent";
import { checkSchedule, createJob, createPlatform, type Scheduler, simulate } from "@sched/core";
import { convergentWorkload } from "@sched/workload";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  FREE_PREEMPTION,
  type PreemptionCost,
  preemptionCostModel,
  withPreemptionCost,
} from "../src/experiments/preemption-cost.js";

const one = () => createPlatform({ machines: [{ cores: 1, speed: 1 }], referenceSpeed: 1 });

/** J1 (10 s, deadline 100) runs from 0; J2 (3 s, deadline 10) arrives at 2 and preempts it. */
function run(cost: PreemptionCost) {
  const platform = one();
  const jobs = [
    createJob({ id: 1, submit: 0, runtime: 10, cores: 1, deadline: 100 }),
    createJob({ id: 2, submit: 2, runtime: 3, cores: 1, deadline: 10 }),
  ];
  const executionModel = preemptionCostModel(platform);
  const trace = simulate(jobs, platform, withPreemptionCost(edf(), cost), { executionModel });
  expect(checkSchedule(trace, { executionModel })).toEqual([]);
  return trace.records.map((r) => r.intervals.map((iv) => [iv.start, iv.end]));
}

describe("preemption cost (hand-worked, EDF on one machine)", () => {
  it("free: J1 keeps 2 s of progress and resumes at 5 for the 8 s left", () => {
    expect(run(FREE_PREEMPTION)).toEqual([
      [
        [0, 2],
        [5, 13],
      ],
      [[2, 5]],
    ]);
  });
  it("a restart cost of 4 s makes the resumed interval 8 + 4 s", () => {
    expect(run({ restartSeconds: 4, losesProgress: false })[0]).toEqual([
      [0, 2],
      [5, 17],
    ]);
  });
  it("lost progress makes J1 do its 10 s again (plus the restart cost)", () => {
    expect(run({ restartSeconds: 0, losesProgress: true })[0]).toEqual([
      [0, 2],
      [5, 15],
    ]);
    expect(run({ restartSeconds: 1, losesProgress: true })[0]).toEqual([
      [0, 2],
      [5, 16],
    ]);
  });
  it("a free cost leaves the scheduler itself; a costly one needs the model for its platform", () => {
    const inner = edf();
    expect(withPreemptionCost(inner, FREE_PREEMPTION)).toBe(inner);
    const costly = withPreemptionCost(edf(), { restartSeconds: 5, losesProgress: false });
    expect(() =>
      simulate([createJob({ id: 1, submit: 0, runtime: 1, cores: 1 })], one(), costly),
    ).toThrow(/needs the experiment's execution model/);
  });
});

describe("preemption cost (properties, CS with preemption on small farms)", () => {
  it("the schedule stays valid under its model, every resume costs what was asked, and free costs change nothing", () => {
    fc.assert(
      fc.property(
        fc.integer(),
        fc.constantFrom(0, 30, 200),
        fc.boolean(),
        (seed, restartSeconds, losesProgress) => {
          const { platform, jobs } = convergentWorkload({
            jobs: 30,
            machines: 4,
            licenses: 2,
            meanInterArrival: 100,
            seed,
          });
          const cost = { restartSeconds, losesProgress };
          const executionModel = preemptionCostModel(platform);
          const scheduler: Scheduler = withPreemptionCost(convergentVariant("CS_nip"), cost);
          const trace = simulate(jobs, platform, scheduler, { executionModel });
          expect(checkSchedule(trace, { executionModel })).toEqual([]);
          for (const r of trace.records) {
            if (r.outcome !== "completed") continue;
            // The work done, counted as the cost defines it: each resume from progress p on a
            // machine where the job takes `full` s lasts ((1 - p), or 1 if lost) x full + cost,
            // and advances the progress at the same rate throughout. A completed job reaches 1.
            let progress = 0;
            r.intervals.forEach((iv, k) => {
              const machine = platform.machines[iv.allocation[0]?.machine as number];
              const full =
                (r.job.runtime * (r.job.benchmark as number)) / (machine?.speed as number);
              const left = (1 - progress) * full;
              const lasts = k === 0 ? left : (losesProgress ? full : left) + restartSeconds;
              progress += ((iv.end - iv.start) / lasts) * (1 - progress);
            });
            expect(progress, `job ${r.job.id}`).toBeCloseTo(1, 6);
          }
          if (restartSeconds === 0 && !losesProgress) {
            const plain = simulate(jobs, platform, convergentVariant("CS_nip"));
            expect(trace.records.map((r) => r.intervals)).toEqual(
              plain.records.map((r) => r.intervals),
            );
          }
        },
      ),
      { numRuns: 25 },
    );
  });
});
