import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bench, describe } from "vitest";
import { main } from "../src/main.js";

const quiet = { stdout: () => {}, stderr: () => {} };
const dir = mkdtempSync(join(tmpdir(), "sched-sim-bench-gen-"));
const swf = join(dir, "lublin-100k.swf");
const jsonl = join(dir, "lublin-100k.jsonl");

describe("gen and inspect (in-process)", () => {
  bench(
    "gen lublin: 100k jobs to SWF",
    async () => {
      await main(["gen", "lublin", "--jobs", "100000", "--seed", "1", "--out", swf], quiet);
    },
    { iterations: 3, time: 0 },
  );
  bench(
    "gen lublin: 100k jobs to JSON Lines",
    async () => {
      await main(["gen", "lublin", "--jobs", "100000", "--seed", "1", "--out", jsonl], quiet);
    },
    { iterations: 3, time: 0 },
  );
  bench(
    "inspect: 100k-job SWF",
    async () => {
      await main(["inspect", swf], quiet);
    },
    {
      iterations: 3,
      time: 0,
      setup: () =>
        main(["gen", "lublin", "--jobs", "100000", "--seed", "1", "--out", swf], quiet).then(
          () => {},
        ),
    },
  );
  bench(
    "reproduce ar-size --quick --seeds 1 (21 runs of 1000 jobs)",
    async () => {
      await main(["reproduce", "ar-size", "--quick", "--seeds", "1", "--quiet"], quiet);
    },
    { iterations: 3, time: 0 },
  );
});
