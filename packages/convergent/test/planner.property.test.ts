import { type Scheduler, simulate } from "@sched/core";
import { arbJobs, arbPlatform } from "@sched/core/testing";
import { mfs } from "@sched/matching";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { stepOn } from "../src/convergent.js";
import { type ConvergentOptions, resolveOptions } from "../src/options.js";
import { PlannerCore } from "../src/planner.js";

/**
 * The `convergent()` adapter over a planner of its own, which hands every plan to `check`
 * right after the step (the plan's weights are the planner's buffer until the next one).
 */
function checked(options: ConvergentOptions, check: (plan: PlanCheck) => void): Scheduler {
  const core = new PlannerCore(resolveOptions("test", options));
  return {
    name: "checked",
    reset: () => core.reset(),
    schedule(ctx) {
      const step = stepOn(core, ctx);
      if (step !== undefined)
        check({
          rows: step.rows.length,
          cols: ctx.view.platform.machines.length,
          plan: step.plan,
        });
    },
  };
}

interface PlanCheck {
  readonly rows: number;
  readonly cols: number;
  readonly plan: NonNullable<ReturnType<PlannerCore["step"]>>["plan"];
}

const farms = arbPlatform({ shape: "farm", maxMachines: 5 }).chain((platform) =>
  arbJobs(platform, { maxJobs: 14, singleMachine: true }).map((jobs) => ({ platform, jobs })),
);

describe("PlannerCore", () => {
  it.each([
    ["imfs, preemption", {}],
    ["imfs, no preemption", { preemption: false }],
    ["imfs, tolerance 0", { refreshTolerance: 0 }],
  ] as [string, ConvergentOptions][])(
    "%s: every plan is an optimal matching of the matrix it matched (cleared rows included)",
    (_name, options) => {
      fc.assert(
        fc.property(farms, ({ platform, jobs }) => {
          simulate(
            jobs,
            platform,
            checked(options, ({ rows, cols, plan }) => {
              const cleared = new Set(plan.cleared);
              plan.rowIds.forEach((id, i) => {
                if (cleared.has(id)) {
                  expect(plan.rowToCol[i]).toBe(-1);
                  for (let m = 0; m < cols; m++) expect(plan.weights[i * cols + m]).toBe(0);
                }
              });
              const best = mfs({ rows, cols, weights: plan.weights });
              expect(plan.matching.size).toBe(best.size);
              expect(plan.matching.weight).toBeCloseTo(best.weight, 6);
            }),
          );
        }),
        { numRuns: 40 },
      );
    },
  );
});
