import { readFileSync } from "node:fs";
import { format } from "node:util";
import { identicalPool, simulate } from "@sched/core";
import { runReadmeExample } from "@sched/core/testing";
import { expect, it } from "vitest";
import * as backfill from "../src/index.js";

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
/** The README's ```ts block holding `contains`, run with this package's exports. */
const example = (contains: string) =>
  runReadmeExample({ readme, contains, modules: { "@sched/backfill": backfill }, format });

// The README's live-loop example, run as it is written there (runReadmeExample: its import lines
// dropped and the names they import passed in, its console.log captured as Node prints it), and
// what it prints compared with the "// " lines that end the block.
it("README live-loop example: EASY on a hand-built state", () => {
  const { lines, printed, expected } = example("backfillPass({");
  expect(lines).toBeLessThan(15);
  expect(printed).toEqual(expected);
});

// The README's whole loop (the state a live loop keeps between calls): what it prints is what
// the README says, and what the engine's conservative() gives on the same jobs.
it("README live-loop example: a whole conservative loop starts every job when simulate does", () => {
  const { printed, expected } = example("const realEnd = new Map();");
  expect(printed).toEqual(expected);
  const jobs = [
    { id: 1, submit: 0, runtime: 6, estimate: 10, cores: 2 },
    { id: 2, submit: 1, runtime: 5, estimate: 5, cores: 4 },
    { id: 3, submit: 2, runtime: 9, estimate: 9, cores: 1 },
    { id: 4, submit: 3, runtime: 3, estimate: 7, cores: 1 },
    { id: 5, submit: 3, runtime: 5, estimate: 5, cores: 1 },
  ];
  expect(readme).toContain(
    jobs
      .map(
        (j) =>
          `  { id: ${j.id}, submit: ${j.submit}, runtime: ${j.runtime}, estimate: ${j.estimate}, cores: ${j.cores} },`,
      )
      .join("\n"),
  );
  const trace = simulate(jobs, identicalPool(1, { cores: 4 }), backfill.conservative());
  expect(printed).toEqual([trace.records.map((r) => r.intervals[0]?.start).join(" ")]);
});

// The README's paragraph on conservative after a missed reservation: a loop like the whole loop
// above, calling at submissions, completions and wakeAt (with the jobs' ready times among its
// times or not: wakeAt covers them), and with or without each decision's earliest reservation.
// Job 0 runs past its estimate, so job 1's reservation is missed: with that time the loop starts
// every job when simulate does; without it, jobs 1 and 2 in the other order.
it("README: conservative decides as simulate call for call when a loop adds each decision's earliest reservation", () => {
  const jobs = [
    { id: 0, submit: 0, runtime: 17, estimate: 9, cores: 2, ready: 8 },
    { id: 1, submit: 4, runtime: 3, estimate: 2, cores: 1, ready: 7 },
    { id: 2, submit: 12, runtime: 1, estimate: 1, cores: 2, ready: 18 },
  ];
  const loop = (readyTimes: boolean, earliestReservation = false): string => {
    const times = new Set(jobs.flatMap((j) => (readyTimes ? [j.submit, j.ready] : [j.submit])));
    const running = new Map<number, { id: number; cores: number; end: number }>();
    const queue = new Map<number, backfill.QueuedJob>();
    const realEnd = new Map<number, number>();
    const startedAt = new Map<number, number>();
    let reservations: readonly backfill.Reservation[] = [];
    while (times.size > 0) {
      const now = Math.min(...times);
      times.delete(now);
      const completed = [...running.keys()].filter((id) => realEnd.get(id) === now);
      for (const id of completed) running.delete(id);
      for (const j of jobs.filter((x) => x.submit === now)) {
        queue.set(j.id, {
          id: j.id,
          cores: j.cores,
          estimate: j.estimate,
          submit: j.submit,
          ready: j.ready,
        });
      }
      const d = backfill.backfillPass(
        {
          now,
          cores: 2,
          running: [...running.values()],
          queue: [...queue.values()],
          reservations,
          completed,
        },
        { policy: "conservative" },
      );
      for (const id of d.start) {
        const j = jobs[id] as (typeof jobs)[number];
        running.set(id, { id, cores: j.cores, end: now + j.estimate });
        realEnd.set(id, now + j.runtime);
        startedAt.set(id, now);
        times.add(now + j.runtime);
        queue.delete(id);
      }
      reservations = d.reservations;
      if (d.wakeAt !== undefined) times.add(d.wakeAt);
      if (earliestReservation) {
        const next = Math.min(...d.reservations.map((r) => r.time).filter((t) => t > now));
        if (next !== Number.POSITIVE_INFINITY) times.add(next);
      }
    }
    return jobs.map((j) => startedAt.get(j.id)).join(" ");
  };
  const trace = simulate(jobs, identicalPool(1, { cores: 2 }), backfill.conservative());
  expect(trace.records.map((r) => r.intervals[0]?.start).join(" ")).toBe("8 25 28");
  expect(loop(false)).toBe("8 26 25");
  expect(loop(true)).toBe("8 26 25");
  expect(loop(false, true)).toBe("8 25 28");
  expect(loop(true, true)).toBe("8 25 28");
  expect(readme.replace(/\s+/g, " ")).toContain(
    "starts them at 8, 26 and 25; with that time added as well, at 8, 25 and 28, as `simulate` does.",
  );
});
