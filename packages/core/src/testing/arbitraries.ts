import {
  InvalidInputError,
  optionKeys,
  requireBoolean,
  requireInteger,
  requireKnownKeys,
  requireOneOf,
} from "@sched/errors";
import fc from "fast-check";
import { createJob, type JobSpec } from "../job.js";
import { createPlatform, identicalPool, type LicenseSpec, type MachineSpec } from "../platform.js";
import type { Job, Platform } from "../types.js";

/** Options of {@link arbPlatform}. */
export interface ArbPlatformOptions {
  /**
   * `"pool"`: identical single-core machines of speed 1 (the archive traces' shape);
   * `"farm"`: heterogeneous SMP machines with speeds and licenses (the convergent paper's shape);
   * `"any"`: either.
   * @defaultValue `"any"`
   */
  readonly shape?: "pool" | "farm" | "any";
  /** Most machines. @defaultValue `8` */
  readonly maxMachines?: number;
  /** Most cores per farm machine. @defaultValue `8` */
  readonly maxCores?: number;
  /** Farm: give machines different speeds (1 to 4, reference speed 2). @defaultValue `true` */
  readonly speeds?: boolean;
  /** Farm: add floating and node-locked licenses. @defaultValue `true` */
  readonly licenses?: boolean;
}

/** The keys of {@link ArbPlatformOptions}, all of them (checked by the compiler). */
const ARB_PLATFORM_KEYS = optionKeys<ArbPlatformOptions>({
  shape: true,
  maxMachines: true,
  maxCores: true,
  speeds: true,
  licenses: true,
});

/**
 * Platforms of both shapes: a pool of 1..maxMachines identical single-core machines, or a farm
 * of 1..maxMachines SMP machines (1..maxCores cores, speed 1..4, reference speed 2) with 0..2
 * floating licenses (1..3 copies, sometimes usable on a subset of machines) and 0..2
 * node-locked licenses (1..2 copies on a non-empty subset of machines).
 *
 * @example
 * ```ts
 * fc.sample(arbPlatform({ shape: "pool" }), 1)[0].machines.every((m) => m.cores === 1); // true
 * ```
 */
export function arbPlatform(options: ArbPlatformOptions = {}): fc.Arbitrary<Platform> {
  const where = "@sched/core/testing/arbPlatform";
  requireKnownKeys(where, "options", options, ARB_PLATFORM_KEYS);
  const shape = requireOneOf(where, "options.shape", options.shape ?? "any", [
    "pool",
    "farm",
    "any",
  ] as const);
  const maxMachines = requireInteger(where, "options.maxMachines", options.maxMachines ?? 8, 1);
  const maxCores = requireInteger(where, "options.maxCores", options.maxCores ?? 8, 1);
  const speeds = requireBoolean(where, "options.speeds", options.speeds ?? true);
  const withLicenses = requireBoolean(where, "options.licenses", options.licenses ?? true);
  const pool = fc.integer({ min: 1, max: maxMachines }).map((n) => identicalPool(n));
  const farm = fc
    .array(
      fc.record({
        cores: fc.integer({ min: 1, max: maxCores }),
        speed: speeds ? fc.integer({ min: 1, max: 4 }) : fc.constant(2),
      }),
      { minLength: 1, maxLength: maxMachines },
    )
    .chain((machines: MachineSpec[]) => {
      const n = machines.length;
      const subset = fc
        .uniqueArray(fc.integer({ min: 0, max: n - 1 }), { minLength: 1, maxLength: n })
        .map((ms) => [...ms].sort((a, b) => a - b));
      const floating = fc.record({
        copies: fc.integer({ min: 1, max: 3 }),
        machines: fc.option(subset, { nil: undefined }),
      });
      const nodeLocked = fc.record({ copies: fc.integer({ min: 1, max: 2 }), machines: subset });
      const licenses = withLicenses
        ? fc.tuple(fc.array(floating, { maxLength: 2 }), fc.array(nodeLocked, { maxLength: 2 }))
        : fc.constant([[], []] as [never[], never[]]);
      return licenses.map(([fl, nl]) => {
        const specs: LicenseSpec[] = [];
        fl.forEach((l, i) => {
          specs.push(
            l.machines === undefined
              ? { name: `float${i}`, kind: "floating", copies: l.copies }
              : { name: `float${i}`, kind: "floating", copies: l.copies, machines: l.machines },
          );
        });
        nl.forEach((l, i) => {
          specs.push({
            name: `locked${i}`,
            kind: "node-locked",
            copies: l.copies,
            machines: l.machines,
          });
        });
        return createPlatform({ machines, licenses: specs, referenceSpeed: 2 });
      });
    });
  if (shape === "pool") return pool;
  if (shape === "farm") return farm;
  return fc.oneof(pool, farm);
}

/** Options of {@link arbJobs}. */
export interface ArbJobsOptions {
  /** @defaultValue `1` */
  readonly minJobs?: number;
  /** @defaultValue `20` */
  readonly maxJobs?: number;
  /** Largest gap between submits (0 gives same-time arrivals), seconds. @defaultValue `20` */
  readonly maxGap?: number;
  /** Longest runtime, seconds (runtimes are integers >= 1). @defaultValue `50` */
  readonly maxRuntime?: number;
  /** Give some jobs deadlines (submit + runtime * 1..4). @defaultValue `true` */
  readonly deadlines?: boolean;
  /** Give some jobs license requests (only licenses of the platform, copies it has). @defaultValue `true` */
  readonly licenses?: boolean;
  /** Give some jobs a ready time after submit. @defaultValue `true` */
  readonly readyTimes?: boolean;
  /** Let some estimates be below the runtime (else estimate >= runtime). @defaultValue `true` */
  readonly underestimates?: boolean;
  /** Keep every job on one machine: cores <= the largest machine's cores. @defaultValue `false` */
  readonly singleMachine?: boolean;
  /** Cap on a job's cores. @defaultValue the platform's total (or largest machine's) cores */
  readonly maxCores?: number;
}

/** The keys of {@link ArbJobsOptions}, all of them (checked by the compiler). */
const ARB_JOBS_KEYS = optionKeys<ArbJobsOptions>({
  minJobs: true,
  maxJobs: true,
  maxGap: true,
  maxRuntime: true,
  deadlines: true,
  licenses: true,
  readyTimes: true,
  underestimates: true,
  singleMachine: true,
  maxCores: true,
});

/**
 * Workloads for `platform`, sorted by submit, with unique ids in shuffled order (so ties on
 * submit exercise the id order): integer submits, runtimes and estimates; cores feasible on the
 * platform; optional deadlines, licenses (names and copies the platform can serve), ready times
 * and under-estimates, as `options` allow.
 *
 * @example
 * ```ts
 * fc.assert(fc.property(arbPlatform().chain((p) => arbJobs(p)), (jobs) => jobs.length >= 1));
 * ```
 */
export function arbJobs(platform: Platform, options: ArbJobsOptions = {}): fc.Arbitrary<Job[]> {
  const where = "@sched/core/testing/arbJobs";
  requireKnownKeys(where, "options", options, ARB_JOBS_KEYS);
  const deadlines = requireBoolean(where, "options.deadlines", options.deadlines ?? true);
  const licenses = requireBoolean(where, "options.licenses", options.licenses ?? true);
  const readyTimes = requireBoolean(where, "options.readyTimes", options.readyTimes ?? true);
  const underestimates = requireBoolean(
    where,
    "options.underestimates",
    options.underestimates ?? true,
  );
  const singleMachine = requireBoolean(
    where,
    "options.singleMachine",
    options.singleMachine ?? false,
  );
  const minJobs = requireInteger(where, "options.minJobs", options.minJobs ?? 1, 0);
  const maxJobs = requireInteger(where, "options.maxJobs", options.maxJobs ?? 20, 0);
  if (maxJobs < minJobs) {
    throw new InvalidInputError(
      where,
      "options.maxJobs",
      `is ${maxJobs}, below options.minJobs (${minJobs})`,
    );
  }
  const maxGap = requireInteger(where, "options.maxGap", options.maxGap ?? 20, 0);
  const maxRuntime = requireInteger(where, "options.maxRuntime", options.maxRuntime ?? 50, 1);
  if (options.maxCores !== undefined)
    requireInteger(where, "options.maxCores", options.maxCores, 1);
  const largest = platform.machines.reduce((m, x) => Math.max(m, x.cores), 1);
  const coreCap = Math.max(
    1,
    Math.min(
      options.maxCores ?? Number.POSITIVE_INFINITY,
      singleMachine ? largest : platform.totalCores,
    ),
  );
  const licenseNames = licenses ? platform.licenses.filter((l) => l.copies > 0) : [];
  const licenseArb =
    licenseNames.length === 0
      ? fc.constant(undefined)
      : fc.option(
          fc
            .uniqueArray(fc.integer({ min: 0, max: licenseNames.length - 1 }), {
              minLength: 1,
              maxLength: Math.min(2, licenseNames.length),
            })
            .chain((idx) =>
              fc
                .tuple(...idx.map((i) => fc.integer({ min: 1, max: licenseNames[i]!.copies })))
                .map((copies) => {
                  const req: Record<string, number> = {};
                  idx.forEach((i, k) => {
                    req[licenseNames[i]!.name] = copies[k]!;
                  });
                  return req;
                }),
            ),
          { nil: undefined, freq: 3 },
        );
  const job = fc.record({
    gap: fc.integer({ min: 0, max: maxGap }),
    runtime: fc.integer({ min: 1, max: maxRuntime }),
    estimateFactor: underestimates
      ? fc.constantFrom(0.5, 1, 1, 1.5, 2, 3)
      : fc.constantFrom(1, 1, 1.5, 2, 3),
    cores: fc.integer({ min: 1, max: coreCap }),
    deadline: deadlines
      ? fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined, freq: 2 })
      : fc.constant(undefined),
    ready: readyTimes
      ? fc.option(fc.integer({ min: 1, max: 20 }), { nil: undefined, freq: 3 })
      : fc.constant(undefined),
    licenses: licenseArb,
    idKey: fc.nat({ max: 1_000_000 }),
  });
  return fc.array(job, { minLength: minJobs, maxLength: maxJobs }).map((raw) => {
    const order = raw.map((_, i) => i).sort((a, b) => raw[a]!.idKey - raw[b]!.idKey || a - b);
    const ids = new Array<number>(raw.length);
    order.forEach((i, rank) => {
      ids[i] = rank;
    });
    let t = 0;
    return raw.map((r, i) => {
      t += r.gap;
      const spec: {
        -readonly [K in keyof JobSpec]: JobSpec[K];
      } = {
        id: ids[i]!,
        submit: t,
        runtime: r.runtime,
        estimate: Math.max(1, Math.round(r.runtime * r.estimateFactor)),
        cores: r.cores,
      };
      if (r.deadline !== undefined) spec.deadline = t + r.runtime * r.deadline;
      if (r.ready !== undefined) spec.ready = t + r.ready;
      if (r.licenses !== undefined) spec.licenses = r.licenses;
      return createJob(spec);
    });
  });
}
