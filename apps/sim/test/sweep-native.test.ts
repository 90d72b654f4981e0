import { copyFile, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { readExperimentFile } from "../src/sweep/experiment-file.js";
import { cli, fixture, tempDir } from "./helpers.js";

// An experiment file whose workload is a native JSON Lines file (what `gen` and `convert`
// write): loaded as `run -w FILE.jsonl [--platform P | --procs N]` takes it, its runs the same
// as `run`'s, `report` and `compare` on its directory, its mistakes said in the file's words.
// (Streamed runs against the whole-file path: test/sweep-streamed.test.ts.)

let dir: string;
/** An advance-reservation file (ready times, deadlines; header meta.procs 64). */
let ar: string;
/** A multicluster file and its platform file (heterogeneous speeds). */
let mc: string;
let mcPlatform: string;
/** An SWF excerpt (KTH-SP2, jobs up to 100 wide) and a platform file of 128 machines of 4 speeds. */
let kth: string;
let bigPlatform: string;

beforeAll(async () => {
  dir = await tempDir();
  ar = join(dir, "ar.jsonl");
  mc = join(dir, "mc.jsonl");
  mcPlatform = join(dir, "mc.json");
  kth = join(dir, "kth.swf");
  bigPlatform = join(dir, "big.json");
  await copyFile(fixture("kth-sp2-head.swf"), kth);
  for (const args of [
    [
      ...["multicluster", "--jobs", "1", "--clusters", "4", "--processorsPerCluster", "32"],
      ...["--speeds", "heterogeneous", "--out", join(dir, "big.jsonl"), "--platform", bigPlatform],
    ],
    ["advance-reservation", "--jobs", "120", "--procs", "64", "--out", ar],
    [
      ...["multicluster", "--jobs", "120", "--load", "3", "--speeds", "heterogeneous"],
      ...["--out", mc, "--platform", mcPlatform],
    ],
  ]) {
    const r = await cli("gen", ...args);
    expect(r.code, r.stderr).toBe(0);
  }
}, 30_000);

/** Writes `doc` as `NAME.json` in the directory of the workloads (so relative paths work). */
async function experiment(doc: unknown, name = "exp"): Promise<string> {
  const file = join(dir, `${name}.json`);
  await writeFile(file, typeof doc === "string" ? doc : JSON.stringify(doc));
  return file;
}

/** A run's record as `sweep` writes it: metrics, events, decisions. */
async function runFiles(out: string): Promise<Map<string, Record<string, unknown>>> {
  const records = new Map<string, Record<string, unknown>>();
  for (const f of await readdir(join(out, "runs"))) {
    const r = JSON.parse(await readFile(join(out, "runs", f), "utf8")) as Record<string, unknown>;
    records.set(r.scheduler as string, r);
  }
  return records;
}

describe("sweep: a native workload in an experiment file", () => {
  it("loads a path and a platform file relative to the experiment file, or platform.procs", async () => {
    const onFile = await readExperimentFile(
      await experiment({
        name: "mc",
        workload: { type: "native", path: "mc.jsonl" },
        platform: "mc.json",
        schedulers: ["easy"],
      }),
    );
    expect(onFile.source).toEqual({
      kind: "file",
      workload: { type: "native", path: mc, platform: mcPlatform },
    });
    const onProcs = await readExperimentFile(
      await experiment({
        name: "ar",
        workload: { type: "native", path: "ar.jsonl" },
        platform: { procs: 32 },
        grid: { procs: [16, 64] },
        schedulers: ["easy"],
      }),
    );
    expect(onProcs.source).toEqual({
      kind: "file",
      workload: { type: "native", path: ar, procs: 32 },
    });
    expect(onProcs.points).toEqual([[16], [64]]);
  });

  it("gives the same metrics, events and decisions as `sched-sim run` on the same file, scheduler and platform", async () => {
    const cases = [
      { workload: "ar.jsonl", platform: undefined, run: ["-w", ar] },
      { workload: "mc.jsonl", platform: "mc.json", run: ["-w", mc, "--platform", mcPlatform] },
      // an SWF trace on a platform file, as run --platform takes it too
      { workload: "kth.swf", platform: "big.json", run: ["-w", kth, "--platform", bigPlatform] },
    ];
    for (const c of cases) {
      const schedulers = ["easy", "conservative", "edf"];
      const file = await experiment({
        name: "same",
        workload: { type: c.workload.endsWith(".swf") ? "swf" : "native", path: c.workload },
        ...(c.platform === undefined ? {} : { platform: c.platform }),
        schedulers,
      });
      const out = await tempDir();
      const sweep = await cli("sweep", file, "--out", out, "--quiet");
      expect(sweep.code, sweep.stderr).toBe(0);
      const records = await runFiles(out);
      for (const s of schedulers) {
        const run = await cli("run", ...c.run, "-s", s, "--format", "json");
        expect(run.code, run.stderr).toBe(0);
        const { run: _about, licenseUsageByName: _byName, ...json } = JSON.parse(run.stdout);
        const record = records.get(s) as { metrics: object; events: number; decisions: number };
        expect(
          { ...record.metrics, events: record.events, decisions: record.decisions },
          `${c.workload} ${s}`,
        ).toEqual(json);
      }
    }
  }, 30_000);

  it("report and compare work on its results directory (report re-simulates a run)", async () => {
    const file = await experiment({
      name: "mcp",
      workload: { type: "native", path: "mc.jsonl" },
      platform: { procs: 64 },
      grid: { procs: [16, 64] },
      schedulers: ["fcfs", "conservative"],
    });
    const out = await tempDir();
    expect((await cli("sweep", file, "--out", out, "--quiet")).code).toBe(0);
    const report = await cli("report", out);
    expect(report.code, report.stderr).toBe(0);
    const html = await readFile(join(out, "report.html"), "utf8");
    // The first run, simulated again from the file (execute.ts), drawn, checked against its record.
    expect(html).toContain('<rect class="bar"');
    expect(html).toContain("its metrics equal the stored result");
    const compare = await cli("compare", out, "--format", "csv");
    expect(compare.code, compare.stderr).toBe(0);
    expect(compare.stdout.split("\n").filter((l) => l !== "").length).toBeGreaterThan(4);
  }, 30_000);

  it("a bad line of the file fails each run naming the file and the line (exit 1)", async () => {
    const lines = (await readFile(ar, "utf8")).split("\n");
    lines.splice(3, 0, '{"id":999,"submit":5,"runtime":60,"cores":0}');
    await writeFile(join(dir, "bad.jsonl"), lines.join("\n"));
    const file = await experiment({
      name: "bad",
      workload: { type: "native", path: "bad.jsonl" },
      schedulers: ["easy", "edf"],
    });
    const r = await cli("sweep", file, "--out", await tempDir(), "--quiet");
    expect(r.code).toBe(1);
    const said = `: sweep: ${join(dir, "bad.jsonl")}:4 cores: is 0, expected an integer >= 1`;
    const failed = r.stderr.split("\n").filter((l) => l.endsWith(said));
    expect(failed.map((l) => l.trim().split(".")[0]).sort(), r.stderr).toEqual(["easy", "edf"]);
  });

  it("the README's example prints what the README shows", async () => {
    const readme = await readFile(join(import.meta.dirname, "..", "README.md"), "utf8");
    const doc = /```json\n(\{\n {2}"name": "ar",[^`]*)```/.exec(readme)?.[1];
    expect(doc).toBeDefined();
    const shown =
      /```text\n\$ sched-sim gen (advance-reservation [^\n]*)\n\$ sched-sim sweep ar\.json --out results\/ar --quiet\n\$ sched-sim compare results\/ar\n([^`]*)```/.exec(
        readme,
      );
    expect(shown).not.toBeNull();
    const [, genArgs, output] = shown as RegExpExecArray;
    const here = await tempDir();
    const gen = await cli(
      "gen",
      ...(genArgs as string).replace("ar.jsonl", join(here, "ar.jsonl")).split(" "),
    );
    expect(gen.code, gen.stderr).toBe(0);
    await writeFile(join(here, "ar.json"), doc as string);
    const out = join(here, "results", "ar");
    const sweep = await cli("sweep", join(here, "ar.json"), "--out", out, "--quiet");
    expect(sweep.code, sweep.stderr).toBe(0);
    const compare = await cli("compare", out);
    expect(compare.code, compare.stderr).toBe(0);
    expect(compare.stdout).toBe(output);
  }, 30_000);

  it("a file without a job line is refused before any run (exit 1, as run refuses it)", async () => {
    const empty = join(dir, "empty.jsonl");
    await writeFile(empty, '{"format":"@sched/jobs","version":1,"meta":{"procs":8}}\n\n');
    const file = await experiment({
      name: "empty",
      workload: { type: "native", path: "empty.jsonl" },
      schedulers: ["easy"],
    });
    const out = await tempDir();
    const r = await cli("sweep", file, "--out", out);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`sched-sim: sweep: ${empty}: holds no jobs (no job line)\n`);
    expect(await readdir(out)).toEqual([]);
  });

  const mistakes: [string, Record<string, unknown>, string][] = [
    [
      "a missing file",
      { workload: { type: "native", path: "nope.jsonl" } },
      `workload.path: cannot read ${"DIR"}/nope.jsonl: no such file or directory`,
    ],
    [
      "a platform file that is not valid JSON",
      { workload: { type: "native", path: "mc.jsonl" }, platform: "broken.json" },
      `platform: ${"DIR"}/broken.json:2:1: is not valid JSON (Unexpected end of JSON input)`,
    ],
    [
      "a platform file that is not a platform",
      { workload: { type: "native", path: "mc.jsonl" }, platform: "ar.jsonl" },
      `platform: ${"DIR"}/ar.jsonl:`,
    ],
    [
      "a missing platform file",
      { workload: { type: "native", path: "mc.jsonl" }, platform: "nope.json" },
      `platform: cannot read ${"DIR"}/nope.json: no such file or directory`,
    ],
    [
      "an unknown workload key",
      { workload: { type: "native", path: "mc.jsonl", clean: true } },
      "workload.clean: unknown key; expected one of type, path",
    ],
    [
      "an unknown platform key",
      { workload: { type: "native", path: "mc.jsonl" }, platform: { proc: 4 } },
      "platform.proc: unknown key (did you mean procs?); expected one of procs",
    ],
    [
      "no platform: no file, no procs, no meta.procs in the header",
      { workload: { type: "native", path: "headless.jsonl" } },
      `platform: ${"DIR"}/headless.jsonl has no header line with meta.procs; give "platform": "FILE" (the machines, as gen --platform writes them) or {"procs": N}`,
    ],
    [
      "a header's meta.procs above the limit, and no platform",
      { workload: { type: "native", path: "huge.jsonl" } },
      `platform: the header of ${"DIR"}/huge.jsonl gives meta.procs 2000000, above the 1000000 processors a simulated machine may have; give "platform": {"procs": N}`,
    ],
    [
      "a grid of procs with a platform file",
      {
        workload: { type: "native", path: "mc.jsonl" },
        platform: "mc.json",
        grid: { procs: [8, 16] },
      },
      'grid.procs: not a parameter when "platform" is a platform file (its machines are fixed)',
    ],
    [
      "a platform file for a synthetic workload",
      { workload: { type: "synthetic" }, platform: "mc.json" },
      'platform: expected an object like {"procs": 128} (a platform file is for workload types swf and native), got "mc.json"',
    ],
    [
      "a grid of procs with a platform file, for an SWF trace",
      {
        workload: { type: "swf", path: "kth.swf" },
        platform: "mc.json",
        grid: { procs: [8, 16] },
      },
      'grid.procs: not a parameter when "platform" is a platform file (its machines are fixed)',
    ],
    [
      "an SWF trace given as native",
      { workload: { type: "native", path: "trace.swf.gz" } },
      'workload.path: expected a native JSON Lines workload; this name is an SWF trace\'s: give "type": "swf", got "trace.swf.gz"',
    ],
    [
      "a native file given as SWF",
      { workload: { type: "swf", path: "mc.jsonl" } },
      'workload.path: expected an SWF trace; this name is a native JSON Lines workload\'s: give "type": "native", got "mc.jsonl"',
    ],
    [
      "a platform of the wrong type",
      { workload: { type: "native", path: "mc.jsonl" }, platform: 64 },
      'platform: expected a platform file (what gen --platform writes) or an object like {"procs": 128}, got 64',
    ],
  ];
  for (const [what, doc, message] of mistakes) {
    it(`${what}: one line, exit 2, naming the key`, async () => {
      await writeFile(join(dir, "broken.json"), '{"machines": [\n');
      const lines = (await readFile(ar, "utf8")).split("\n");
      await writeFile(join(dir, "headless.jsonl"), lines.slice(1).join("\n"));
      const huge = '{"format":"@sched/jobs","version":1,"meta":{"procs":2000000}}';
      await writeFile(join(dir, "huge.jsonl"), [huge, ...lines.slice(1)].join("\n"));
      const file = await experiment({ name: "x", schedulers: ["easy"], ...doc }, "mistake");
      const r = await cli("sweep", file, "--out", await tempDir());
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr.startsWith(`sched-sim: sweep: ${file}: `), r.stderr).toBe(true);
      expect(r.stderr).toContain(message.replace("DIR", dir));
      expect(r.stderr.split("\n").length).toBe(2);
    });
  }
});
