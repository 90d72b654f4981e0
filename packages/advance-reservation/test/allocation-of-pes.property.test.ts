import {
  checkSchedule,
  createJob,
  createPlatform,
  identicalPool,
  type Platform,
  simulate,
} from "@sched/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { advanceReservation } from "../src/index.js";
import { allocationOfPes } from "../src/scheduler.js";

// A reservation's PEs become one part per machine. On one-core machines an allocation of 16
// PEs or more is built by `oneCoreAllocation` (which the engine reads by ranges of machines):
// the parts must be those of the plain grouping, and runs that use it must be valid schedules.

/** Machine of each PE (the scheduler's `machineOf`). */
const machineOfPes = (p: Platform): Int32Array =>
  Int32Array.from(p.machines.flatMap((m, i) => Array.from({ length: m.cores }, () => i)));

/** The plain grouping: one part per machine, in PE order. */
const grouped = (machineOf: Int32Array, pes: readonly number[]) => {
  const parts: { machine: number; cores: number }[] = [];
  for (const pe of pes) {
    const m = machineOf[pe]!;
    const last = parts[parts.length - 1];
    if (last !== undefined && last.machine === m) last.cores++;
    else parts.push({ machine: m, cores: 1 });
  }
  return parts;
};

const arbPlatform = fc.oneof(
  fc.integer({ min: 1, max: 200 }).map((n) => identicalPool(n)),
  fc
    .array(fc.integer({ min: 1, max: 3 }), { minLength: 1, maxLength: 80 })
    .map((cores) => createPlatform({ machines: cores.map((c) => ({ cores: c })) })),
);

describe("allocationOfPes", () => {
  it("gives the parts of the plain grouping, one-core machines or not, any number of PEs", () => {
    const cases = arbPlatform.chain((p) => {
      const total = p.machines.reduce((s, m) => s + m.cores, 0);
      return fc.tuple(
        fc.constant(p),
        fc.uniqueArray(fc.integer({ min: 0, max: total - 1 }), {
          minLength: 1,
          maxLength: total,
          size: "max",
        }),
      );
    });
    fc.assert(
      fc.property(cases, ([platform, chosen]) => {
        const pes = chosen.sort((a, b) => a - b);
        const machineOf = machineOfPes(platform);
        const a = allocationOfPes(platform, machineOf, pes);
        expect(a.map((p) => ({ machine: p.machine, cores: p.cores }))).toEqual(
          grouped(machineOf, pes),
        );
      }),
      { numRuns: 400 },
    );
  });

  it("runs of wide jobs on one-core machines are valid schedules, with each job's cores", () => {
    const jobs = fc.array(
      fc.record({
        submit: fc.integer({ min: 0, max: 300 }),
        runtime: fc.integer({ min: 1, max: 80 }),
        cores: fc.integer({ min: 1, max: 48 }),
      }),
      { minLength: 1, maxLength: 25 },
    );
    fc.assert(
      fc.property(fc.integer({ min: 16, max: 96 }), jobs, (n, specs) => {
        const platform = identicalPool(n);
        const list = specs
          .filter((s) => s.cores <= n)
          .sort((x, y) => x.submit - y.submit)
          .map((s, i) =>
            createJob({ id: i + 1, ...s, estimate: s.runtime, deadline: s.submit + 4 * s.runtime }),
          );
        const trace = simulate(list, platform, advanceReservation());
        expect(checkSchedule(trace)).toEqual([]);
        for (const r of trace.records) {
          for (const iv of r.intervals) {
            expect(iv.allocation.reduce((s, p) => s + p.cores, 0)).toBe(r.job.cores);
          }
        }
      }),
      { numRuns: 60 },
    );
  });
});
