import { Worker } from "node:worker_threads";
import { createInstanceCache, executeTask, type RunRecord, type RunTiming } from "./execute.js";
import type { RunTask, SweepPlan } from "./plan.js";

/** A finished run as an executor returns it. */
export interface RunOutcome {
  readonly record: RunRecord;
  readonly timing: RunTiming;
}

/** Runs tasks; at most {@link RunExecutor.parallelism} at a time are given to it. */
export interface RunExecutor {
  readonly parallelism: number;
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

interface Slot {
  worker: Worker;
  busy:
    | {
        readonly id: number;
        readonly resolve: (o: RunOutcome) => void;
        readonly reject: (e: Error) => void;
      }
    | undefined;
}

/**
 * Runs tasks on `threads` worker threads started from `script` (the CLI bundle, which turns into
 * a sweep worker when it is not the main thread). Each worker keeps its own instance cache. A
 * worker that dies fails its current run with the reason and is replaced.
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
      const busy = slot.busy;
      if (busy === undefined || busy.id !== reply.id) return;
      slot.busy = undefined;
      if (reply.ok) busy.resolve(reply.outcome);
      else busy.reject(new Error(reply.message));
    });
    const died = (reason: string): void => {
      const busy = slot.busy;
      slot.busy = undefined;
      busy?.reject(new Error(`worker thread died: ${reason}`));
      if (!closed && slot.worker === worker) start(slot);
    };
    worker.on("error", (error) => died(error.message));
    worker.on("exit", (code) => {
      if (!closed) died(`exit code ${code}`);
    });
  };
  for (let i = 0; i < threads; i++) {
    const slot = { busy: undefined } as Slot;
    start(slot);
    slots.push(slot);
  }
  return {
    parallelism: threads,
    run(task) {
      const slot = slots.find((s) => s.busy === undefined);
      if (slot === undefined) return Promise.reject(new Error("no idle worker thread"));
      const id = nextId++;
      return new Promise<RunOutcome>((resolve, reject) => {
        slot.busy = { id, resolve, reject };
        slot.worker.postMessage({ id, task });
      });
    },
    async close() {
      closed = true;
      await Promise.all(slots.map((s) => s.worker.terminate()));
    },
  };
}
