import { parentPort, workerData } from "node:worker_threads";
import { userMessage } from "../user-message.js";
import { createInstanceCache, executeTask } from "./execute.js";
import type { RunTask } from "./plan.js";
import type { SweepWorkerData, SweepWorkerReply } from "./pool.js";

/** Whether this thread was started by {@link workerExecutor} as a sweep worker. */
export function isSweepWorker(): boolean {
  return (
    parentPort !== null &&
    typeof workerData === "object" &&
    workerData !== null &&
    (workerData as Partial<SweepWorkerData>).schedSimSweepWorker === true
  );
}

/**
 * The body of a sweep worker thread: runs each task it is sent, one at a time in the order sent
 * (the main thread sends the next before the last is done: see pool.ts), and replies with the
 * record and timing, or the error's message. Never throws.
 */
export function runSweepWorker(): void {
  const port = parentPort;
  if (port === null) return;
  const { plan } = workerData as SweepWorkerData;
  const cache = createInstanceCache();
  let last: Promise<void> = Promise.resolve();
  port.on("message", (message: { id: number; task: RunTask }) => {
    last = last.then(() =>
      executeTask(plan, message.task, cache).then(
        (outcome) =>
          port.postMessage({ id: message.id, ok: true, outcome } satisfies SweepWorkerReply),
        (error: unknown) =>
          port.postMessage({
            id: message.id,
            ok: false,
            message: userMessage(error),
          } satisfies SweepWorkerReply),
      ),
    );
  });
}
