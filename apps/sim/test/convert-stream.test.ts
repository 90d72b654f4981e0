import { existsSync } from "node:fs";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import type { Job } from "@sched/core";
import { arbJobs, arbPlatform } from "@sched/core/testing";
import { formatJobsJsonl } from "@sched/workload";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cli, fixture, tempDir } from "./helpers.js";

/**
 * `convert … --out FILE` (SWF and native, streamed in two passes) against the reference: the
 * same conversion to stdout, which takes the whole-trace path (read every job, `jobsToSwf` or
 * `formatJobsJsonl` into one string), unchanged from before streaming. Same bytes, same exit
 * code, same stderr but for the final `wrote …` line.
 */
async function expectSameAsWhole(input: string, args: readonly string[]): Promise<string> {
  const dir = await tempDir();
  const to = args[args.indexOf("--to") + 1] as string;
  const out = join(dir, `out.${to === "swf" ? "swf" : "jsonl"}`);
  const whole = await cli("convert", input, ...args);
  const streamed = await cli("convert", input, ...args, "--out", out);
  expect(streamed.code, streamed.stderr).toBe(whole.code);
  if (whole.code !== 0) {
    // the error, in the same words; nothing written
    expect(streamed.stderr).toBe(whole.stderr);
    expect(await readdir(dir)).toEqual([]);
    return whole.stderr;
  }
  expect(await readFile(out, "utf8")).toBe(whole.stdout);
  expect(streamed.stderr).toBe(
    `${whole.stderr}wrote ${jobCount(whole.stdout, to)} jobs to ${out} (${to})\n`,
  );
  // no temporary file left beside the output
  expect(await readdir(dir)).toEqual([`out.${to === "swf" ? "swf" : "jsonl"}`]);
  return whole.stdout;
}

function jobCount(text: string, to: string): number {
  const lines = text.split("\n").filter((l) => l.trim() !== "");
  return to === "swf" ? lines.filter((l) => !l.startsWith(";")).length : lines.length - 1;
}

/** A native file of jobs with fields SWF cannot hold (deadline, licenses, ready, priority). */
const LOSSY: Job[] = [
  { id: 1, submit: 0, runtime: 10, estimate: 20, cores: 2, user: 3 },
  { id: 2, submit: 5, runtime: 10, estimate: 10, cores: 4, deadline: 100 },
  { id: 3, submit: 5, runtime: 7, estimate: 9, cores: 1, licenses: { matlab: 1 }, ready: 8 },
  { id: 4, submit: 9, runtime: 1, estimate: 1, cores: 3, priority: 2, queue: 1 },
];

describe("convert streams SWF and native input to SWF and native files, byte for byte", () => {
  const swfCases: [string, string[]][] = [
    ["small.swf", ["--to", "swf", "--clean"]],
    ["small.swf", ["--to", "native", "--clean", "--estimate", "runtime"]],
    ["small.swf", ["--to", "swf", "--clean", "--procs", "3"]],
    ["kth-sp2-head.swf", ["--to", "swf"]],
    ["kth-sp2-head.swf", ["--to", "swf", "--procs", "1000"]],
    ["kth-sp2-head.swf", ["--to", "swf", "--clean"]],
    ["kth-sp2-head.swf", ["--to", "native", "--from", "swf"]],
    ["nasa-ipsc-head.swf.gz", ["--to", "swf", "--clean", "--estimate", "runtime"]],
    ["nasa-ipsc-head.swf.gz", ["--to", "native", "--clean", "--estimate", "runtime"]],
    ["no-size.swf", ["--to", "swf"]],
  ];
  for (const [name, args] of swfCases) {
    it(`${name} ${args.join(" ")}`, async () => {
      await expectSameAsWhole(fixture(name), args);
    });
  }

  it("native input with fields SWF cannot hold: the header note and the stderr note", async () => {
    const dir = await tempDir();
    const path = join(dir, "lossy.jsonl");
    await writeFile(path, formatJobsJsonl(LOSSY, { procs: 6 }));
    const swf = await expectSameAsWhole(path, ["--to", "swf"]);
    expect(swf).toContain(
      "; Note: 3 of 4 jobs had fields SWF cannot hold, dropped: deadline, ready, licenses, priority\n",
    );
    expect(swf).toMatch(/^; MaxProcs: 6$/m);
    await expectSameAsWhole(path, ["--to", "native"]);
    await expectSameAsWhole(path, ["--to", "swf", "--procs", "2"]);
  });

  it("gzip native input, and input not sorted by submit time (kept in file order)", async () => {
    const dir = await tempDir();
    const path = join(dir, "lossy.jsonl.gz");
    const unsorted = [...LOSSY].reverse();
    await writeFile(path, gzipSync(formatJobsJsonl(unsorted)));
    const native = await expectSameAsWhole(path, ["--to", "native", "--from", "native"]);
    expect(native.split("\n")[1]).toContain('"id":4');
    await expectSameAsWhole(path, ["--to", "swf", "--from", "native"]);
    const swfPath = join(dir, "unsorted.swf");
    const text = await readFile(fixture("small.swf"), "utf8");
    const lines = text.split("\n");
    const data = lines.filter((l) => /^\s*\d/.test(l)).reverse();
    await writeFile(
      swfPath,
      [...lines.filter((l) => !/^\s*\d/.test(l) && l !== ""), ...data, ""].join("\n"),
    );
    const swf = await expectSameAsWhole(swfPath, ["--to", "swf", "--clean"]);
    expect(swf.split("\n").filter((l) => /^\s*\d/.test(l))[0]).toMatch(/^\s*7\s/);
    await expectSameAsWhole(swfPath, ["--to", "native"]);
  });

  it("errors are unchanged: file:line of a bad line, an empty trace, a missing file", async () => {
    // small.swf has a run time of 0: refused without --clean
    expect(await expectSameAsWhole(fixture("small.swf"), ["--to", "native"])).toContain(
      "small.swf:",
    );
    const bad = await expectSameAsWhole(fixture("malformed.swf"), ["--to", "swf"]);
    expect(bad).toContain("malformed.swf:5");
    const dir = await tempDir();
    const badJson = join(dir, "bad.jsonl");
    await writeFile(badJson, `${formatJobsJsonl(LOSSY)}{"id": 9, "submit": -1}\n`);
    expect(await expectSameAsWhole(badJson, ["--to", "native"])).toContain("bad.jsonl:6");
    const dropped = join(dir, "dropped.swf");
    await writeFile(dropped, "1 0 -1 0 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1\n");
    expect(await expectSameAsWhole(dropped, ["--to", "swf", "--clean"])).toContain(
      "holds no jobs after the clean-up",
    );
    expect(await expectSameAsWhole(join(dir, "none.swf"), ["--to", "swf"])).toContain("none.swf");
  });

  it("the output is written atomically: an existing file stays whole when the input is bad", async () => {
    const dir = await tempDir();
    const out = join(dir, "keep.swf");
    await writeFile(out, "old\n");
    const r = await cli("convert", fixture("malformed.swf"), "--to", "swf", "--out", out);
    expect(r.code).toBe(1);
    expect(await readFile(out, "utf8")).toBe("old\n");
    expect(existsSync(out)).toBe(true);
  });

  it("property: random native workloads, both output formats", async () => {
    const dir = await tempDir();
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        arbPlatform({ maxMachines: 3 }).chain((p) => arbJobs(p, { maxJobs: 12 })),
        fc.boolean(),
        fc.option(fc.integer({ min: 1, max: 64 }), { nil: undefined }),
        async (jobs, shuffle, procs) => {
          const path = join(dir, `w${n++}.jsonl`);
          await writeFile(path, formatJobsJsonl(shuffle ? [...jobs].reverse() : jobs));
          const extra = procs === undefined ? [] : ["--procs", String(procs)];
          await expectSameAsWhole(path, ["--to", "swf", ...extra]);
          await expectSameAsWhole(path, ["--to", "native", ...extra]);
        },
      ),
      { numRuns: 30, seed: 22 },
    );
  });
});
