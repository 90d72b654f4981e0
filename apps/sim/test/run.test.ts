import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { cli, fixture, tempDir, withoutRequestedTimes } from "./helpers.js";

const SMALL = fixture("small.swf");

// FCFS on small.swf after the clean-up, worked by hand (see test/fixtures/README.md).
const EXPECTED_JOBS_CSV = [
  "id,submit,start,end,wait,runtime,estimate,procs,status,preemptions,reason",
  "1,0,0,100,0,100,200,4,completed,0,",
  "2,10,10,60,0,50,100,4,completed,0,",
  "3,20,60,90,40,30,60,2,completed,0,",
  "4,30,60,70,30,10,20,1,completed,0,",
  "5,40,100,120,60,20,40,8,completed,0,",
  "7,60,120,180,60,60,60,2,completed,0,",
  "",
].join("\n");

describe("sched-sim run", () => {
  it("runs FCFS on an SWF file and writes jobs.csv, metrics.json and timing.json", async () => {
    const out = join(await tempDir(), "out");
    const r = await cli("run", "--scheduler", "fcfs", "--workload", SMALL, "--clean", "--out", out);
    expect(r.stderr).not.toMatch(/error/i);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`${SMALL}: 6 jobs on 8 processors`);
    expect(r.stdout).toMatch(/policy\s+jobs\s+mean wait/);
    expect(r.stdout).toMatch(/fcfs\s+6\s+31\.7\s+2\.39/);
    // The clean-up report goes to stderr.
    expect(r.stderr).toContain("7 records read, 6 jobs kept");
    expect(r.stderr).toMatch(/dropped, run time <= 0:\s+1 \(job 6\)/);
    expect(r.stderr).toMatch(/run time capped at requested:\s+1 \(job 7\)/);

    expect(await readFile(join(out, "jobs.csv"), "utf8")).toBe(EXPECTED_JOBS_CSV);
    const text = await readFile(join(out, "metrics.json"), "utf8");
    const metrics = JSON.parse(text) as Record<string, unknown>;
    expect(metrics.jobs).toBe(6);
    expect(metrics.meanWait).toBeCloseTo(190 / 6, 5);
    expect(metrics.meanBoundedSlowdown).toBeCloseTo((1 + 1 + 70 / 30 + 4 + 4 + 2) / 6, 5);
    expect(metrics.makespan).toBeGreaterThan(0);
    expect(metrics.utilization).toBeGreaterThan(0);
    expect(metrics.utilization).toBeLessThanOrEqual(1);
    expect(metrics.run).toMatchObject({
      scheduler: "fcfs",
      procs: 8,
      clean: true,
      workload: SMALL,
    });
    // the "wrote" line is off the table by a blank line when both streams share a file
    expect(r.stderr).toContain(`\n\nwrote ${join(out, "jobs.csv")}, ${join(out, "metrics.json")}`);
    // wall-clock measurements are beside it, never in it
    expect(metrics.timing).toBeUndefined();
    const timing = JSON.parse(await readFile(join(out, "timing.json"), "utf8")) as object;
    expect(Object.keys(timing)).toEqual(["schedulerMs", "schedulerMsPerDecision", "wallMs"]);
    // Keys sorted at the top level.
    const keys = Object.keys(metrics);
    expect(keys).toEqual([...keys].sort());
  });

  it("--format json prints metrics.json to stdout", async () => {
    const out = await tempDir();
    const r = await cli("run", "-w", SMALL, "--clean", "--format", "json", "-o", out);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("wrote ");
    expect(r.stderr).not.toContain("\n\nwrote "); // no table to keep it off
    expect(r.stdout).toBe(await readFile(join(out, "metrics.json"), "utf8"));
  });

  it("reads a gzipped trace like the plain one", async () => {
    const dir = await tempDir();
    const gz = join(dir, "small.swf.gz");
    await writeFile(gz, gzipSync(await readFile(SMALL)));
    const r = await cli("run", "-w", gz, "--clean", "-o", join(dir, "out"));
    expect(r.code).toBe(0);
    expect(await readFile(join(dir, "out", "jobs.csv"), "utf8")).toBe(EXPECTED_JOBS_CSV);
  });

  it("is deterministic: two runs write byte-identical jobs.csv and metrics.json (issue 23)", async () => {
    const a = await tempDir();
    const b = await tempDir();
    // the same workload given by the same path: metrics.json records the path as given
    expect((await cli("run", "-w", SMALL, "--clean", "-s", "easy", "-o", a)).code).toBe(0);
    expect((await cli("run", "-w", SMALL, "--clean", "-s", "easy", "-o", b)).code).toBe(0);
    expect(await readFile(join(a, "jobs.csv"))).toEqual(await readFile(join(b, "jobs.csv")));
    expect(await readFile(join(a, "metrics.json"))).toEqual(
      await readFile(join(b, "metrics.json")),
    );
    expect((await readdir(a)).sort()).toEqual(["jobs.csv", "metrics.json", "timing.json"]);
  });

  it("a malformed line exits 1 naming the file, the line and the field", async () => {
    const r = await cli("run", "-w", fixture("malformed.swf"));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^sched-sim: .*malformed\.swf:5 run time \(field 4\)/);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).not.toContain("    at ");
  });

  it("a corrupt gzip file exits 1 naming the file", async () => {
    const dir = await tempDir();
    const gz = join(dir, "broken.swf.gz");
    const whole = gzipSync(await readFile(SMALL));
    await writeFile(gz, whole.subarray(0, whole.length - 20));
    const r = await cli("run", "-w", gz, "--clean");
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `sched-sim: run: ${gz}: is not valid gzip data (unexpected end of file)\n`,
    );
  });

  it("--debug adds the stack trace of a failure", async () => {
    const r = await cli("run", "-w", fixture("malformed.swf"), "--debug");
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("    at ");
  });

  it("a trace without requested times, cleaned without --estimate runtime, exits 1 and says why", async () => {
    const dir = await tempDir();
    const noRequested = join(dir, "no-requested.swf");
    // small.swf with field 9 (requested time) unknown on every line, as in the NASA iPSC/860 log.
    await writeFile(noRequested, withoutRequestedTimes(await readFile(SMALL, "utf8")));
    const out = join(dir, "out");
    const r = await cli("run", "-w", noRequested, "--clean", "-o", out);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `sched-sim: run: ${noRequested}: holds no jobs after the clean-up: all 7 records were dropped (run time <= 0: 1, processors <= 0: 0, requested time <= 0: 6); for a trace without requested times (field 9) give --estimate runtime`,
    );
    expect(r.stderr).not.toContain("    at ");
    await expect(readdir(out)).rejects.toThrow();
    // With exact estimates the same trace runs.
    const ok = await cli("run", "-w", noRequested, "--clean", "--estimate", "runtime");
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain(`${noRequested}: 6 jobs on 8 processors`);
  });

  it("a job the conversion refuses (no run time, no --clean) exits 1 naming its file and line", async () => {
    const r = await cli("run", "-w", SMALL);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `sched-sim: run: ${SMALL}:10: (job 6) run time (field 4) is -1, expected > 0 (or give --clean to drop such jobs)\n`,
    );
  });

  it("a failing run leaves the files of an earlier run intact", async () => {
    const out = await tempDir();
    expect((await cli("run", "-w", SMALL, "--clean", "-o", out)).code).toBe(0);
    const before = [
      await readFile(join(out, "jobs.csv")),
      await readFile(join(out, "metrics.json")),
    ];
    const failed = await cli("run", "-w", fixture("malformed.swf"), "-o", out);
    expect(failed.code).toBe(1);
    expect(await readFile(join(out, "jobs.csv"))).toEqual(before[0]);
    expect(await readFile(join(out, "metrics.json"))).toEqual(before[1]);
  });

  it("a file that cannot be written exits 1 naming it, and leaves the other output untouched", async () => {
    const out = await tempDir();
    await mkdir(join(out, "jobs.csv"));
    await writeFile(join(out, "metrics.json"), "earlier\n");
    const r = await cli("run", "-w", SMALL, "--clean", "-o", out);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`cannot write ${join(out, "jobs.csv")}`);
    expect(await readFile(join(out, "metrics.json"), "utf8")).toBe("earlier\n");
    expect((await readdir(out)).sort()).toEqual(["jobs.csv", "metrics.json"]);
  });

  it("takes the machine size from --procs when the header has none, and asks for it otherwise", async () => {
    const missing = await cli("run", "-w", fixture("no-size.swf"));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("give the machine size with --procs N");
    const given = await cli("run", "-w", fixture("no-size.swf"), "--procs", "4");
    expect(given.code).toBe(0);
    expect(given.stdout).toMatch(/fcfs\s+1\s/);
  });

  it("takes the header's MaxProcs before its MaxNodes, up to 1,000,000 processors itself", async () => {
    const dir = await tempDir();
    const job = "1 0 -1 10 1 -1 -1 1 20 -1 1 1 1 -1 1 1 -1 -1";
    const run = async (name: string, header: string, ...args: string[]) => {
      const path = join(dir, `${name}.swf`);
      await writeFile(path, `${header}\n${job}\n`);
      const r = await cli("run", "-w", path, "--format", "json", ...args);
      return { ...r, procs: r.code === 0 ? JSON.parse(r.stdout).run.procs : undefined };
    };
    for (const engine of ["auto", "general"]) {
      const both = await run("both", "; MaxNodes: 2\n; MaxProcs: 8", "--engine", engine);
      expect(both.procs, both.stderr).toBe(8);
      const nodes = await run("nodes", "; MaxNodes: 2", "--engine", engine);
      expect(nodes.procs, nodes.stderr).toBe(2);
    }
    const limit = await run("limit", "; MaxProcs: 1000000");
    expect(limit.procs, limit.stderr).toBe(1000000);
    const over = await run("over", "; MaxProcs: 1000001");
    expect(over.code).toBe(1);
    expect(over.stderr).toContain("header MaxProcs: is 1000001, above the 1000000 processors");
  });

  it("prints the clean-up report to stderr only with --clean", async () => {
    const path = join(await tempDir(), "ok.swf");
    await writeFile(path, "; MaxProcs: 4\n1 0 -1 10 1 -1 -1 1 20 -1 1 1 1 -1 1 1 -1 -1\n");
    for (const engine of ["auto", "general"]) {
      const plain = await cli("run", "-w", path, "--engine", engine);
      expect(plain.code).toBe(0);
      expect(plain.stderr).toBe("");
      const cleaned = await cli("run", "-w", path, "--engine", engine, "--clean");
      expect(cleaned.stderr).toContain("clean-up: 1 records read, 1 jobs kept");
    }
  });

  it("a .json file as workload (a platform, a Batsim workload) exits 2 saying what to do", async () => {
    const dir = await tempDir();
    const json = join(dir, "w.json");
    await writeFile(json, '{"nb_res": 4, "jobs": []}\n');
    const r = await cli("run", "-w", json);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `run: option --workload ${json}: run reads SWF traces (.swf) and native JSON Lines workloads (.jsonl), not .json: a platform file goes to --platform; a Batsim workload, convert it first ('sched-sim convert ${json} --out FILE.jsonl')`,
    );
    expect(r.stderr).not.toContain("whitespace-separated fields");
  });

  it("bad usage exits 2 with a message naming the option", async () => {
    const cases: [string[], string][] = [
      [["run"], "option --workload FILE is required"],
      [
        ["run", "-w", "does-not-exist.swf"],
        "option --workload does-not-exist.swf: no such file or directory",
      ],
      [
        ["run", "-w", SMALL, "--procs", "0"],
        "option --procs must be a whole number from 1 to 1000000 (digits only), got '0'",
      ],
      [["run", "-w", SMALL, "--scheduler", "nope"], "option --scheduler: unknown scheduler 'nope'"],
      [
        ["run", SMALL],
        `run: unexpected argument '${SMALL}' (run takes no arguments; a file goes with --workload FILE or --platform FILE)`,
      ],
      [
        ["run", "-w", SMALL, "--scheduler", "easyy"],
        "option --scheduler: unknown scheduler 'easyy' (did you mean easy?); known: fcfs, easy,",
      ],
      [
        ["run", "-w", SMALL, "--opt", "nope=1"],
        "option --opt nope=1: scheduler 'fcfs' has no option 'nope'",
      ],
      [["run", "-w", SMALL, "--opt", "machineOrder=fast"], "expected one of index, speed"],
      [
        ["run", "-w", SMALL, "--format", "xml"],
        "option --format must be one of table, json, got 'xml'",
      ],
      [
        ["run", "-w", SMALL, "--out", SMALL],
        `option --out ${SMALL}: exists and is not a directory`,
      ],
    ];
    for (const [argv, message] of cases) {
      const r = await cli(...argv);
      expect(r.code, argv.join(" ")).toBe(2);
      expect(r.stderr).toContain(message);
      expect(r.stderr.startsWith("sched-sim: ")).toBe(true);
    }
  });

  it("EASY and conservative backfill job 7 into the hole before job 5 (worked by hand)", async () => {
    // After job 2 ends early at 60, jobs 3 and 4 start; job 5 (8 procs) waits for job 1 (est. end
    // 200). At 70 job 4 has ended: job 7 (2 procs, est. 60) ends by 130 < 200, so it backfills.
    // Job 1 really ends at 100, job 7 at 130: job 5 starts at 130.
    for (const scheduler of ["easy", "conservative", "backfill"]) {
      const out = await tempDir();
      const r = await cli("run", "-w", SMALL, "--clean", "-s", scheduler, "-o", out);
      expect(r.code, r.stderr).toBe(0);
      const rows = (await readFile(join(out, "jobs.csv"), "utf8")).trim().split("\n").slice(1);
      expect(rows.map((row) => row.split(",").slice(0, 3).join(","))).toEqual([
        "1,0,0",
        "2,10,10",
        "3,20,60",
        "4,30,60",
        "5,40,130",
        "7,60,70",
      ]);
      const metrics = JSON.parse(await readFile(join(out, "metrics.json"), "utf8"));
      expect(metrics.meanWait).toBeCloseTo(170 / 6, 5);
    }
  });

  it("accepts scheduler options given with --opt", async () => {
    const r = await cli("run", "-w", SMALL, "--clean", "--opt", "machineOrder=speed");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("fcfs(machineOrder=speed)");
  });
});
