import { bench, describe } from "vitest";
import { lublinRecords } from "../src/lublin.js";

// jobs/s = 1,000,000 x (ops/s)
describe("Lublin-Feitelson generation, 1M jobs", () => {
  bench(
    "lublinRecords, job types on, 128 processors",
    () => {
      let n = 0;
      for (const _ of lublinRecords({ jobs: 1_000_000, seed: 1 })) n++;
      if (n !== 1_000_000) throw new Error("short");
    },
    { iterations: 3, warmupIterations: 1, time: 0 },
  );
});
