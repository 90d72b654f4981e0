import { createPlatform, type Job, type SchedulerView } from "@sched/core";
import { makeView } from "@sched/core/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { allocate, machineOrder } from "../src/allocation.js";
import { PlatformCache } from "../src/context.js";

const platform = createPlatform({
  machines: [
    { cores: 2, speed: 1 },
    { cores: 2, speed: 3 },
    { cores: 2, speed: 2 },
  ],
  licenses: [
    { name: "flo", copies: 2, machines: [1, 2] },
    { name: "lock", kind: "node-locked", copies: 1, machines: [2] },
  ],
});

/** A hand-made view: every machine's cores free, licenses as given per machine. */
function view(free: number[], licenses: Record<string, number[]> = {}): SchedulerView {
  return makeView(platform, {
    freeCores: free,
    freeLicenses: (name, m) => licenses[name]?.[m] ?? 0,
  });
}

const job = (cores: number, licenses?: Record<string, number>): Job => ({
  id: 1,
  submit: 0,
  runtime: 1,
  estimate: 1,
  cores,
  ...(licenses === undefined ? {} : { licenses }),
});

describe("allocation", () => {
  it("machineOrder: index order, or fastest first with ties by index", () => {
    expect([...machineOrder(platform, "index")]).toEqual([0, 1, 2]);
    expect([...machineOrder(platform, "speed")]).toEqual([1, 2, 0]);
  });

  it("allocate takes free cores in machine order and spans machines", () => {
    const v = view([1, 2, 2]);
    expect(allocate(v, job(4), machineOrder(platform, "index"), "index")).toEqual([
      { machine: 0, cores: 1 },
      { machine: 1, cores: 2 },
      { machine: 2, cores: 1 },
    ]);
    expect(allocate(v, job(3), machineOrder(platform, "speed"), "speed")).toEqual([
      { machine: 1, cores: 2 },
      { machine: 2, cores: 1 },
    ]);
    expect(allocate(v, job(6), machineOrder(platform, "index"), "index")).toBeNull();
  });

  it("allocate uses only machines where the floating license is usable, and puts the node-locked holder first", () => {
    const v = view([2, 2, 2], { flo: [0, 2, 2], lock: [0, 0, 1] });
    const order = machineOrder(platform, "index");
    // flo is usable on m1 and m2 only: m0 is skipped.
    expect(allocate(v, job(3, { flo: 1 }), order, "index")).toEqual([
      { machine: 1, cores: 2 },
      { machine: 2, cores: 1 },
    ]);
    // lock is on m2: m2 comes first.
    expect(allocate(v, job(3, { lock: 1 }), order, "index")).toEqual([
      { machine: 2, cores: 2 },
      { machine: 0, cores: 1 },
    ]);
    // no free copy: no allocation.
    expect(
      allocate(view([2, 2, 2], { flo: [0, 0, 0] }), job(1, { flo: 1 }), order, "index"),
    ).toBeNull();
  });

  it("allocate with singleMachine needs one machine with every core", () => {
    const order = machineOrder(platform, "speed");
    expect(allocate(view([2, 1, 2]), job(2), order, "speed", true)).toEqual([
      { machine: 2, cores: 2 },
    ]);
    expect(allocate(view([1, 1, 1]), job(2), order, "speed", true)).toBeNull();
  });
});

describe("PlatformCache.allocate", () => {
  it("gives the allocation of the walk in its order (first fit when that order is the index order anyway)", () => {
    // Machines of one speed (so "speed" is the index order), or of random speeds (it is not);
    // cores ascending or not (so "best-fit" is, or may not be, the index order); random free
    // cores, jobs with and without licenses, spanning or on one machine.
    const arb = fc.record({
      cores: fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 1, maxLength: 12 }),
      speeds: fc.array(fc.constantFrom(1, 2, 3), { minLength: 12, maxLength: 12 }),
      uniform: fc.boolean(),
      sorted: fc.boolean(),
      used: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 12, maxLength: 12 }),
      want: fc.integer({ min: 1, max: 12 }),
      licensed: fc.boolean(),
      single: fc.boolean(),
    });
    let identity = 0;
    fc.assert(
      fc.property(arb, ({ cores, speeds, uniform, sorted, used, want, licensed, single }) => {
        const sizes = sorted ? [...cores].sort((a, b) => a - b) : cores;
        const p = createPlatform({
          machines: sizes.map((c, m) => ({ cores: c, speed: uniform ? 2 : speeds[m]! })),
          licenses: [{ name: "flo", copies: 3 }],
        });
        const v = makeView(p, {
          freeCores: sizes.map((c, m) => Math.max(0, c - used[m]!)),
          freeLicenses: () => 3,
        });
        const j = job(want, licensed ? { flo: 1 } : undefined);
        for (const rule of ["index", "speed", "best-fit"] as const) {
          const order = machineOrder(p, rule);
          if (rule !== "index" && order.every((m, k) => m === k)) identity++;
          const cache = new PlatformCache(rule);
          cache.prepare(p);
          const got = cache.allocate(v, j, single);
          const walked = allocate(v, j, order, rule, single);
          expect(got === null ? null : [...got]).toEqual(walked === null ? null : [...walked]);
        }
      }),
      { numRuns: 300 },
    );
    // Both cases are met often.
    expect(identity).toBeGreaterThan(100);
  });
});
