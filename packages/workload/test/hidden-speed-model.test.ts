import { createJob, createPlatform, InvalidInputError } from "@sched/core";
import { Random } from "@sched/random";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hiddenSpeedModel } from "../src/hidden-speed-model.js";

const platform = createPlatform({ machines: [{ speed: 9 }, { speed: 9 }], referenceSpeed: 9 });
const job = (id: number, submit = 0) => createJob({ id, submit, runtime: 100, cores: 1 });

describe("hiddenSpeedModel", () => {
  it("runs jobs at the hidden speeds, not the platform's", () => {
    const model = hiddenSpeedModel({ speeds: [9, 3] });
    expect(model.duration(job(0), [{ machine: 0, cores: 1 }], platform, 100)).toBe(100);
    expect(model.duration(job(0), [{ machine: 1, cores: 1 }], platform, 100)).toBe(300);
    expect(
      model.duration(
        job(0),
        [
          { machine: 0, cores: 1 },
          { machine: 1, cores: 1 },
        ],
        platform,
        100,
      ),
    ).toBe(300);
  });

  it("applies a drift to jobs submitted from its time on", () => {
    const model = hiddenSpeedModel({
      speeds: [9, 9],
      drifts: [{ machine: 0, from: 50, factor: 0.25 }],
    });
    const at = (submit: number, m: number) =>
      model.duration(job(0, submit), [{ machine: m, cores: 1 }], platform, 100);
    expect(at(49, 0)).toBe(100);
    expect(at(50, 0)).toBe(400);
    expect(at(50, 1)).toBe(100);
  });

  it("keeps each fluctuated speed within mean * (1 +- fluctuation), the same for the same pair", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1e6 }),
        fc.integer(),
        fc.double({ min: 0, max: 0.9, noNaN: true }),
        (id, seed, f) => {
          const model = hiddenSpeedModel({ speeds: [9, 9], fluctuation: f, seed });
          const d = model.duration(job(id), [{ machine: 1, cores: 1 }], platform, 100);
          const speed = 900 / d;
          expect(speed).toBeGreaterThanOrEqual(9 * (1 - f) - 1e-9);
          expect(speed).toBeLessThanOrEqual(9 * (1 + f) + 1e-9);
          expect(model.duration(job(id), [{ machine: 1, cores: 1 }], platform, 100)).toBe(d);
        },
      ),
    );
  });

  it("draws each (machine, job) fluctuation from its stream fluctuation/m<machine>/j<job id>: mean * (1 + f * (2u - 1)), u its first next()", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1e6 }),
        fc.integer({ min: 0, max: 1e6 }),
        fc.integer(),
        fc.double({ min: 0.01, max: 0.9, noNaN: true }),
        fc.constantFrom(0, 1),
        (id, submit, seed, f, m) => {
          const model = hiddenSpeedModel({ speeds: [9, 6], fluctuation: f, seed });
          const u = new Random(seed, `fluctuation/m${m}/j${id}`).next();
          const speed = [9, 6][m]! * (1 + f * (2 * u - 1));
          const d = model.duration(job(id, submit), [{ machine: m, cores: 1 }], platform, 100);
          // the platform's reference speed is 9: a job's benchmark is 9
          expect(d).toBe((100 * 9) / speed);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("fluctuates both ways: some pairs run slower than the mean, some faster", () => {
    const model = hiddenSpeedModel({ speeds: [9, 9], fluctuation: 0.5, seed: 3 });
    const durations = Array.from({ length: 200 }, (_, id) =>
      model.duration(job(id), [{ machine: 0, cores: 1 }], platform, 100),
    );
    expect(durations.filter((d) => d > 100).length).toBeGreaterThan(60);
    expect(durations.filter((d) => d < 100).length).toBeGreaterThan(60);
  });

  it("multiplies the factors of the drifts that apply to one machine", () => {
    const model = hiddenSpeedModel({
      speeds: [9, 9],
      drifts: [
        { machine: 0, from: 10, factor: 0.5 },
        { machine: 0, from: 20, factor: 0.25 },
        { machine: 1, from: 0, factor: 2 },
      ],
    });
    const at = (submit: number, m: number) =>
      model.duration(job(0, submit), [{ machine: m, cores: 1 }], platform, 100);
    expect(at(5, 0)).toBe(100);
    expect(at(10, 0)).toBe(200);
    expect(at(25, 0)).toBe(800);
    expect(at(25, 1)).toBe(50);
  });

  it("validates", () => {
    expect(() => hiddenSpeedModel({ speeds: [0] })).toThrow("options.speeds[0]");
    expect(() => hiddenSpeedModel({ speeds: [1], fluctuation: 1 })).toThrow(InvalidInputError);
    expect(() =>
      hiddenSpeedModel({ speeds: [1], drifts: [{ machine: 1, from: 0, factor: 1 }] }),
    ).toThrow("options.drifts[0].machine");
    expect(() =>
      hiddenSpeedModel({ speeds: [1], drifts: [{ machine: 0, from: 0, factor: 0 }] }),
    ).toThrow("options.drifts[0].factor");
  });
});
