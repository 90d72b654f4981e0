import { readFileSync } from "node:fs";
import { format } from "node:util";
import { runReadmeExample } from "@sched/core/testing";
import { expect, it } from "vitest";
import * as advanceReservation from "../src/index.js";

// The README's live-loop example, run as it is written there (runReadmeExample: its import lines
// dropped and the names they import passed in, its console.log captured as Node prints it), and
// what it prints compared with the "// " lines that end the block.
it("README live-loop example: admission on a hand-built state", () => {
  const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
  const example = runReadmeExample({
    readme,
    contains: "admissionPass(state",
    modules: { "@sched/advance-reservation": advanceReservation },
    format,
  });
  expect(example.lines).toBeLessThan(22);
  expect(example.printed).toEqual(example.expected);
});
