import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FUZZ_FORMATS, fuzzCases } from "./fuzz/inputs.js";
import { runCase } from "./fuzz/run-case.js";
import { tempDir } from "./helpers.js";

// The fuzz suite of issue 23 at the size of a unit test (the script scripts/fuzz.ts runs it at
// 10,000 inputs): every reader, on valid inputs with hostile values, structural and byte-level
// changes, ends in a clean result equal to the reference reader's, or in a typed error naming
// the file and line, or the record and field, with exit code 1 (bad data) or 2 (bad usage).
const RUNS = Number(process.env.FUZZ_RUNS ?? 120);

describe("fuzz: every reader ends in a clean result or a typed error naming where", () => {
  for (const format of FUZZ_FORMATS) {
    it(`${format}: no internal error, no silently accepted value, no misplaced error`, async () => {
      const dir = await tempDir();
      await fc.assert(
        fc.asyncProperty(fuzzCases(format), async (c) => {
          const outcome = await runCase(c, dir);
          expect(
            outcome.kind === "clean" || outcome.kind === "typed",
            `${JSON.stringify(outcome)}\nmutations: ${c.mutations.join("; ")}\nfile ${c.name}: ${JSON.stringify(Buffer.from(c.bytes).toString("latin1").slice(0, 2000))}`,
          ).toBe(true);
        }),
        { numRuns: RUNS },
      );
    });
  }
});
