import { InvalidInputError } from "@sched/core";
import { describe, expect, it } from "vitest";
import {
  convergentExperiment,
  experimentCsv,
  experimentSeed,
  experimentTable,
} from "../src/experiment.js";
import { convergentVariant } from "../src/variants.js";

describe("convergentExperiment", () => {
  const options = {
    interArrivals: [20, 40],
    runs: 2,
    workload: { machines: 10, licenses: 3, jobs: 25 },
    timings: false,
  } as const;
  const result = convergentExperiment(options);
  it("measures every scheduler, inter-arrival and run, with the paper's metrics", () => {
    expect(result.rows.length).toBe(2 * 2 * 4 * 5);
    expect(new Set(result.rows.map((r) => r.scheduler))).toEqual(
      new Set(["CS_ip", "CS_inp", "CS_nip", "CS_ninp"]),
    );
    expect(new Set(result.rows.map((r) => r.metric))).toEqual(
      new Set(["latePct", "slowdownNoDeadline", "machineUsage", "licenseUsage", "meanWorkload"]),
    );
    for (const r of result.rows) expect(Number.isFinite(r.value)).toBe(true);
  });
  it("averages the runs in the summary", () => {
    const rows = result.rows.filter(
      (r) => r.scheduler === "CS_ip" && r.interArrival === 20 && r.metric === "latePct",
    );
    const s = result.summary.find(
      (x) => x.scheduler === "CS_ip" && x.interArrival === 20 && x.metric === "latePct",
    );
    expect(s?.runs).toBe(2);
    expect(s?.mean).toBeCloseTo(rows.reduce((a, r) => a + r.value, 0) / 2, 12);
  });
  it("is deterministic without timings", () => {
    expect(convergentExperiment(options)).toEqual(result);
  });
  it("gives every scheduler the same workloads and adds timings by default", () => {
    const r = convergentExperiment({
      interArrivals: [30],
      runs: 1,
      workload: { machines: 6, licenses: 2, jobs: 10 },
      schedulers: { a: () => convergentVariant("CS_ip"), b: () => convergentVariant("CS_ip") },
    });
    const of = (name: string) =>
      r.rows.filter((x) => x.scheduler === name && x.metric !== "schedTimeMs").map((x) => x.value);
    expect(of("a")).toEqual(of("b"));
    expect(r.rows.some((x) => x.metric === "schedTimeMs" && x.value >= 0)).toBe(true);
  });
  it("writes a tidy CSV and a table", () => {
    const csv = experimentCsv(result.rows).trimEnd().split("\n");
    expect(csv[0]).toBe("scheduler,interArrival,run,metric,value");
    expect(csv.length).toBe(result.rows.length + 1);
    const table = experimentTable(result.summary);
    expect(table).toMatch(/Ta=20/);
    expect(table).toMatch(/latePct CS_ip/);
  });
  it("derives distinct seeds per inter-arrival and run", () => {
    const seeds = new Set(
      [4, 6, 8].flatMap((ta) => [0, 1, 2].map((r) => experimentSeed(1, ta, r))),
    );
    expect(seeds.size).toBe(9);
  });
  it("validates its options", () => {
    expect(() => convergentExperiment({ runs: 0 })).toThrow(InvalidInputError);
    expect(() => convergentExperiment({ interArrivals: [0] })).toThrow(/interArrivals/);
    expect(() => convergentExperiment({ schedulers: {} })).toThrow(/schedulers/);
  });
});
