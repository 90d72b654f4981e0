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
