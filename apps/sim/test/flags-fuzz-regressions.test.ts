import { describe, expect, it } from "vitest";
import { cli } from "./helpers.js";

// A defect the flags fuzz suite found (flags-fuzz.property.test.ts).
describe("a flag value with control characters is quoted escaped", () => {
  it("a carriage return or an escape sequence is written as \\u000d / \\u001b (was echoed raw)", async () => {
    const r = await cli("demo", "--format", "json\r");
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      "sched-sim: demo: option --format must be one of table, json, got 'json\\u000d'\n",
    );
    const e = await cli("demo", "--jobs", "\u001b[31m5");
    expect(e.stderr).toContain("got '\\u001b[31m5'");
    expect(e.stderr).not.toContain("\u001b");
  });
});
