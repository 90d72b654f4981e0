import { describe, expect, it } from "vitest";
import {
  eligibleMachines,
  meetsRequirements,
  minimalRequirementsHeuristic,
} from "../src/minimal-requirements.js";
import { contextOf, farm, job, rowOf } from "./helpers.js";

const platform = farm({
  licenses: [
    { name: "cad", copies: 2 },
    { name: "fem", copies: 1, machines: [0, 1] },
    { name: "nl", kind: "node-locked", copies: 1, machines: [2] },
  ],
});

describe("minimal requirements", () => {
  it("needs enough cores on one machine", () => {
    expect(eligibleMachines(job({ id: 1, cores: 2 }), platform)).toEqual([0, 1]);
    expect(eligibleMachines(job({ id: 1, cores: 4 }), platform)).toEqual([1]);
    expect(eligibleMachines(job({ id: 1, cores: 5 }), platform)).toEqual([]);
  });
  it("needs floating licenses usable on the machine with enough copies in total", () => {
    expect(eligibleMachines(job({ id: 1, licenses: { cad: 2 } }), platform)).toEqual([0, 1, 2]);
    expect(eligibleMachines(job({ id: 1, licenses: { cad: 3 } }), platform)).toEqual([]);
    expect(eligibleMachines(job({ id: 1, licenses: { fem: 1 } }), platform)).toEqual([0, 1]);
  });
  it("needs node-locked copies on the machine itself", () => {
    expect(eligibleMachines(job({ id: 1, licenses: { nl: 1 } }), platform)).toEqual([2]);
    expect(eligibleMachines(job({ id: 1, licenses: { nl: 2 } }), platform)).toEqual([]);
    expect(eligibleMachines(job({ id: 1, licenses: { nl: 1, fem: 1 } }), platform)).toEqual([]);
  });
  it("rejects a license the platform does not have, and an unknown machine", () => {
    expect(eligibleMachines(job({ id: 1, licenses: { nope: 1 } }), platform)).toEqual([]);
    expect(meetsRequirements(job({ id: 1 }), platform, 7)).toBe(false);
  });
  it("the heuristic writes `base` on eligible entries only", () => {
    const ctx = contextOf(platform, [rowOf(job({ id: 1, cores: 2 })), rowOf(job({ id: 2 }))]);
    const p = new Float64Array(6);
    minimalRequirementsHeuristic({ base: 2 }).apply(ctx, p);
    expect(Array.from(p)).toEqual([2, 2, 0, 2, 2, 2]);
    expect(Array.from(ctx.eligibleCount)).toEqual([2, 3]);
  });
});
