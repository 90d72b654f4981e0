import { InvalidInputError } from "@sched/core";
import { describeValue, optionKeys, requireBoolean, requireKnownKeys } from "@sched/errors";
import { Random } from "@sched/random";
import { emptySwfHeader, type SwfHeader } from "./swf-header.js";
import type { SwfTrace } from "./swf-read.js";
import { SWF_UNKNOWN, type SwfRecord } from "./swf-record.js";

/**
 * The parameters of one job type of the Lublin-Feitelson model (Lublin & Feitelson, JPDC 2003).
 * The published sets, {@link LUBLIN_BATCH}, {@link LUBLIN_INTERACTIVE} and
 * {@link LUBLIN_TYPELESS}, describe a 128-processor machine (see {@link LublinOptions.procs}).
 */
export interface LublinParameters {
  /** Fraction of all jobs that are serial (1 processor). */
  readonly serialProb: number;
  /** Fraction of all jobs that are parallel with a power-of-two size (serialProb + pow2Prob <= 1). */
  readonly pow2Prob: number;
  /** Size, two-stage uniform in log2: lower bound of the first stage. */
  readonly uLow: number;
  /** Size: the boundary between the two stages. */
  readonly uMed: number;
  /** Size: upper bound of the second stage (log2 of the largest job). */
  readonly uHi: number;
  /** Size: probability of the first stage, [uLow, uMed]. */
  readonly uProb: number;
  /** Run time, hyper-gamma on ln(seconds): shape of the first gamma. */
  readonly a1: number;
  /** Run time: scale of the first gamma. */
  readonly b1: number;
  /** Run time: shape of the second gamma. */
  readonly a2: number;
  /** Run time: scale of the second gamma. */
  readonly b2: number;
  /** Run time: the first gamma's probability is `pa * size + pb`, clamped to [0, 1]. */
  readonly pa: number;
  /** Run time: see `pa`. */
  readonly pb: number;
  /** Inter-arrival, gamma on ln(seconds) at the average rate of the day: shape. */
  readonly aarr: number;
  /** Inter-arrival: scale. */
  readonly barr: number;
  /** Daily cycle: shape of the gamma density of arrivals over the day's 48 half-hours. */
  readonly anum: number;
  /** Daily cycle: its scale, in half-hours. */
  readonly bnum: number;
  /** Arrival-rate ratio: every inter-arrival time is multiplied by it (see Interpretation). */
  readonly arar: number;
}

/** Published batch parameters (128 processors). */
export const LUBLIN_BATCH: Readonly<LublinParameters> = Object.freeze({
  serialProb: 0.2927,
  pow2Prob: 0.6686,
  uLow: 1.2,
  uMed: 5,
  uHi: 7,
  uProb: 0.875,
  a1: 6.57,
  b1: 0.823,
  a2: 639.1,
  b2: 0.0156,
  pa: -0.003,
  pb: 0.6986,
  aarr: 6.0415,
  barr: 0.8531,
  anum: 6.1271,
  bnum: 5.274,
  arar: 1.0519,
});

/** Published interactive parameters (128 processors). */
export const LUBLIN_INTERACTIVE: Readonly<LublinParameters> = Object.freeze({
  serialProb: 0.1541,
  pow2Prob: 0.625,
  uLow: 1,
  uMed: 3,
  uHi: 5.5,
  uProb: 0.705,
  a1: 3.8351,
  b1: 0.6605,
  a2: 7.073,
  b2: 0.6856,
  pa: -0.0118,
  pb: 0.9156,
  aarr: 6.551,
  barr: 0.6621,
  anum: 8.9186,
  bnum: 3.668,
  arar: 0.9797,
});

/** Published parameters when job types are off (128 processors). */
export const LUBLIN_TYPELESS: Readonly<LublinParameters> = Object.freeze({
  serialProb: 0.244,
  pow2Prob: 0.576,
  uLow: 0.8,
  uMed: 4.5,
  uHi: 7,
  uProb: 0.86,
  a1: 4.2,
  b1: 0.94,
  a2: 312,
  b2: 0.03,
  pa: -0.0054,
  pb: 0.78,
  aarr: 10.2303,
  barr: 0.4871,
  anum: 8.1737,
  bnum: 3.9631,
  arar: 1.0225,
});

/** Options of the Lublin-Feitelson generator ({@link lublinRecords}, {@link generateLublin}). */
export interface LublinOptions {
  /**
   * Number of jobs.
   * @defaultValue `1000`
   */
  readonly jobs?: number;
  /**
   * Processors of the machine. The published uHi and uMed are for 128; for another size they
   * are shifted by log2(procs) - 7 unless given (so with types off, uHi = log2(procs) and
   * uMed = uHi - 2.5), and uLow is lowered to uMed on machines too small for it. No job is
   * larger than `procs`.
   * @defaultValue `128`
   */
  readonly procs?: number;
  /**
   * Seed of the random streams.
   * @defaultValue `0`
   */
  readonly seed?: number;
  /**
   * Two job types, batch and interactive, each with its own parameters and arrival process
   * (merged in time order); when false, one stream with the typeless parameters.
   * @defaultValue `true`
   */
  readonly jobTypes?: boolean;
  /** Overrides of the batch parameters. @defaultValue {@link LUBLIN_BATCH} */
  readonly batch?: Partial<LublinParameters>;
  /** Overrides of the interactive parameters. @defaultValue {@link LUBLIN_INTERACTIVE} */
  readonly interactive?: Partial<LublinParameters>;
  /** Overrides of the typeless parameters. @defaultValue {@link LUBLIN_TYPELESS} */
  readonly typeless?: Partial<LublinParameters>;
  /**
   * Divides every arrival time (the advance-reservation paper's "arrival factor"): 2 doubles
   * the arrival rate, hence the offered load.
   * @defaultValue `1`
   */
  readonly arrivalFactor?: number;
  /**
   * Run times are at most e^maxLogRuntime seconds (the gamma variate is clamped).
   * @defaultValue `12`
   */
  readonly maxLogRuntime?: number;
  /**
   * Inter-arrival times (before the daily cycle) are at most e^maxLogInterArrival seconds.
   * @defaultValue `13`
   */
  readonly maxLogInterArrival?: number;
}

/** The keys of {@link LublinOptions}, all of them (checked by the compiler). */
const LUBLIN_KEYS = optionKeys<LublinOptions>({
  jobs: true,
  procs: true,
  seed: true,
  jobTypes: true,
  batch: true,
  interactive: true,
  typeless: true,
  arrivalFactor: true,
  maxLogRuntime: true,
  maxLogInterArrival: true,
});

/** The job types of the model; the SWF queue field (15) holds 0 interactive / typeless, 1 batch. */
export type LublinJobType = "batch" | "interactive" | "typeless";

/** {@link LublinOptions} with every default filled in and checked. */
export interface ResolvedLublinOptions {
  readonly jobs: number;
  readonly procs: number;
  readonly seed: number;
  readonly jobTypes: boolean;
  readonly batch: LublinParameters;
  readonly interactive: LublinParameters;
  readonly typeless: LublinParameters;
  readonly arrivalFactor: number;
  readonly maxLogRuntime: number;
  readonly maxLogInterArrival: number;
}

/** Number of half-hour buckets in a day. */
export const LUBLIN_BUCKETS = 48;
/** Seconds per bucket. */
const BUCKET_SECONDS = 1800;
/**
 * Bucket of the day at which a generated trace's time 0 lies (5:30 am): the daily cycle starts
 * there.
 */
export const LUBLIN_CYCLE_START = 11;
/** Where bucket b of the cycle samples the gamma density: x = b + LUBLIN_CYCLE_PHASE half-hours. */
const LUBLIN_CYCLE_PHASE = 1.5;

const KEYS: readonly (keyof LublinParameters)[] = Object.keys(
  LUBLIN_TYPELESS,
) as (keyof LublinParameters)[];

const WHERE = "@sched/workload/lublin";

/**
 * How far the published uHi and uMed (for 128 processors) move on a machine of `procs`:
 * log2(procs) - 7 (internal to the package).
 */
export function lublinShift(procs: number): number {
  return Math.log2(procs) - 7;
}

/**
 * One type's parameters: `base` with uHi and uMed shifted by `shift` (see
 * {@link lublinShift}), then `over`, checked. Errors name `where` and `fieldOf(key)`, so a caller
 * that passes its own option through (advanceReservationWorkload's `lublin`) names it as its
 * user wrote it (internal to the package).
 */
export function resolveLublinParameters(
  base: LublinParameters,
  over: Partial<LublinParameters> | undefined,
  shift: number,
  where: string,
  fieldOf: (key: string) => string,
): LublinParameters {
  const p: Record<string, number> = {
    ...base,
    uHi: base.uHi + shift,
    uMed: base.uMed + shift,
    uLow: Math.min(base.uLow, base.uMed + shift),
  };
  if (over !== undefined) {
    for (const [k, v] of Object.entries(over)) {
      if (!KEYS.includes(k as keyof LublinParameters)) {
        throw new InvalidInputError(where, fieldOf(k), "is not a Lublin parameter");
      }
      if (v !== undefined) p[k] = v;
    }
  }
  for (const k of KEYS) {
    const v = p[k];
    if (typeof v !== "number" || !Number.isFinite(v)) {
      throw new InvalidInputError(
        where,
        fieldOf(k),
        `is ${describeValue(v)}, expected a finite number`,
      );
    }
  }
  const q = p as unknown as LublinParameters;
  const bad = (field: string, detail: string): never => {
    throw new InvalidInputError(where, fieldOf(field), detail);
  };
  for (const k of ["serialProb", "pow2Prob", "uProb"] as const) {
    if (q[k] < 0 || q[k] > 1) bad(k, `is ${q[k]}, expected a probability in [0, 1]`);
  }
  if (q.serialProb + q.pow2Prob > 1) {
    bad(
      "pow2Prob",
      `is ${q.pow2Prob}, expected serialProb + pow2Prob <= 1 (both are fractions of all jobs)`,
    );
  }
  if (!(q.uLow <= q.uMed && q.uMed <= q.uHi)) {
    bad("uMed", `is ${q.uMed}, expected uLow (${q.uLow}) <= uMed <= uHi (${q.uHi})`);
  }
  for (const k of ["a1", "b1", "a2", "b2", "aarr", "barr", "anum", "bnum", "arar"] as const) {
    if (!(q[k] > 0)) bad(k, `is ${q[k]}, expected > 0`);
  }
  return q;
}

/**
 * Fills the defaults of {@link LublinOptions} and checks them.
 *
 * @throws InvalidInputError naming the option, when one is out of range: jobs or procs not a
 *   positive integer, a probability outside [0, 1], serialProb + pow2Prob > 1, uLow <= uMed <=
 *   uHi violated, a gamma shape or scale, arar or arrivalFactor not positive, an unknown key.
 *
 * Complexity: O(1).
 *
 * @example
 * ```ts
 * resolveLublinOptions({ procs: 256 }).typeless.uHi; // 8
 * ```
 */
export function resolveLublinOptions(options: LublinOptions = {}): ResolvedLublinOptions {
  requireKnownKeys(WHERE, "options", options, LUBLIN_KEYS);
  const jobs = options.jobs ?? 1000;
  const procs = options.procs ?? 128;
  const seed = options.seed ?? 0;
  const arrivalFactor = options.arrivalFactor ?? 1;
  const maxLogRuntime = options.maxLogRuntime ?? 12;
  const maxLogInterArrival = options.maxLogInterArrival ?? 13;
  if (!Number.isSafeInteger(jobs) || jobs < 0) {
    throw new InvalidInputError(
      WHERE,
      "options.jobs",
      `is ${describeValue(jobs)}, expected an integer >= 0`,
    );
  }
  if (!Number.isSafeInteger(procs) || procs < 1) {
    throw new InvalidInputError(
      WHERE,
      "options.procs",
      `is ${describeValue(procs)}, expected an integer >= 1`,
    );
  }
  if (!Number.isSafeInteger(seed)) {
    throw new InvalidInputError(
      WHERE,
      "options.seed",
      `is ${describeValue(seed)}, expected a safe integer`,
    );
  }
  if (
    typeof arrivalFactor !== "number" ||
    !(arrivalFactor > 0) ||
    !Number.isFinite(arrivalFactor)
  ) {
    throw new InvalidInputError(
      WHERE,
      "options.arrivalFactor",
      `is ${describeValue(arrivalFactor)}, expected a finite number > 0`,
    );
  }
  for (const [k, v] of [
    ["maxLogRuntime", maxLogRuntime],
    ["maxLogInterArrival", maxLogInterArrival],
  ] as const) {
    if (typeof v !== "number" || !(v > 0) || !Number.isFinite(v)) {
      throw new InvalidInputError(
        WHERE,
        `options.${k}`,
        `is ${describeValue(v)}, expected a finite number > 0`,
      );
    }
  }
  // absent is the default; null is refused
  const jobTypes =
    options.jobTypes === undefined
      ? true
      : requireBoolean(WHERE, "options.jobTypes", options.jobTypes);
  const shift = lublinShift(procs);
  const named = (name: string) => (k: string) => `options.${name}.${k}`;
  return {
    jobs,
    procs,
    seed,
    jobTypes,
    batch: resolveLublinParameters(LUBLIN_BATCH, options.batch, shift, WHERE, named("batch")),
    interactive: resolveLublinParameters(
      LUBLIN_INTERACTIVE,
      options.interactive,
      shift,
      WHERE,
      named("interactive"),
    ),
    typeless: resolveLublinParameters(
      LUBLIN_TYPELESS,
      options.typeless,
      shift,
      WHERE,
      named("typeless"),
    ),
    arrivalFactor,
    maxLogRuntime,
    maxLogInterArrival,
  };
}

/**
 * The relative arrival rate of each half-hour bucket of the daily cycle (bucket 0 starts at the
 * trace's time 0, which is bucket {@link LUBLIN_CYCLE_START} of the day): proportional to the
 * gamma(anum, bnum) density at x = b + 1.5 half-hours, summed over whole days (x + 48 j) so the
 * cycle wraps around, and scaled to average 1 over the day.
 *
 * Complexity: O(48).
 *
 * @example
 * ```ts
 * const r = lublinDailyCycle(8.1737, 3.9631);
 * r.reduce((a, b) => a + b) / 48; // 1
 * ```
 */
export function lublinDailyCycle(anum: number, bnum: number): Float64Array {
  const logs = new Float64Array(LUBLIN_BUCKETS * 20);
  let max = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < logs.length; i++) {
    const x = i + LUBLIN_CYCLE_PHASE;
    logs[i] = (anum - 1) * Math.log(x) - x / bnum;
    if (logs[i]! > max) max = logs[i]!;
  }
  const w = new Float64Array(LUBLIN_BUCKETS);
  let sum = 0;
  for (let i = 0; i < logs.length; i++) {
    const v = Math.exp(logs[i]! - max);
    w[i % LUBLIN_BUCKETS]! += v;
    sum += v;
  }
  for (let b = 0; b < LUBLIN_BUCKETS; b++) w[b] = (w[b]! * LUBLIN_BUCKETS) / sum;
  return w;
}

/**
 * @internal Exported for the tests only (not from the package index).
 * One arrival process: the gap after an arrival at time t is arar * e^g / rate(bucket of t),
 * g ~ gamma(aarr, barr) clamped at maxLog.
 */
export class ArrivalStream {
  /** Continuous time of the last arrival, seconds from the cycle start. */
  time = 0;
  private readonly rates: Float64Array;

  constructor(
    private readonly rng: Random,
    private readonly p: LublinParameters,
    private readonly maxLog: number,
  ) {
    this.rates = lublinDailyCycle(p.anum, p.bnum);
    for (let b = 0; b < LUBLIN_BUCKETS; b++) this.rates[b]! /= p.arar;
  }

  /** Advances to the next arrival and returns its continuous time. */
  next(): number {
    const g = Math.min(this.rng.gamma(this.p.aarr, this.p.barr), this.maxLog);
    const bucket = Math.floor(this.time / BUCKET_SECONDS) % LUBLIN_BUCKETS;
    this.time += Math.exp(g) / this.rates[bucket]!;
    return this.time;
  }
}

/** Largest power of two <= n (n >= 1). */
function floorPow2(n: number): number {
  return 2 ** Math.floor(Math.log2(n));
}

/**
 * @internal Exported for the tests only.
 * A job size: serial with probability serialProb; a power of two, 2^round(u), with probability
 * pow2Prob; otherwise round(2^u); u two-stage uniform. At most `procs`.
 */
export function lublinSize(rng: Random, p: LublinParameters, procs: number): number {
  const kind = rng.next();
  if (kind < p.serialProb) return 1;
  const u = rng.next() < p.uProb ? rng.uniform(p.uLow, p.uMed) : rng.uniform(p.uMed, p.uHi);
  if (kind < p.serialProb + p.pow2Prob) {
    const s = 2 ** Math.round(u);
    return s > procs ? floorPow2(procs) : Math.max(1, s);
  }
  return Math.min(procs, Math.max(1, Math.round(2 ** u)));
}

/** @internal Exported for the tests only. A run time in whole seconds (>= 1): e^g, g hyper-gamma with p = pa * size + pb. */
export function lublinRuntime(
  rng: Random,
  p: LublinParameters,
  size: number,
  maxLog: number,
): number {
  const first = Math.min(1, Math.max(0, p.pa * size + p.pb));
  const g = rng.next() < first ? rng.gamma(p.a1, p.b1) : rng.gamma(p.a2, p.b2);
  return Math.max(1, Math.floor(Math.exp(Math.min(g, maxLog))));
}

/**
 * Generates a Lublin-Feitelson workload lazily, one SWF record at a time (a million jobs never
 * need to be in memory): job number (1, from 1), submit time (2, whole seconds from the start of
 * the daily cycle), run time (4, whole seconds), allocated processors (5), status 1 (11) and
 * queue (15: 0 interactive or typeless, 1 batch); every other field -1, as the model's original
 * code writes them. Deterministic: the same options give the same records.
 *
 * Random streams (see {@link Random}): `lublin/arrivals/<type>` per arrival process,
 * `lublin/sizes` and `lublin/runtimes`.
 *
 * Complexity: O(jobs) time, O(1) memory.
 *
 * @throws InvalidInputError as {@link resolveLublinOptions}.
 *
 * @example
 * ```ts
 * for (const r of lublinRecords({ jobs: 3, procs: 256, seed: 1, jobTypes: false })) {
 *   console.log(r.submitTime, r.allocatedProcs, r.runTime);
 * }
 * ```
 */
export function* lublinRecords(options: LublinOptions = {}): Generator<SwfRecord, void, undefined> {
  const o = resolveLublinOptions(options);
  const sizes = new Random(o.seed, "lublin/sizes");
  const runtimes = new Random(o.seed, "lublin/runtimes");
  const types: { type: LublinJobType; p: LublinParameters; stream: ArrivalStream; next: number }[] =
    o.jobTypes
      ? (["batch", "interactive"] as const).map((type) => ({
          type,
          p: o[type],
          stream: new ArrivalStream(
            new Random(o.seed, `lublin/arrivals/${type}`),
            o[type],
            o.maxLogInterArrival,
          ),
          next: 0,
        }))
      : [
          {
            type: "typeless" as const,
            p: o.typeless,
            stream: new ArrivalStream(
              new Random(o.seed, "lublin/arrivals/typeless"),
              o.typeless,
              o.maxLogInterArrival,
            ),
            next: 0,
          },
        ];
  for (const t of types) t.next = t.stream.next();
  for (let i = 0; i < o.jobs; i++) {
    // the earliest next arrival; on a tie, the first listed (batch before interactive)
    let t = types[0]!;
    for (const u of types) if (u.next < t.next) t = u;
    const time = t.next;
    t.next = t.stream.next();
    const size = lublinSize(sizes, t.p, o.procs);
    const runtime = lublinRuntime(runtimes, t.p, size, o.maxLogRuntime);
    yield {
      jobNumber: i + 1,
      submitTime: Math.floor(time / o.arrivalFactor),
      waitTime: SWF_UNKNOWN,
      runTime: runtime,
      allocatedProcs: size,
      avgCpuTime: SWF_UNKNOWN,
      usedMemory: SWF_UNKNOWN,
      requestedProcs: SWF_UNKNOWN,
      requestedTime: SWF_UNKNOWN,
      requestedMemory: SWF_UNKNOWN,
      status: 1,
      userId: SWF_UNKNOWN,
      groupId: SWF_UNKNOWN,
      executable: SWF_UNKNOWN,
      queue: t.type === "batch" ? 1 : 0,
      partition: SWF_UNKNOWN,
      precedingJob: SWF_UNKNOWN,
      thinkTime: SWF_UNKNOWN,
    };
  }
}

function describeParameters(p: LublinParameters): string {
  return KEYS.map((k) => `${k}=${p[k]}`).join(" ");
}

/**
 * The SWF header of a generated Lublin-Feitelson trace: Version 2.2, MaxJobs, MaxRecords,
 * MaxNodes and MaxProcs (procs), MaxRuntime (floor(e^maxLogRuntime)), Preemption No, and Notes
 * recording the model, the seed and every parameter, so the file says how to regenerate it.
 *
 * Complexity: O(1).
 *
 * @throws InvalidInputError as {@link resolveLublinOptions}.
 *
 * @example
 * ```ts
 * lublinHeader({ jobs: 10, procs: 256 }).maxRuntime; // 162754
 * ```
 */
export function lublinHeader(options: LublinOptions = {}): SwfHeader {
  const o = resolveLublinOptions(options);
  const notes = [
    `generated by @sched/workload: Lublin-Feitelson model (Lublin & Feitelson, JPDC 2003)`,
    `seed=${o.seed} jobs=${o.jobs} procs=${o.procs} jobTypes=${o.jobTypes} arrivalFactor=${o.arrivalFactor} maxLogRuntime=${o.maxLogRuntime} maxLogInterArrival=${o.maxLogInterArrival}`,
  ];
  if (o.jobTypes) {
    notes.push(`batch (queue 1): ${describeParameters(o.batch)}`);
    notes.push(`interactive (queue 0): ${describeParameters(o.interactive)}`);
  } else {
    notes.push(`typeless (queue 0): ${describeParameters(o.typeless)}`);
  }
  return {
    ...emptySwfHeader(),
    version: "2.2",
    computer: "Lublin-Feitelson model",
    maxJobs: o.jobs,
    maxRecords: o.jobs,
    preemption: "No",
    maxNodes: o.procs,
    maxProcs: o.procs,
    maxRuntime: Math.floor(Math.exp(o.maxLogRuntime)),
    notes,
  };
}

/** The most elements a JavaScript array holds (2^32 - 1). */
const MAX_ARRAY_LENGTH = 2 ** 32 - 1;

/**
 * A whole Lublin-Feitelson trace in memory: {@link lublinHeader} and the records of
 * {@link lublinRecords}. Convert it to jobs with
 * `swfToJobs(records, { estimate: "runtime" })` (the model has no requested times).
 *
 * Complexity: O(jobs).
 *
 * @throws InvalidInputError as {@link resolveLublinOptions}, and when `jobs` exceeds what an
 * array holds (2^32 - 1; {@link lublinRecords} streams any number).
 *
 * @example
 * ```ts
 * const { header, records } = generateLublin({ jobs: 10000, procs: 256, seed: 1 });
 * writeFileSync("l.swf", formatSwf(header, records));
 * ```
 */
export function generateLublin(options: LublinOptions = {}): SwfTrace {
  const header = lublinHeader(options);
  if (header.maxJobs !== undefined && header.maxJobs > MAX_ARRAY_LENGTH) {
    // Refused at once: no array holds them, and generating them first took days.
    throw new InvalidInputError(
      WHERE,
      "options.jobs",
      `is ${header.maxJobs}, more records than an array holds (${MAX_ARRAY_LENGTH}); stream them with lublinRecords`,
    );
  }
  return { header, records: [...lublinRecords(options)] };
}
