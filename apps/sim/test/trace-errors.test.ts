import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli, fixture, tempDir } from "./helpers.js";
import { writeExperiment } from "./sweep-helpers.js";

/** Line 3 holds job 2, whose run time is -5. */
const BAD_DATA =
  "; MaxProcs: 8\n1 0 0 100 4 -1 -1 4 100 -1 1 1 1 -1 1 -1 -1 -1\n2 10 0 -5 4 -1 -1 4 100 -1 1 1 1 -1 1 -1 -1 -1\n";

/** The same two jobs, both valid. */
const GOOD_DATA = BAD_DATA.replace(" -5 ", " 5 ");

/** Every command that reads a trace, as a function of the trace's path and a scratch folder. */
const READERS: readonly (readonly [
  command: string,
  args: (trace: string, dir: string) => string[],
])[] = [
  ["run", (t) => ["run", "-w", t, "--procs", "8"]],
  ["inspect", (t) => ["inspect", t]],
  ["convert", (t, d) => ["convert", t, "--out", join(d, "out.jsonl")]],
  ["convert", (t, d) => ["convert", t, "--out", join(d, "out.swf")]],
];

describe("a trace's data error names the command, as the command's other errors do", () => {
  it("an SWF record the conversion refuses: `sched-sim: COMMAND: FILE:LINE: …` in run, inspect and convert", async () => {
    const dir = await tempDir();
    const trace = join(dir, "bad.swf");
    await writeFile(trace, BAD_DATA);
    for (const [command, args] of READERS) {
      const r = await cli(...args(trace, dir));
      expect(r.code, args(trace, dir).join(" ")).toBe(1);
      expect(r.stderr).toBe(
        `sched-sim: ${command}: ${trace}:3: (job 2) run time (field 4) is -5, expected > 0 (or give --clean to drop such jobs)\n`,
      );
    }
  });

  it("a field that is not a number, and a native job line the reader refuses, likewise", async () => {
    const dir = await tempDir();
    const malformed = fixture("malformed.swf");
    const jsonl = join(dir, "bad.jsonl");
    await writeFile(jsonl, '{"id":1,"submit":0,"runTime":5,"cores":1}\n');
    for (const [command, args] of READERS) {
      const r = await cli(...args(malformed, dir));
      expect(r.stderr).toBe(
        `sched-sim: ${command}: ${malformed}:5 run time (field 4): "3x0" is not a number\n`,
      );
    }
    for (const [command, args] of READERS) {
      if (args(jsonl, dir).includes(join(dir, "out.jsonl"))) continue; // jsonl to jsonl: no conversion
      const r = await cli(...args(jsonl, dir));
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(
        new RegExp(
          `^sched-sim: ${command}: ${jsonl.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}:1 runTime: is not a job field`,
        ),
      );
    }
  });

  it("a sweep's failed run says `sweep:` before the file, as its other read errors do", async () => {
    const dir = await tempDir();
    const trace = join(dir, "bad.swf");
    await writeFile(trace, BAD_DATA);
    const file = await writeExperiment({
      name: "bad",
      workload: { type: "swf", path: trace },
      platform: { procs: 8 },
      schedulers: ["fcfs"],
      seeds: 1,
    });
    const r = await cli("sweep", file, "--out", join(dir, "out"), "--quiet");
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      new RegExp(
        `\\n  fcfs\\.s1-[0-9a-f]{8}: sweep: ${trace}:3: \\(job 2\\) run time \\(field 4\\) is -5, expected > 0 \\(or set "clean": true in "workload" to drop such jobs\\)\\n`,
      ),
    );
  });

  it("report re-simulating a run of a trace changed since words it as report's, not sweep's", async () => {
    const dir = await tempDir();
    const trace = join(dir, "trace.swf");
    await writeFile(trace, GOOD_DATA);
    const file = await writeExperiment({
      name: "good",
      workload: { type: "swf", path: trace },
      platform: { procs: 8 },
      schedulers: ["fcfs"],
      seeds: 1,
    });
    const out = join(dir, "out");
    expect((await cli("sweep", file, "--out", out, "--quiet")).code).toBe(0);
    await writeFile(trace, BAD_DATA);
    // The report is still written, without its Gantt chart, and says why.
    const r = await cli("report", out, "--out", join(dir, "report.html"));
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      new RegExp(
        `^sched-sim: report: no Gantt chart for fcfs\\.s1-[0-9a-f]{8}: ${trace}:3: \\(job 2\\) run time \\(field 4\\) is -5, expected > 0`,
      ),
    );
    expect(r.stderr).not.toContain("sweep:");
  });
});
