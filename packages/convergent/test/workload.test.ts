import { InvalidInputError, validatePlatform } from "@sched/core";
import { describe, expect, it } from "vitest";
import { paperWorkload } from "../src/workload.js";

describe("paperWorkload", () => {
  const { platform, jobs } = paperWorkload({ seed: 5, interArrival: 8 });
  it("has the paper's sizes: 150 machines, 20 licenses, 1500 jobs", () => {
    expect(platform.machines.length).toBe(150);
    expect(platform.licenses.length).toBe(20);
    expect(jobs.length).toBe(1500);
    expect(validatePlatform(platform)).toBe(platform);
  });
  it("draws every parameter in the paper's ranges", () => {
    for (const m of platform.machines) {
      expect(m.cores).toBeGreaterThanOrEqual(1);
      expect(m.cores).toBeLessThanOrEqual(8);
      expect(m.speed).toBeGreaterThanOrEqual(200);
      expect(m.speed).toBeLessThanOrEqual(600);
    }
    for (const l of platform.licenses) {
      expect(l.kind).toBe("floating");
      expect(l.copies).toBeGreaterThanOrEqual(Math.round(0.55 * 150));
      expect(l.copies).toBeLessThanOrEqual(Math.round(0.65 * 150));
    }
    for (const j of jobs) {
      expect(j.estimate).toBeGreaterThanOrEqual(500);
      expect(j.estimate).toBeLessThanOrEqual(3000);
      expect(j.runtime).toBe(j.estimate);
      expect(j.cores).toBeLessThanOrEqual(8);
      expect(j.benchmark).toBeGreaterThanOrEqual(200);
      expect(j.benchmark).toBeLessThanOrEqual(600);
      const size = j.input?.[0]?.size as number;
      expect(size).toBeGreaterThanOrEqual(100);
      expect(size).toBeLessThanOrEqual(800);
      if (j.deadline !== undefined) {
        const slack = (j.deadline - j.submit) / j.estimate - 1;
        expect(slack).toBeGreaterThanOrEqual(0.25 - 1e-12);
        expect(slack).toBeLessThanOrEqual(1.5 + 1e-12);
      }
    }
  });
  it("matches the paper's proportions (30% without deadline, 20% license need, 90% suitability)", () => {
    const noDeadline = jobs.filter((j) => j.deadline === undefined).length / jobs.length;
    expect(noDeadline).toBeGreaterThan(0.25);
    expect(noDeadline).toBeLessThan(0.35);
    const requests = jobs.reduce((s, j) => s + Object.keys(j.licenses ?? {}).length, 0);
    expect(requests / (jobs.length * 20)).toBeGreaterThan(0.18);
    expect(requests / (jobs.length * 20)).toBeLessThan(0.22);
    const usable = platform.licenses.reduce((s, l) => s + (l.machines?.length ?? 150), 0);
    expect(usable / (20 * 150)).toBeGreaterThan(0.87);
    expect(usable / (20 * 150)).toBeLessThan(0.93);
  });
  it("spaces submissions by the mean inter-arrival time", () => {
    const last = jobs[jobs.length - 1]?.submit as number;
    expect(last / (jobs.length - 1)).toBeGreaterThan(7);
    expect(last / (jobs.length - 1)).toBeLessThan(9);
    for (let i = 1; i < jobs.length; i++)
      expect(jobs[i]?.submit).toBeGreaterThanOrEqual(jobs[i - 1]?.submit as number);
  });
  it("is deterministic per seed and differs between seeds", () => {
    expect(paperWorkload({ seed: 5, interArrival: 8, jobs: 50 })).toEqual(
      paperWorkload({ seed: 5, interArrival: 8, jobs: 50 }),
    );
    expect(paperWorkload({ seed: 6, jobs: 50 }).jobs).not.toEqual(
      paperWorkload({ seed: 5, jobs: 50 }).jobs,
    );
  });
  it("validates its options", () => {
    expect(() => paperWorkload({ machines: 0 })).toThrow(InvalidInputError);
    expect(() => paperWorkload({ interArrival: -1 })).toThrow(/interArrival/);
    expect(() => paperWorkload({ estimate: [3, 1] })).toThrow(/estimate/);
    expect(() => paperWorkload({ licenseNeed: 2 })).toThrow(/licenseNeed/);
  });
});
