/**
 * The domain types of the simulation model. Plain readonly data: builders in `platform.ts` and
 * `job.ts` validate and fill defaults; the engine never mutates what it is given.
 *
 * Units: time in seconds (any origin; SWF traces start at 0), data in bytes, bandwidth in
 * bytes per second, speed as a benchmark figure (only ratios matter).
 */

/** A job's license needs: license name -> copies needed while it runs. */
export type LicenseRequest = Readonly<Record<string, number>>;

/** A job's input data: `size` bytes that live on machine `machine` (an index into the platform). */
export interface InputData {
  readonly size: number;
  readonly machine: number;
}

/**
 * A job: what the user submitted. `runtime` is the truth the engine uses (the work at the
 * reference speed, see {@link Job.benchmark}); a policy must plan with `estimate`, as a real
 * scheduler would.
 */
export interface Job {
  /** Unique non-negative integer. */
  readonly id: number;
  /** Submission time, seconds. */
  readonly submit: number;
  /** Actual run time at the reference speed, seconds (> 0). */
  readonly runtime: number;
  /** Run time the user asked for (requested time) at the reference speed, seconds (> 0). */
  readonly estimate: number;
  /** Cores the job needs in total (rigid); they may span machines unless the policy says otherwise. */
  readonly cores: number;
  /** Absolute deadline, seconds; the job should end by then. */
  readonly deadline?: number;
  /** Earliest start (advance reservation's ready time), seconds; defaults to `submit`. */
  readonly ready?: number;
  /** Licenses the job holds while it runs. */
  readonly licenses?: LicenseRequest;
  /** Input data the job reads at start. */
  readonly input?: readonly InputData[];
  /** Benchmark of the machine that `runtime` and `estimate` refer to (the convergent paper's `BM_ref`); defaults to the platform's `referenceSpeed`. */
  readonly benchmark?: number;
  /** Moldable jobs: the most processors the job can use. */
  readonly maxParallelism?: number;
  /** Number of tasks (moldable / co-allocated jobs). */
  readonly tasks?: number;
  /** SWF user id, group id, queue, partition, when known. */
  readonly user?: number;
  readonly group?: number;
  readonly queue?: number;
  readonly partition?: number;
  /** User priority (higher runs first under priority orderings). */
  readonly priority?: number;
}

/** A machine (node): `cores` cores of benchmark `speed`, in `cluster`. */
export interface Machine {
  /** Its index in `Platform.machines`. */
  readonly id: number;
  readonly name: string;
  readonly cores: number;
  /** Benchmark figure; duration scales with `benchmark(job) / speed`. */
  readonly speed: number;
  /** Index into `Platform.clusters`. */
  readonly cluster: number;
}

/**
 * A license. Floating: `copies` in total, usable on any machine of `machines` (default: all).
 * Node-locked: `copies` on each machine of `machines` (required), usable only there.
 */
export interface License {
  readonly name: string;
  readonly kind: "floating" | "node-locked";
  readonly copies: number;
  /** Machine indices where the license is usable; `undefined` means every machine (floating only). */
  readonly machines?: readonly number[];
}

/** A cluster of machines, joined to the central switch by `link` (an index into `Platform.links`). */
export interface Cluster {
  readonly id: number;
  readonly name: string;
  readonly link?: number;
}

/** A network link: bandwidth in bytes/s, latency in seconds. */
export interface Link {
  readonly id: number;
  readonly bandwidth: number;
  readonly latency: number;
}

/** Everything a job can run on. Build one with `createPlatform` or `identicalPool`. */
export interface Platform {
  readonly machines: readonly Machine[];
  readonly licenses: readonly License[];
  readonly clusters: readonly Cluster[];
  readonly links: readonly Link[];
  /** The benchmark that job runtimes refer to when a job has no `benchmark`. */
  readonly referenceSpeed: number;
  /** Total cores of all machines. */
  readonly totalCores: number;
}

/** One part of an allocation: `cores` cores of machine `machine`. */
export interface AllocationPart {
  readonly machine: number;
  readonly cores: number;
}

/**
 * Where a job runs: parts on distinct machines whose cores add up to the job's `cores`.
 * Node-locked licenses are taken on the allocation's first machine.
 */
export type Allocation = readonly AllocationPart[];
