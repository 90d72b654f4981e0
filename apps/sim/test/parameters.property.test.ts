import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Experiment } from "../src/experiments/experiment.js";
import {
  isValidValue,
  type ParameterSpec,
  type Params,
  type ParamValue,
  paramText,
  parseParamValue,
} from "../src/experiments/parameters.js";
import { EXPERIMENTS } from "../src/experiments/registry.js";
import { allParameters, checkExperiment, defaultParams } from "../src/experiments/resolve.js";
import { formatNumber } from "../src/format.js";
import { MAX_RUNS } from "../src/limits.js";
import { planFromExperiment } from "../src/sweep/drive.js";
import { planTasks } from "../src/sweep/plan.js";

/** Valid values of `spec` other than `value`, the nearest first. */
function otherValues(spec: ParameterSpec, value: ParamValue): ParamValue[] {
  switch (spec.type) {
    case "boolean":
      return [!value];
    case "choice":
      return (spec.choices ?? []).filter((c) => c !== value);
    case "string":
      return [`${String(value)}x`];
    default: {
      const v = value as number;
      const step = spec.type === "integer" ? 1 : v === 0 ? 0.5 : Math.abs(v) / 2;
      const mid =
        spec.min !== undefined && spec.max !== undefined ? (spec.min + spec.max) / 2 : v + 1;
      // at most 6 decimals, as a grid value must be (0.45 + 0.15 is 0.6000000000000001)
      const candidates = [v + step, v - step, spec.type === "integer" ? Math.round(mid) : mid].map(
        (c) => Number(formatNumber(c)),
      );
      return candidates.filter((c) => c !== v && isValidValue(spec, c));
    }
  }
}

/** An arbitrary valid value of `spec`. */
function anyValue(spec: ParameterSpec): fc.Arbitrary<ParamValue> {
  switch (spec.type) {
    case "boolean":
      return fc.boolean();
    case "choice":
      return fc.constantFrom(...(spec.choices ?? []));
    case "string":
      return fc.string({ minLength: 1 }).filter((s) => !s.includes(","));
    case "integer":
      return fc
        .integer({ min: spec.min ?? -1e6, max: spec.max ?? 1e6 })
        .filter((v) => isValidValue(spec, v));
    default:
      return fc
        .double({
          min: spec.min ?? -1e9,
          max: spec.max ?? 1e9,
          noNaN: true,
          noDefaultInfinity: true,
        })
        .map((v) => (v === 0 ? 0 : v)) // -0 is written "0"
        .filter((v) => isValidValue(spec, v));
  }
}

/** A value of parameter `spec` other than its default in `params` that the experiment accepts. */
function otherValue(e: Experiment, params: Params, spec: ParameterSpec): ParamValue {
  const ok = otherValues(spec, params[spec.name] as ParamValue).find(
    (v) => (e.check?.({ ...params, [spec.name]: v }) ?? []).length === 0,
  );
  if (ok === undefined) throw new Error(`no other accepted value of ${e.name}.${spec.name}`);
  return ok;
}

/**
 * Reads of each parameter by `f`: `params` behind a proxy that records every key read. The
 * instance, scheduler options and self-run of an experiment read only what they use.
 */
function reads<T>(params: Params, f: (p: Params) => T): { result: T; read: Set<string> } {
  const read = new Set<string>();
  const proxy = new Proxy(params, {
    get(target, key) {
      if (typeof key === "string") read.add(key);
      return Reflect.get(target, key);
    },
  });
  return { result: f(proxy), read };
}

/** Whether `experiment.run` reads `name` (it is stopped at the first read, before any work). */
async function runReads(experiment: Experiment, params: Params, name: string): Promise<boolean> {
  if (experiment.run === undefined) return false;
  const STOP = Symbol("read");
  const proxy = new Proxy(params, {
    get(target, key) {
      if (key === name) throw STOP;
      return Reflect.get(target, key);
    },
  });
  const instance = experiment.instance(params, 1);
  for (const scheduler of experiment.schedulers(params)) {
    try {
      await experiment.run({ instance, params: proxy, seed: 1, scheduler });
    } catch (error) {
      if (error === STOP) return true;
      throw error;
    }
  }
  return false;
}

/**
 * What a run of `experiment` at `params` is made of: its jobs, platform, the durations its
 * execution model gives the first jobs on the first machines (a hidden speed, say), and its
 * policies' options.
 */
const snapshot = (experiment: Experiment, params: Params) => {
  const { jobs, platform, executionModel } = experiment.instance(params, 1);
  const durations = jobs
    .slice(0, 5)
    .flatMap((job) =>
      platform.machines
        .slice(0, 3)
        .map((_, machine) =>
          executionModel?.duration(job, [{ machine, cores: job.cores }], platform, job.runtime, 0),
        ),
    );
  return JSON.stringify({
    jobs,
    platform,
    durations,
    schedulers: experiment.schedulers(params).map((c) => [c.entry.name, c.options]),
  });
};

describe("experiment parameters (properties)", () => {
  it("every registry experiment's declarations are sound (defaults valid, axes are parameters, labels stable)", () => {
    for (const e of EXPERIMENTS) expect(checkExperiment(e), e.name).toEqual([]);
  });

  it("checkExperiment reports an empty or repeating grid axis (the sweep reads each axis's first value)", () => {
    const e = EXPERIMENTS[0]!;
    const axis = e.grid(true)[0]!;
    const withValues = (values: readonly ParamValue[]) => ({
      ...e,
      grid: () => [{ ...axis, values }],
    });
    expect(checkExperiment(withValues([]))).toContain(`grid axis '${axis.name}' has no value`);
    const v = axis.values[0]!;
    expect(checkExperiment(withValues([v, v]))).toContain(
      `grid axis '${axis.name}' repeats a value`,
    );
  });

  it("every parameter's values round-trip through --set text", () => {
    for (const e of EXPERIMENTS) {
      for (const spec of allParameters(e, true)) {
        fc.assert(
          fc.property(anyValue(spec), (v) => {
            expect(parseParamValue(spec, paramText(v), "test", "reproduce")).toEqual(v);
          }),
          { numRuns: 20 },
        );
      }
    }
  });

  it("changing any one parameter changes what the experiment runs: its jobs, its platform, its policies' options or its self-run (none is silently ignored)", async () => {
    for (const e of EXPERIMENTS) {
      const base = defaultParams(e, true);
      const before = snapshot(e, base);
      for (const spec of e.parameters) {
        const value = otherValue(e, base, spec);
        expect(isValidValue(spec, value), `${e.name}.${spec.name}=${value}`).toBe(true);
        const changed = { ...base, [spec.name]: value };
        const differs = snapshot(e, changed) !== before || (await runReads(e, base, spec.name));
        expect(differs, `${e.name}: parameter '${spec.name}' changes nothing`).toBe(true);
      }
    }
  }, 60_000);

  it("the plan records every non-swept parameter, and a set value changes the plan (so a resume with other values is refused)", () => {
    for (const e of EXPERIMENTS) {
      const plan = planFromExperiment(e, { quick: true, seeds: 1 });
      const source = plan.source as { parameters: Params };
      for (const spec of e.parameters) {
        expect(spec.name in source.parameters || plan.params.includes(spec.name), spec.name).toBe(
          true,
        );
        const value = otherValue(e, defaultParams(e, true), spec);
        const other = planFromExperiment(e, {
          quick: true,
          seeds: 1,
          request: { set: new Map([[spec.name, value]]), vary: new Map() },
        });
        expect(JSON.stringify(other), `${e.name}.${spec.name}`).not.toBe(JSON.stringify(plan));
      }
    }
  });

  it("--vary adds an axis: the planned runs multiply by its length, each run carrying the value", () => {
    for (const e of EXPERIMENTS) {
      const base = planTasks(planFromExperiment(e, { quick: true, seeds: 1 }));
      const spec = e.parameters.find((p) => !e.grid(true).some((a) => a.name === p.name));
      if (spec === undefined) continue;
      const d = defaultParams(e, true)[spec.name] as ParamValue;
      const values = [d, otherValue(e, defaultParams(e, true), spec)];
      const tasks = planTasks(
        planFromExperiment(e, {
          quick: true,
          seeds: 1,
          request: { set: new Map(), vary: new Map([[spec.name, values]]) },
        }),
      );
      expect(tasks.length, e.name).toBe(2 * base.length);
      expect(new Set(tasks.map((t) => t.params[spec.name]))).toEqual(new Set(values));
      expect(new Set(tasks.map((t) => t.key)).size).toBe(tasks.length);
    }
  });

  it("a parameter read by an experiment is declared (reads of undeclared names would be bugs)", () => {
    for (const e of EXPERIMENTS) {
      const base = defaultParams(e, true);
      const declared = new Set(allParameters(e, true).map((p) => p.name));
      const { read } = reads(base, (p) => [e.instance(p, 1), e.schedulers(p)]);
      for (const name of read) expect(declared.has(name), `${e.name} reads '${name}'`).toBe(true);
    }
  });
});

describe("isValidValue against its plain definition", () => {
  /** A number or integer spec with optional bounds, and values at, just past and between them. */
  const boundedArb = fc
    .record({
      type: fc.constantFrom("number" as const, "integer" as const),
      min: fc.option(fc.integer({ min: -5, max: 5 }), { nil: undefined }),
      span: fc.option(fc.integer({ min: 0, max: 5 }), { nil: undefined }),
      minExclusive: fc.boolean(),
    })
    .map(({ type, min, span, minExclusive }) => {
      const max = span === undefined ? undefined : (min ?? 0) + span;
      const spec: ParameterSpec = {
        name: "p",
        type,
        meaning: "",
        source: "",
        ...(min === undefined ? {} : { min }),
        ...(max === undefined ? {} : { max }),
        ...(minExclusive ? { minExclusive } : {}),
      };
      return spec;
    });
  const valueArb = fc.oneof(
    fc.integer({ min: -7, max: 12 }),
    fc.constantFrom(0.5, -0.5, 2.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53),
  );

  it("a number is valid when finite (an integer: safe) and within min (exclusive when said) and max, both inclusive otherwise", () => {
    fc.assert(
      fc.property(boundedArb, valueArb, (spec, v) => {
        const wholeEnough = spec.type === "integer" ? Number.isSafeInteger(v) : Number.isFinite(v);
        const aboveMin =
          spec.min === undefined || v > spec.min || (v === spec.min && spec.minExclusive !== true);
        const belowMax = spec.max === undefined || v <= spec.max;
        expect(isValidValue(spec, v)).toBe(wholeEnough && aboveMin && belowMax);
        // --set reads the same text to the same verdict
        const text = paramText(v);
        let parsed: ParamValue | undefined;
        try {
          parsed = parseParamValue(spec, text, "--set p", "reproduce");
        } catch {
          parsed = undefined;
        }
        expect(parsed).toBe(wholeEnough && aboveMin && belowMax ? v : undefined);
      }),
      { numRuns: 400 },
    );
  });

  it("a string parameter is a non-empty text; a choice one of its choices", () => {
    const text: ParameterSpec = { name: "t", type: "string", meaning: "", source: "" };
    expect(isValidValue(text, "a")).toBe(true);
    expect(isValidValue(text, "")).toBe(false);
    expect(isValidValue(text, 1)).toBe(false);
    const choice: ParameterSpec = {
      name: "c",
      type: "choice",
      choices: ["x", "y"],
      meaning: "",
      source: "",
    };
    expect(isValidValue(choice, "y")).toBe(true);
    expect(isValidValue(choice, "z")).toBe(false);
  });

  it("a policy's option exposed as LABEL.key keeps the option's bounds (elo's competitive.tiers >= 1)", () => {
    const elo = EXPERIMENTS.find((e) => e.name === "elo");
    if (elo === undefined) throw new Error("no elo experiment");
    const tiers = allParameters(elo, true).find((s) => s.name === "competitive.tiers");
    expect(tiers).toMatchObject({ type: "integer", min: 1 });
    expect(() => parseParamValue(tiers as ParameterSpec, "0", "--set", "reproduce")).toThrow(
      "expected an integer >= 1, got '0'",
    );
    expect(parseParamValue(tiers as ParameterSpec, "1", "--set", "reproduce")).toBe(1);
  });
});

describe("planFromExperiment's bound on runs", () => {
  it("takes a sweep of exactly MAX_RUNS runs, and refuses one more point", () => {
    const e = EXPERIMENTS.find((x) => x.name === "fcfs-load");
    if (e === undefined) throw new Error("no fcfs-load experiment");
    const plan = (points: number) =>
      planFromExperiment(e, {
        quick: true,
        seeds: 10000,
        schedulers: ["fcfs", "easy"],
        request: {
          set: new Map(),
          vary: new Map([["load", Array.from({ length: points }, (_, i) => (i + 1) / 100)]]),
        },
      });
    // 50 points x 10,000 seeds x 2 policies: 1,000,000 runs, the limit itself
    const p = plan(50);
    expect(p.points.length * p.seeds.length * p.schedulers.length).toBe(MAX_RUNS);
    expect(() => plan(51)).toThrow("make 1020000 runs, more than the 1000000 a sweep may have");
  });
});

describe("planFromExperiment's scheduler options", () => {
  it("are listed sorted by key in every registry experiment's plan (experiment.json's bytes do not depend on how an experiment builds them)", () => {
    let several = 0;
    for (const e of EXPERIMENTS) {
      for (const s of planFromExperiment(e, { quick: true }).schedulers) {
        const keys = s.opts.map((o) => o.slice(0, o.indexOf("=")));
        expect(keys, `${e.name} ${s.label}`).toEqual([...keys].sort());
        if (keys.length > 1) several++;
      }
    }
    expect(several).toBeGreaterThan(0);
  });
});
