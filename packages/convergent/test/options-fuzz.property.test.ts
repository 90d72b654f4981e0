import { createJob, createPlatform, simulate } from "@sched/core";
import { type FuzzCase, fuzzOptions } from "@sched/tooling/fuzz";
import { describe, it } from "vitest";
import { convergent, convergentPass, convergentVariant, f1 } from "../src/index.js";

// Every public function of the package, called validly, then with one argument, option or field
// made hostile (tooling/fuzz.js): a result or a typed @sched error naming the place, never a raw
// JavaScript error or a silently accepted value of the wrong type. FUZZ_RUNS=n samples more;
// FUZZ_EXHAUSTIVE=1 tries every mutation and lists every defect.
const platform = () =>
  createPlatform({
    machines: [{ speed: 1 }, { speed: 4 }],
    licenses: [{ name: "cad", copies: 1 }],
  });
const run = (policy: unknown) =>
  simulate(
    [
      createJob({ id: 1, submit: 0, runtime: 100, cores: 1 }),
      createJob({ id: 2, submit: 0, runtime: 100, cores: 1, deadline: 40 }),
      createJob({ id: 3, submit: 10, runtime: 20, cores: 1, deadline: 60, licenses: { cad: 1 } }),
    ],
    platform(),
    policy as never,
  ).records.length;

const cases: FuzzCase[] = [
  {
    name: "@sched/convergent/convergent",
    params: ["options"],
    // a constant so large that a row's sum overflows is named as options.constants (which one
    // overflowed is not known where the sum is seen)
    names: (place, message) =>
      message.includes(place.split(/[.[]/).pop() ?? place) ||
      (place.startsWith("options.constants") && message.includes("options.constants")),
    args: () => [
      {
        name: "cs",
        preemption: false,
        knapsack: "exact",
        refreshTolerance: 0.1,
        constants: {
          base: 1,
          deadlineMax: 10,
          deadlineMin: 0.1,
          deadlineK: 1.3,
          licenses: 2.5,
          antiAging: 0.02,
        },
        readings: { deadlineLate: "max", deadlineAllLate: "zero" },
      },
    ],
    call: (o) => run(convergent(o as never)),
  },
  {
    name: "@sched/convergent/convergentVariant",
    params: ["variant", "options"],
    args: () => ["CS_ip", { knapsack: "greedy", name: "v" }],
    call: (v, o) => run(convergentVariant(v as never, o as never)),
  },
  {
    name: "@sched/convergent/convergentPass",
    params: ["state", "options"],
    strictKeys: ["state", "options"],
    args: () => [
      {
        now: 10,
        platform: createPlatform({
          machines: [
            { cores: 4, speed: 1 },
            { cores: 4, speed: 4 },
          ],
        }),
        running: [{ id: 1, cores: 2, estimate: 100, submit: 0, machine: 1, progress: 0.4 }],
        queue: [{ id: 2, cores: 2, estimate: 40, submit: 10, deadline: 25, ready: 10 }],
      },
      { preemption: true, knapsack: "greedy" },
    ],
    call: (s, o) => convergentPass(s as never, o as never),
  },
  {
    name: "@sched/convergent/f1",
    params: ["options"],
    args: () => [{ extime: 50, t: 10, deadline: 100, min: 0.1, max: 10, late: 10 }],
    call: (o) => f1(o as never),
  },
];

describe("options fuzz: @sched/convergent ends in a result or an error naming the place", () => {
  for (const c of cases) it(c.name, () => fuzzOptions(c));
});
