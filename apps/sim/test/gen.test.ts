import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { formatSwf, parseJobsJsonl, parseSwf, swfToJobs, WORKLOAD_MODELS } from "@sched/workload";
import { describe, expect, it } from "vitest";
import { cli, tempDir } from "./helpers.js";

describe("sched-sim gen", () => {
  it("--list lists every model with its options and defaults", async () => {
    const r = await cli("gen", "--list");
    expect(r.code).toBe(0);
    for (const m of WORKLOAD_MODELS) {
      expect(r.stdout).toContain(`${m.name}: ${m.description}`);
      for (const o of m.options) expect(r.stdout).toContain(`--${o.name}`);
    }
    const one = await cli("gen", "--list", "elo");
    expect(one.code).toBe(0);
    expect(one.stdout).toContain("elo: ");
    expect(one.stdout).not.toContain("lublin: ");
    expect(one.stdout).toMatch(/--speedMflops\s+lo,hi\s+5,9/);
  });

  it("every model's SWF has the bytes of the string formatter (formatSwf) on what it holds", async () => {
    // gen writes through SwfWriter (bytes); formatSwf, which parseSwf inverts, is the reference.
    const dir = await tempDir();
    for (const m of WORKLOAD_MODELS) {
      for (const seed of ["1", "9"]) {
        const path = join(dir, `${m.name}-${seed}.swf`);
        const jobs = m.options.some((o) => o.name === "jobs") ? ["--jobs", "3000"] : [];
        const r = await cli("gen", m.name, ...jobs, "--seed", seed, "--out", path);
        expect(r.code, r.stderr).toBe(0);
        const text = await readFile(path, "utf8");
        const { header, records } = parseSwf(text);
        expect(records.length).toBeGreaterThan(0);
        expect(formatSwf(header, records) === text, `${m.name} seed ${seed}`).toBe(true);
      }
    }
  });

  it("lublin to SWF: header records the model and every parameter; same seed, same bytes", async () => {
    const dir = await tempDir();
    const a = join(dir, "a.swf");
    const b = join(dir, "b.swf");
    const argv = ["gen", "lublin", "--jobs", "500", "--procs", "256", "--seed", "1"];
    const r = await cli(...argv, "--out", a);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("500 jobs (lublin");
    expect((await cli(...argv, "--out", b)).code).toBe(0);
    const text = await readFile(a, "utf8");
    expect(await readFile(b, "utf8")).toBe(text);
    const trace = parseSwf(text);
    expect(trace.records).toHaveLength(500);
    expect(trace.header.maxProcs).toBe(256);
    const notes = trace.header.notes.join("\n");
    expect(notes).toContain("gen lublin");
    // given options unmarked, defaults starred; every option of the model appears
    expect(notes).toContain("jobs=500 ");
    expect(notes).toContain("procs=256 ");
    expect(notes).toContain("seed=1 ");
    expect(notes).toContain("arrivalFactor=1*");
    const lublin = WORKLOAD_MODELS.find((m) => m.name === "lublin");
    for (const o of lublin?.options ?? []) expect(notes).toContain(`${o.name}=`);
    // the model's own resolved parameters follow
    expect(notes).toContain("uMed=6");
    for (const rec of trace.records) expect(rec.allocatedProcs).toBeLessThanOrEqual(256);
    // a different seed gives a different file
    const c = join(dir, "c.swf");
    await cli("gen", "lublin", "--jobs", "500", "--procs", "256", "--seed", "2", "--out", c);
    expect(await readFile(c, "utf8")).not.toBe(text);
    // only the two targets, no temporaries
    expect((await readdir(dir)).sort()).toEqual(["a.swf", "b.swf", "c.swf"]);
  });

  it("lublin to SWF: 'run' reads the file as it is, and runs exactly the model's jobs", async () => {
    const dir = await tempDir();
    const file = join(dir, "l.swf");
    const argv = ["gen", "lublin", "--jobs", "300", "--procs", "64", "--seed", "4", "--out", file];
    expect((await cli(...argv)).code).toBe(0);
    const trace = parseSwf(await readFile(file, "utf8"));
    // Field 9 holds the run time (the model's estimate), and a note says so.
    for (const r of trace.records) expect(r.requestedTime).toBe(r.runTime);
    expect(trace.header.notes.join("\n")).toContain(
      "requested time (field 9) = run time for every job without one",
    );
    const model = WORKLOAD_MODELS.find((m) => m.name === "lublin");
    const jobs = model?.generate({ jobs: 300, procs: 64, seed: 4 }).jobs;
    expect(swfToJobs(trace.records).jobs).toEqual(jobs);
    const run = await cli("run", "--workload", file, "--format", "json");
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).jobs).toBe(300);
  });

  it("advance-reservation to JSON Lines keeps deadlines and ready times, and records every parameter", async () => {
    const dir = await tempDir();
    const out = join(dir, "ar.jsonl");
    const platform = join(dir, "ar.json");
    const argv = ["gen", "advance-reservation", "--jobs", "200", "--uMed", "5", "--seed", "3"];
    const r = await cli(...argv, "--out", out, "--platform", platform);
    expect(r.code, r.stderr).toBe(0);
    const text = await readFile(out, "utf8");
    const file = parseJobsJsonl(text);
    expect(file.jobs).toHaveLength(200);
    for (const j of file.jobs) {
      expect(j.deadline).toBeGreaterThanOrEqual((j.ready ?? j.submit) + j.runtime);
      expect(j.cores).toBeLessThanOrEqual(1024);
    }
    const meta = file.header.meta as Record<string, unknown>;
    expect(meta.model).toBe("advance-reservation");
    expect(meta.procs).toBe(1024);
    expect(meta.parameters).toEqual({
      jobs: "200",
      procs: "1024",
      uMed: "5",
      artimeFactor: "3",
      deadlineFactor: "3",
      arrivalFactor: "1",
      arrivals: "lanl-cm5-rate",
      runtimeMapping: "up",
      seed: "3",
    });
    expect(meta.defaults).toEqual([
      "procs",
      "artimeFactor",
      "deadlineFactor",
      "arrivalFactor",
      "arrivals",
      "runtimeMapping",
    ]);
    expect(JSON.parse(await readFile(platform, "utf8")).machines).toBeDefined();
    const again = join(dir, "again.jsonl");
    await cli(...argv, "--out", again);
    expect(await readFile(again, "utf8")).toBe(text);
  });

  it("a model whose jobs carry deadlines, written as SWF, says what SWF dropped", async () => {
    const dir = await tempDir();
    const out = join(dir, "farm.swf");
    const r = await cli("gen", "convergent", "--jobs", "50", "--seed", "1", "--out", out);
    expect(r.code, r.stderr).toBe(0);
    const trace = parseSwf(await readFile(out, "utf8"));
    expect(swfToJobs(trace.records).jobs).toHaveLength(50);
    const notes = trace.header.notes.join("\n");
    expect(notes).toContain("gen convergent");
    expect(notes).toMatch(/dropped: .*deadline/);
    expect(notes).toContain("meanInterArrival=10*");
  });

  it("a negative model option is a value, with or without '=' (as the README says)", async () => {
    const dir = await tempDir();
    const a = join(dir, "a.swf");
    const b = join(dir, "b.swf");
    const base = ["gen", "lublin", "--jobs", "20", "--seed", "3"];
    expect((await cli(...base, "--typeless.pa", "-0.01", "--out", a)).code).toBe(0);
    expect((await cli(...base, "--typeless.pa=-0.01", "--out", b)).code).toBe(0);
    const text = await readFile(a, "utf8");
    expect(text).toContain("typeless.pa=-0.01");
    expect(await readFile(b, "utf8")).toBe(text);
  });

  it("bad usage exits 2 naming the model or the option, and writes nothing", async () => {
    const dir = await tempDir();
    const out = join(dir, "x.swf");
    const cases: [string[], string][] = [
      [["gen"], "missing argument <model>"],
      [["gen", "lubin", "--out", out], "unknown model 'lubin' (did you mean lublin?)"],
      [["gen", "lublin"], "option --out FILE is required"],
      [["gen", "lublin", "--out", join(dir, "x.txt")], "option --out"],
      [
        ["gen", "lublin", "--jobs", "ten", "--out", out],
        "gen lublin: option --jobs must be a whole number (digits only), got 'ten'",
      ],
      [
        ["gen", "lublin", "--machines", "3", "--out", out],
        "option --machines is not an option of lublin",
      ],
      [
        ["gen", "lublin", "--procs", "0", "--out", out],
        "gen lublin: option --procs must be a whole number from 1 to 1000000 (digits only), got '0'",
      ],
      [["gen", "lublin", "--batch.uProb", "1.5", "--out", out], "option --batch.uProb"],
      [
        ["gen", "advance-reservation", "--arrivalFactor=-1", "--out", out],
        "option --arrivalFactor is -1, expected a finite number > 0",
      ],
      [
        ["gen", "advance-reservation", "--uMed", "12", "--out", out],
        "gen advance-reservation: option --uMed is 12, expected uLow (4.5) <= uMed <= uHi (10)",
      ],
      [["gen", "lublin", "--colour", "red", "--out", out], "unknown option --colour"],
      [["gen", "--list", "nope"], "unknown model 'nope'"],
      // a trace every reader refuses ("holds no jobs"): before, written with exit 0
      [
        ["gen", "lublin", "--jobs", "0", "--out", out],
        "gen lublin: the options give no job (--jobs 0); run, inspect and convert refuse a trace with no job, so none is written",
      ],
    ];
    for (const [argv, message] of cases) {
      const r = await cli(...argv);
      expect(r.code, argv.join(" ")).toBe(2);
      expect(r.stderr, argv.join(" ")).toContain(message);
      expect(r.stderr.trimEnd().split("\n"), argv.join(" ")).toHaveLength(1);
    }
    expect(await readdir(dir)).toEqual([]);
  });
});
