import { Worker } from "node:worker_threads";
import { createInstanceCache, executeTask, type RunRecord, type RunTiming } from "./execute.js";
import type { RunTask, SweepPlan } from "./plan.js";

/** A finished run as an executor returns it. */
export interface RunOutcome {
  readonly record: RunRecord;
  readonly timing: RunTiming;
}

/** Runs tasks; at most {@link RunExecutor.lanes} at a time are given to it. */
export interface RunExecutor {
  /** Runs made at the same time. */
  readonly parallelism: number;
  /**
   * Runs the executor takes in hand at once (its callers keep at most this many): more than
   * {@link parallelism} when a run can wait its turn (so a thread starts its next run while the
   * caller writes the last one's result). @defaultValue parallelism
   */
  readonly lanes?: number;
  /** Resolves with the run's outcome; rejects with an Error carrying the run's failure. */
  run(task: RunTask): Promise<RunOutcome>;
  /** Stop the threads (in-flight runs are abandoned). */
  close(): Promise<void>;
}

/**
 * Runs tasks one at a time on this thread, yielding to the event loop between runs (so progress
 * and aborts are seen). Used by tests and when no worker script is known.
 */
export function inlineExecutor(plan: SweepPlan): RunExecutor {
  const cache = createInstanceCache();
  return {
    parallelism: 1,
    async run(task) {
      await new Promise((resolve) => setImmediate(resolve));
      return executeTask(plan, task, cache);
    },
    async close() {},
  };
}

/** What the main thread sends a sweep worker at start (its `workerData`). */
export interface SweepWorkerData {
  readonly schedSimSweepWorker: true;
  readonly plan: SweepPlan;
}

/** A message from a sweep worker: the outcome of task `id`. */
export type SweepWorkerReply =
  | { readonly id: number; readonly ok: true; readonly outcome: RunOutcome }
  | { readonly id: number; readonly ok: false; readonly message: string };

/** A run given to a worker thread, waiting for its reply. */
interface InFlight {
  readonly task: RunTask;
  readonly resolve: (o: RunOutcome) => void;
  readonly reject: (e: Error) => void;
}

interface Slot {
  worker: Worker;
  /** The runs sent to the worker, by id, in the order it makes them (the first is running). */
  readonly inFlight: Map<number, InFlight>;
}

/**
 * Runs a worker thread holds at once: the one it makes and the next, waiting in its port, so it
 * starts that one as soon as it replies instead of after the main thread has written the reply's
 * file and sent another (with one, on a sweep of 16,000 runs of 20 jobs, each worker thread was
 * idle 75 to 85% of the time).
 */
const RUNS_PER_THREAD = 2;

/**
 * Runs tasks on `threads` worker threads started from `script` (the CLI bundle, which turns into
 * a sweep worker when it is not the main thread). Each worker keeps its own instance cache and
 * makes its runs one at a time, in the order sent. A worker that dies fails its current run with
 * the reason and is replaced; the runs waiting for it go to its replacement.
 */
export function workerExecutor(plan: SweepPlan, script: URL, threads: number): RunExecutor {
  const data: SweepWorkerData = { schedSimSweepWorker: true, plan };
  let nextId = 0;
  let closed = false;
  const slots: Slot[] = [];
  const start = (slot: Slot): void => {
    const worker = new Worker(script, { workerData: data });
    slot.worker = worker;
    worker.on("message", (reply: SweepWorkerReply) => {
      const run = slot.inFlight.get(reply.id);
      if (run === undefined) return;
      slot.inFlight.delete(reply.id);
      if (reply.ok) run.resolve(reply.outcome);
      else run.reject(new Error(reply.message));
    });
    const died = (reason: string): void => {
      if (slot.worker !== worker) return;
      const [first] = slot.inFlight;
      if (first !== undefined) {
        slot.inFlight.delete(first[0]);
        first[1].reject(new Error(`worker thread died: ${reason}`));
      }
      if (closed) return;
      start(slot);
      for (const [id, run] of slot.inFlight) slot.worker.postMessage({ id, task: run.task });
    };
    worker.on("error", (error) => died(error.message));
    worker.on("exit", (code) => {
      if (!closed) died(`exit code ${code}`);
    });
  };
  for (let i = 0; i < threads; i++) {
    const slot = { inFlight: new Map() } as unknown as Slot;
    start(slot);
    slots.push(slot);
  }
  return {
    parallelism: threads,
    lanes: threads * RUNS_PER_THREAD,
    run(task) {
      let slot: Slot | undefined;
      for (const s of slots) {
        if (
          s.inFlight.size < RUNS_PER_THREAD &&
          s.inFlight.size < (slot?.inFlight.size ?? Number.POSITIVE_INFINITY)
        )
          slot = s;
      }
      if (slot === undefined) return Promise.reject(new Error("no idle worker thread"));
      const chosen = slot;
      const id = nextId++;
      return new Promise<RunOutcome>((resolve, reject) => {
        chosen.inFlight.set(id, { task, resolve, reject });
        chosen.worker.postMessage({ id, task });
      });
    },
    async close() {
      closed = true;
      await Promise.all(slots.map((s) => s.worker.terminate()));
    },
  };
}
