import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bench, describe } from "vitest";
import { main } from "../src/main.js";
import { syntheticWorkload } from "../src/synthetic.js";

const quiet = { stdout: () => {}, stderr: () => {} };

// A 20,000-job SWF trace on 128 processors, written once.
const dir = mkdtempSync(join(tmpdir(), "sched-sim-bench-"));
const trace = join(dir, "synthetic-20k.swf");
const lines = ["; MaxProcs: 128"];
for (const j of syntheticWorkload({ jobs: 20_000, procs: 128, load: 0.6, seed: 1 })) {
  lines.push(
    `${j.id} ${j.submit} -1 ${j.runtime} ${j.cores} -1 -1 ${j.cores} ${j.estimate} -1 1 1 1 -1 -1 -1 -1 -1`,
  );
}
writeFileSync(trace, `${lines.join("\n")}\n`);

describe("sched-sim end to end (in-process)", () => {
  bench(
    "demo: 2000 jobs, fcfs + easy + conservative",
    async () => {
      await main(["demo"], quiet);
    },
    { iterations: 3, time: 0 },
  );

  for (const scheduler of ["fcfs", "easy"]) {
    bench(
      `run: stream-read a 20k-job SWF, ${scheduler}, metrics`,
      async () => {
        await main(["run", "-w", trace, "-s", scheduler], quiet);
      },
      { iterations: 3, time: 0 },
    );
  }
});
