import { execFileSync } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { formatJobsJsonl, parseSwf, summarizeJobs, swfToJobs } from "@sched/workload";
import { describe, expect, it } from "vitest";
import { type JsonValue, stableJson } from "../src/format.js";
import { cli, fixture, tempDir, withoutRequestedTimes } from "./helpers.js";

describe("sched-sim inspect", () => {
  it("summarizes small.swf after the clean-up (worked by hand)", async () => {
    const r = await cli("inspect", fixture("small.swf"), "--clean", "--json");
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout);
    // jobs 1-5 and 7 (job 6 dropped); job 7's run time capped at 60
    expect(doc.jobs).toBe(6);
    expect(doc.format).toBe("swf");
    expect(doc.gzip).toBe(false);
    expect([doc.firstSubmit, doc.lastSubmit, doc.span]).toEqual([0, 60, 60]);
    expect(doc.procs).toBe(8);
    expect(doc.procsFrom).toBe("header MaxProcs");
    // sizes 1, 2, 2, 4, 4, 8: nearest-rank quantiles
    expect(doc.cores).toEqual({ min: 1, q25: 2, median: 2, q75: 4, q90: 8, max: 8, mean: 3.5 });
    // run times 10, 20, 30, 50, 60, 100
    expect(doc.runtime).toEqual({
      min: 10,
      q25: 20,
      median: 30,
      q75: 60,
      q90: 100,
      max: 100,
      mean: 45,
    });
    // gaps 10, 10, 10, 10, 20
    expect(doc.interArrival).toEqual({
      min: 10,
      q25: 10,
      median: 10,
      q75: 10,
      q90: 20,
      max: 20,
      mean: 12,
    });
    // work 400 + 200 + 60 + 10 + 160 + 120 = 950 core-s; load 950 / (8 x 60)
    expect(doc.work).toBe(950);
    expect(doc.offeredLoad).toBeCloseTo(950 / 480, 6);
    expect(doc.serialFraction).toBeCloseTo(1 / 6, 6);
    expect(doc.powerOfTwoFraction).toBeCloseTo(5 / 6, 6);
  });

  it("prints a readable table; --procs overrides the header; gzip input is the same", async () => {
    const dir = await tempDir();
    const gz = join(dir, "small.swf.gz");
    await writeFile(gz, gzipSync(await readFile(fixture("small.swf"))));
    const r = await cli("inspect", gz, "--clean", "--procs", "16");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("SWF (gzip), 6 jobs");
    expect(r.stdout).toContain("16 processors (--procs)");
    expect(r.stdout).toContain(`offered load:  ${(950 / (16 * 60)).toFixed(3)}`);
    expect(r.stdout).toMatch(/size \(cores\)\s+1\s+2\s+2\s+4\s+8\s+8\s+3\.500/);
    const plain = await cli("inspect", fixture("small.swf"), "--clean", "--procs", "16");
    expect(plain.stdout.split("\n").slice(1)).toEqual(r.stdout.split("\n").slice(1));
  });

  it("reads the native format, procs from its header, deadlines counted; deterministic", async () => {
    const dir = await tempDir();
    const file = join(dir, "ar.jsonl");
    const g = await cli(
      "gen",
      "advance-reservation",
      "--jobs",
      "300",
      "--seed",
      "4",
      "--out",
      file,
    );
    expect(g.code, g.stderr).toBe(0);
    const a = await cli("inspect", file, "--json");
    expect(a.code, a.stderr).toBe(0);
    const doc = JSON.parse(a.stdout);
    expect(doc.format).toBe("jsonl");
    expect(doc.jobs).toBe(300);
    expect(doc.procs).toBe(1024);
    expect(doc.procsFrom).toBe("header meta.procs");
    // the native format carries each job's estimate: none is derived
    expect(doc.estimatesFrom).toBe("file");
    expect(doc.withDeadline).toBe(300);
    // LANL-CM5 sizes: powers of two from 32 to 1024
    expect(doc.cores.min).toBeGreaterThanOrEqual(32);
    expect(doc.powerOfTwoFraction).toBe(1);
    expect(doc.offeredLoad).toBeGreaterThan(0);
    const b = await cli("inspect", file, "--json");
    expect(b.stdout).toBe(a.stdout);
  });

  it("an SWF with no requested times (the Lublin model's jobs, field 9 = -1) uses the run times as estimates", async () => {
    const dir = await tempDir();
    const generated = join(dir, "gen.swf");
    expect(
      (await cli("gen", "lublin", "--jobs", "100", "--seed", "2", "--out", generated)).code,
    ).toBe(0);
    // gen writes the run time as the requested time; as the model itself has none, blank it.
    const asGenerated = JSON.parse((await cli("inspect", generated, "--json")).stdout);
    expect(asGenerated.estimatesFrom).toBe("requested");
    expect(asGenerated.estimate).toEqual(asGenerated.runtime);
    const file = join(dir, "l.swf");
    await writeFile(file, withoutRequestedTimes(await readFile(generated, "utf8")));
    const r = await cli("inspect", file, "--json");
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.estimatesFrom).toBe("runtime");
    expect(doc.estimate).toEqual(doc.runtime);
    expect(doc.procs).toBe(128);
    const text = await cli("inspect", file);
    expect(text.stdout).toContain("estimate (s) = run time");
    const strict = await cli("inspect", file, "--estimate", "requested");
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain(
      "(or give --clean to drop such jobs, or give --estimate runtime to use the run time as the estimate)",
    );
  });

  it("writes a span in seconds below 2 hours, in hours below 2 days, in days from 2 days on", async () => {
    const dir = await tempDir();
    const spanText = async (span: number) => {
      const file = join(dir, `span-${span}.swf`);
      const job = (id: number, submit: number) =>
        `${id} ${submit} -1 10 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1`;
      await writeFile(file, `; MaxProcs: 4\n${job(1, 0)}\n${job(2, span)}\n`);
      const r = await cli("inspect", file);
      expect(r.code, r.stderr).toBe(0);
      return /span \d+ s \(([^)]*)\)/.exec(r.stdout)?.[1];
    };
    expect(await spanText(5400)).toBe("5400 s");
    expect(await spanText(7199)).toBe("7199 s");
    expect(await spanText(7200)).toBe("2.0 h");
    expect(await spanText(172_799)).toBe("48.0 h");
    expect(await spanText(172_800)).toBe("2.0 days");
  });

  it("says which header field gave the machine size: MaxProcs, or MaxNodes when it has no MaxProcs", async () => {
    const dir = await tempDir();
    const from = async (header: string) => {
      const file = join(dir, `${header.length}.swf`);
      await writeFile(file, `${header}1 0 -1 10 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1\n`);
      const r = await cli("inspect", file, "--json");
      expect(r.code, r.stderr).toBe(0);
      const doc = JSON.parse(r.stdout);
      return [doc.procs, doc.procsFrom];
    };
    expect(await from("; MaxNodes: 16\n")).toEqual([16, "header MaxNodes"]);
    expect(await from("; MaxProcs: 8\n; MaxNodes: 16\n")).toEqual([8, "header MaxProcs"]);
    expect(await from("")).toEqual([null, "none"]);
  });

  it("errors: bad usage exits 2, a malformed or invalid trace exits 1, naming where", async () => {
    const dir = await tempDir();
    const empty = join(dir, "empty.swf");
    await writeFile(empty, "; MaxProcs: 4\n");
    const cases: [string[], number, string][] = [
      [["inspect"], 2, "missing argument <file>"],
      [["inspect", join(dir, "nope.swf")], 2, "cannot read"],
      [["inspect", fixture("README.md")], 2, "the format is chosen by the extension"],
      [
        ["inspect", fixture("small.swf"), "--procs", "0"],
        2,
        "option --procs must be a whole number from 1 to 1000000",
      ],
      [["inspect", fixture("small.swf"), "--estimate", "x"], 2, "option --estimate must be one of"],
      [["inspect", fixture("malformed.swf")], 1, "malformed.swf:5"],
      [["inspect", fixture("small.swf")], 1, "clean"],
      [["inspect", empty], 1, "holds no jobs"],
    ];
    for (const [argv, code, message] of cases) {
      const r = await cli(...argv);
      expect(r.code, argv.join(" ")).toBe(code);
      expect(r.stderr, argv.join(" ")).toContain(message);
    }
  });
});

describe("sched-sim inspect streams the trace (five numbers per job held, never the jobs)", () => {
  /** The --json figures `summarizeJobs` gives for the jobs held in memory. */
  const expected = (jobs: Parameters<typeof summarizeJobs>[0], procs: number) => {
    const s = summarizeJobs(jobs, { procs });
    const { jobs: count, firstSubmit, lastSubmit, span, work, offeredLoad } = s;
    return {
      jobs: count,
      firstSubmit,
      lastSubmit,
      span,
      work,
      offeredLoad,
      cores: s.cores,
      runtime: s.runtime,
      estimate: s.estimate,
      interArrival: s.interArrival,
    };
  };

  it("gives the figures of the whole trace read into memory (as --json prints them): SWF (plain, gzip) and JSON Lines", async () => {
    const text = await readFile(fixture("kth-sp2-head.swf"), "utf8");
    const jobs = swfToJobs(parseSwf(text).records, { clean: true }).jobs;
    const want = expected(jobs, 100);
    const dir = await tempDir();
    const gz = join(dir, "kth.swf.gz");
    await writeFile(gz, gzipSync(text));
    const native = join(dir, "kth.jsonl");
    await writeFile(native, formatJobsJsonl(jobs));
    for (const [file, flags] of [
      [fixture("kth-sp2-head.swf"), ["--clean"]],
      [gz, ["--clean"]],
      [native, []],
    ] as const) {
      const r = await cli("inspect", file, ...flags, "--procs", "100", "--json");
      expect(r.code, r.stderr).toBe(0);
      const doc = JSON.parse(r.stdout);
      // as --json writes numbers (rounded the same way)
      const printed = JSON.parse(stableJson(want as unknown as JsonValue));
      for (const [k, v] of Object.entries(printed)) expect(doc[k], `${file} ${k}`).toEqual(v);
    }
  });

  it("a named pipe is refused as not a file, without waiting for a writer", async () => {
    const fifo = join(await tempDir(), "pipe.swf");
    execFileSync("mkfifo", [fifo]);
    const r = await cli("inspect", fifo);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`'${fifo}' is not a file`);
  });
});
