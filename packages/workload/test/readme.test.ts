import { readFileSync } from "node:fs";
import { inspect } from "node:util";
import { expect, it } from "vitest";
import { formatSwf, generateLublin, parseSwf, swfToJobs } from "../src/index.js";

// The README's example, step by step as written there (the trace from fixtures/), and every
// "// " line of the block, except the elided "// ...", among what it prints, in order.
it("README example: the KTH trace read and cleaned, and a Lublin trace written as SWF", () => {
  const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
  const block = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)]
    .map((m) => m[1] ?? "")
    .find((b) =>
      b.includes("generateLublin({ jobs: 10000, procs: 256, seed: 1, jobTypes: false })"),
    );
  expect(block).toBeDefined();
  const expected = (block ?? "")
    .split("\n")
    .filter((l) => l.startsWith("// ") && !l.startsWith("// ..."))
    .map((l) => l.slice(3));

  const source = "KTH-SP2-1996-2.1-cln.swf";
  const text = readFileSync(new URL(`../fixtures/${source}`, import.meta.url), "utf8");
  const { header, records } = parseSwf(text, { source });
  const printed = [`${header.maxProcs} ${header.timeZoneString} ${records.length}`];
  const { jobs, report } = swfToJobs(records, { clean: true });
  printed.push(
    [
      jobs.length,
      report.droppedRuntime.length,
      report.droppedProcs.length,
      report.runtimeCapped.length,
      report.sizeFromAllocated.length,
    ].join(" "),
  );
  printed.push(inspect(jobs[0], { breakLength: Number.POSITIVE_INFINITY }));
  const lublin = generateLublin({ jobs: 10000, procs: 256, seed: 1, jobTypes: false });
  printed.push(...formatSwf(lublin.header, lublin.records.slice(0, 2)).split("\n"));

  let at = 0;
  for (const line of expected) {
    const found = printed.indexOf(line, at);
    expect(found, `README line "${line}" is not printed (in order)`).toBeGreaterThanOrEqual(0);
    at = found + 1;
  }
  expect(expected.length).toBe(8);
});
