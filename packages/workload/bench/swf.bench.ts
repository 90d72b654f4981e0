import { bench, describe } from "vitest";
import { swfToJobs } from "../src/swf-jobs.js";
import { parseSwf, readSwfLinesSync } from "../src/swf-read.js";
import { formatSwf } from "../src/swf-write.js";
import { fixtureText, TRACES } from "../test/fixtures.js";

const text = fixtureText(TRACES.kth);
const trace = parseSwf(text);

// KTH-SP2 has 28,476 jobs: jobs/s = 28,476 x (ops/s).
describe("SWF, KTH-SP2 (28,476 jobs)", () => {
  bench("parseSwf", () => {
    parseSwf(text);
  });
  bench("readSwfLinesSync (streaming, records dropped)", () => {
    let n = 0;
    for (const _ of readSwfLinesSync(text.split("\n"))) n++;
    if (n !== 28476) throw new Error("short");
  });
  bench("formatSwf", () => {
    formatSwf(trace.header, trace.records);
  });
  bench("swfToJobs clean", () => {
    swfToJobs(trace.records, { clean: true });
  });
});
