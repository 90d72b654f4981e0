import { describe, expect, it } from "vitest";
import type { RunTask } from "../src/sweep/plan.js";
import { workerExecutor } from "../src/sweep/pool.js";
import { syntheticPlan } from "./sweep-helpers.js";

// The worker executor keeps two runs in hand per thread, so a thread starts its next run as soon
// as it replies (not after the main thread has written the last result and sent another).

const SCRIPT = new URL("./fixtures/pool-worker.mjs", import.meta.url);
const task = (seed: number): RunTask => ({ key: `k${seed}`, params: {}, seed, scheduler: 0 });
type Seen = { key: string; thread: number; at: number };

describe("workerExecutor", () => {
  it("takes two runs per thread, made in the order sent; a third waits for a free lane", async () => {
    const executor = workerExecutor(syntheticPlan(1, 1, 1), SCRIPT, 1);
    try {
      expect(executor.parallelism).toBe(1);
      expect(executor.lanes).toBe(2);
      const first = executor.run(task(1));
      const second = executor.run(task(2));
      await expect(executor.run(task(3))).rejects.toThrow("no idle worker thread");
      const [a, b] = (await Promise.all([first, second])).map((o) => o.record as unknown as Seen);
      expect([a?.key, b?.key]).toEqual(["k1", "k2"]);
      expect(a?.thread).toBe(b?.thread);
      expect((b?.at ?? 0) >= (a?.at ?? 0)).toBe(true);
      // a lane is free again
      expect(((await executor.run(task(4))).record as unknown as Seen).key).toBe("k4");
    } finally {
      await executor.close();
    }
  });

  it("spreads runs over the threads before giving one thread a second", async () => {
    const executor = workerExecutor(syntheticPlan(1, 1, 1), SCRIPT, 2);
    try {
      expect(executor.lanes).toBe(4);
      const outcomes = await Promise.all([1, 2].map((s) => executor.run(task(s))));
      const threads = outcomes.map((o) => (o.record as unknown as Seen).thread);
      expect(new Set(threads).size).toBe(2);
    } finally {
      await executor.close();
    }
  });

  it("a thread that dies fails its running run; the run waiting for it goes to its replacement", async () => {
    const executor = workerExecutor(syntheticPlan(1, 1, 1), SCRIPT, 1);
    try {
      const dying = executor.run(task(-1));
      const waiting = executor.run(task(5));
      await expect(dying).rejects.toThrow("worker thread died: exit code 3");
      const done = (await waiting).record as unknown as Seen;
      expect(done.key).toBe("k5");
      expect(((await executor.run(task(6))).record as unknown as Seen).thread).toBe(done.thread);
    } finally {
      await executor.close();
    }
  });
});
