/**
 * The CLI's limits on what it reads and builds, checked before anything of that size is
 * allocated, so a hostile or mistaken input ends in an error naming the limit instead of a heap
 * abort, a hang or `Invalid array length`. Each is far above what the papers and the Parallel
 * Workloads Archive need; the README's "Limits" section lists them with their reasons.
 */

/**
 * Processors of a simulated machine (`--procs`, an SWF header's MaxProcs/MaxNodes, an
 * experiment's `platform.procs` or `procs` grid). The engine holds one machine per processor:
 * 1,000,000 take about 300 MB and 2.6 s to set up (measured on `run`), 3,000,000 about 800 MB.
 */
export const MAX_PROCS = 1_000_000;

/**
 * Jobs an experiment file may ask a generator for (`workload.jobs`, a `jobs` grid, a model's
 * `jobs` option): the largest `demo` accepts.
 */
export const MAX_GENERATED_JOBS = 1_000_000;

/**
 * Characters on one line of a trace (SWF or JSON Lines). An SWF line is about 100 characters
 * and a native job line a few hundred; a longer line is not a trace (a gzip bomb of one 600 MB
 * line ended in `Invalid string length` before this limit).
 */
export const MAX_LINE_LENGTH = 1 << 20;

/**
 * Lines of a trace. Every line may become a record and a job held in memory, about 190 bytes
 * for both (measured on KTH-SP2 as `inspect` keeps them), so 10 million lines take about 2 GB of
 * Node's default heap of about 4 GB.
 */
export const MAX_TRACE_LINES = 10_000_000;

/**
 * Bytes of a trace after gunzipping: 10 million lines of about 100 bytes. Stops a gzip bomb
 * (gzip expands up to 1032 times) after a bounded time.
 */
export const MAX_TRACE_BYTES = 1024 ** 3;

/**
 * The line and byte limits of a reader that keeps nothing of the trace (a streamed run or
 * conversion): none. {@link MAX_TRACE_LINES} and {@link MAX_TRACE_BYTES} bound what a trace read
 * whole holds; a streamed reader holds the jobs in flight, so a long trace costs it time in
 * proportion to its text, not memory. {@link MAX_LINE_LENGTH} still applies.
 */
export const STREAMED_TRACE_LIMITS = {
  maxLines: Number.POSITIVE_INFINITY,
  maxBytes: Number.POSITIVE_INFINITY,
} as const;

/**
 * Bytes of a file read whole (a Batsim JSON workload, after gunzipping): `JSON.parse` of it
 * takes several times its size in memory. A million Batsim jobs take about 100 MB.
 */
export const MAX_JSON_BYTES = 256 * 1024 ** 2;

/** Bytes of an experiment file: a hand-written description, a few kilobytes. */
export const MAX_EXPERIMENT_BYTES = 1024 ** 2;

/** Seeds of an experiment (`"seeds": N` or a list): as `reproduce --seeds` allows. */
export const MAX_SEEDS = 10_000;

/**
 * Runs of an experiment: grid points x seeds x schedulers. Each run is a file in `runs/`;
 * the plan itself is checked against this before its points are listed.
 */
export const MAX_RUNS = 1_000_000;
