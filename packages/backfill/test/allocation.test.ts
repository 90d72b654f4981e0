import { createPlatform, type Job, type SchedulerView } from "@sched/core";
import { makeView } from "@sched/core/testing";
import { describe, expect, it } from "vitest";
import { allocate, machineOrder } from "../src/allocation.js";

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
