import { existsSync, utimesSync, writeFileSync } from "node:fs";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { gzipSync } from "node:zlib";
import type { Job } from "@sched/core";
import { arbJobs, arbPlatform } from "@sched/core/testing";
import { formatJobsJsonl } from "@sched/workload";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { convertWhole } from "../src/commands/convert.js";
import {
  type Conversion,
  type ConvertFormat,
  type StreamConversion,
  streamConvert,
} from "../src/commands/convert-stream.js";
import { main } from "../src/main.js";
import { reportError } from "../src/run-command.js";
import { VERSION } from "../src/version.js";
import { type CliResult, cli, fixture, tempDir } from "./helpers.js";

/** The {@link Conversion} of `convert input args…` (the options these tests use). */
function conversion(input: string, args: readonly string[], out: string | undefined): Conversion {
  const value = (name: string) => {
    const i = args.indexOf(name);
    return i < 0 ? undefined : (args[i + 1] as string);
  };
  const from = (value("--from") ??
    (/\.swf(\.gz)?$/.test(input) ? "swf" : "native")) as ConvertFormat;
  const procs = value("--procs");
  return {
    input,
    from,
    to: value("--to") as ConvertFormat,
    out,
    procs: procs === undefined ? undefined : Number(procs),
    clean: args.includes("--clean"),
    estimate: (value("--estimate") ?? "requested") as "requested" | "runtime",
    commandOptions: ["to", "from", "out", "procs", "clean", "estimate"],
    meta: { source: basename(input), sourceFormat: from, convertedBy: `sched-sim ${VERSION}` },
  };
}

/** The reference: `convertWhole` (every job read, the output built whole), as main reports it. */
async function whole(c: Conversion): Promise<CliResult> {
  let stdout = "";
  let stderr = "";
  const io = {
    stdout: (t: string) => {
      stdout += t;
    },
    stderr: (t: string) => {
      stderr += t;
    },
  };
  let code = 0;
  try {
    await convertWhole(c, io);
  } catch (error) {
    code = reportError(error, io, false);
  }
  return { code, stdout, stderr };
}

/**
 * `convert …` to stdout and `convert … --out FILE` (SWF and native, streamed in two passes, or
 * one for native into a file) against the reference, the whole-trace path (`convertWhole`: read
 * every job, `jobsToSwf` or `formatJobsJsonl` into one string), unchanged from before streaming.
 * Same bytes, same exit code, same stderr.
 */
async function expectSameAsWhole(input: string, args: readonly string[]): Promise<string> {
  const dir = await tempDir();
  const to = args[args.indexOf("--to") + 1] as string;
  const name = `out.${to === "swf" ? "swf" : to === "batsim" ? "json" : "jsonl"}`;
  const out = join(dir, name);
  const ref = await whole(conversion(input, args, undefined));
  const toStdout = await cli("convert", input, ...args);
  const streamed = await cli("convert", input, ...args, "--out", out);
  expect(toStdout.code, toStdout.stderr).toBe(ref.code);
  expect(toStdout.stderr).toBe(ref.stderr);
  expect(toStdout.stdout).toBe(ref.stdout);
  expect(streamed.code, streamed.stderr).toBe(ref.code);
  if (ref.code !== 0) {
    // the error, in the same words; nothing written
    expect(streamed.stderr).toBe(ref.stderr);
    expect(await readdir(dir)).toEqual([]);
    return ref.stderr;
  }
  const refOut = join(await tempDir(), name);
  const refFile = await whole(conversion(input, args, refOut));
  expect(await readFile(out, "utf8")).toBe(ref.stdout);
  expect(await readFile(refOut, "utf8")).toBe(ref.stdout);
  expect(streamed.stderr).toBe(refFile.stderr.replace(refOut, out));
  expect(streamed.stderr).toContain(`wrote ${jobCount(ref.stdout, to)} jobs to ${out} (${to})\n`);
  // no temporary file left beside the output
  expect(await readdir(dir)).toEqual([name]);
  return ref.stdout;
}

function jobCount(text: string, to: string): number {
  if (to === "batsim") return (JSON.parse(text) as { jobs: unknown[] }).jobs.length;
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

describe("convert streams SWF and native input to SWF, native and Batsim, files and stdout, byte for byte", () => {
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
    ["small.swf", ["--to", "batsim", "--clean"]],
    ["small.swf", ["--to", "batsim"]],
    ["kth-sp2-head.swf", ["--to", "batsim"]],
    ["kth-sp2-head.swf", ["--to", "batsim", "--procs", "1000", "--estimate", "runtime"]],
    ["nasa-ipsc-head.swf.gz", ["--to", "batsim", "--clean"]],
    ["no-size.swf", ["--to", "batsim"]],
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

  it("to stdout, a trace larger than a chunk is written a chunk at a time, as the whole path writes it", async () => {
    const dir = await tempDir();
    const path = join(dir, "big.jsonl");
    const jobs: Job[] = Array.from({ length: 15_000 }, (_, i) => ({
      id: i,
      submit: i * 3,
      runtime: 100 + (i % 7),
      estimate: 200,
      cores: 1 + (i % 5),
      licenses: { "lic-é": 1 + (i % 2) },
    }));
    await writeFile(path, formatJobsJsonl(jobs));
    for (const to of ["swf", "native", "batsim"]) {
      const chunks: string[] = [];
      let stderr = "";
      const code = await main(["convert", path, "--to", to], {
        stdout: (t) => {
          chunks.push(t);
        },
        stderr: (t) => {
          stderr += t;
        },
      });
      const ref = await whole(conversion(path, ["--to", to], undefined));
      expect(code).toBe(0);
      expect(ref.stdout.length).toBeGreaterThan(1 << 20);
      expect(chunks.length).toBeGreaterThan(1);
      expect(chunks.join("")).toBe(ref.stdout);
      expect(stderr).toBe(ref.stderr);
    }
  });

  it("a file changed between the two passes is an error naming it, never a silent mix", async () => {
    const dir = await tempDir();
    const path = join(dir, "moving.jsonl");
    // LOSSY has fields SWF drops: their note goes to stderr after the first pass, before the
    // second, which is when the file is rewritten here.
    for (const [changed, detail] of [
      [formatJobsJsonl(LOSSY.slice(0, 3)), "4 jobs, then 3"],
      [`${formatJobsJsonl(LOSSY.slice(0, 2))}{"id": 3,\n`, "a line after job 2 is no longer JSON"],
      // The same jobs, one run time edited: every line still parses and the count holds.
      [
        formatJobsJsonl(LOSSY.map((j, i) => (i === 1 ? { ...j, runtime: j.runtime + 1 } : j))),
        "its size, modification time or inode changed",
      ],
    ] as const) {
      await writeFile(path, formatJobsJsonl(LOSSY));
      let stdout = "";
      const io = {
        stdout: (t: string) => {
          stdout += t;
        },
        stderr: (t: string) => {
          if (t.startsWith("note:")) {
            writeFileSync(path, changed);
            // File times tick coarsely (a few ms): an editor's save a tick later moves it.
            utimesSync(path, new Date(86_400_000), new Date(86_400_000));
          }
        },
      };
      for (const to of ["swf", "batsim"] as const) {
        await writeFile(path, formatJobsJsonl(LOSSY));
        const c = { ...conversion(path, ["--to", to], undefined), to } as StreamConversion;
        await expect(streamConvert(c, io)).rejects.toThrow(
          `convert: ${path}: changed while it was converted (read twice: ${detail}); convert it again`,
        );
        // A trace shorter than a chunk: nothing went out before the error.
        expect(stdout).toBe("");
      }
    }
  });

  it("property: random native workloads, every output format", async () => {
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
          await expectSameAsWhole(path, ["--to", "batsim", ...extra]);
        },
      ),
      { numRuns: 30, seed: 22 },
    );
  });
});
