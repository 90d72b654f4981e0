import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { computeMetrics, simulate } from "@sched/core";
import { parseJobsJsonl, parsePlatformJson } from "@sched/workload";
import { beforeAll, describe, expect, it } from "vitest";
import { metricsJson } from "../src/outputs.js";
import { chooseScheduler } from "../src/schedulers.js";
import { VERSION } from "../src/version.js";
import { cli, fixture, tempDir } from "./helpers.js";

// `run` on what `gen` writes: a native JSON Lines workload (deadlines, licences, benchmarks) and
// its heterogeneous platform, against the same jobs simulated through the library.

let dir = "";
let farm = "";
let platform = "";

beforeAll(async () => {
  dir = await tempDir();
  farm = join(dir, "farm.jsonl");
  platform = join(dir, "farm.json");
  const gen = await cli(
    "gen",
    "convergent",
    "--seed",
    "3",
    "--jobs",
    "30",
    "--machines",
    "10",
    "--out",
    farm,
    "--platform",
    platform,
  );
  expect(gen.code, gen.stderr).toBe(0);
});

describe("sched-sim run on a native workload and its platform", () => {
  for (const scheduler of ["cs-ip", "easy"]) {
    it(`-s ${scheduler}: the table, the --out files, the library's metrics byte for byte`, async () => {
      const out = join(dir, `out-${scheduler}`);
      const r = await cli("run", "-s", scheduler, "-w", farm, "--platform", platform, "-o", out);
      expect(r.stderr).not.toContain("rejected");
      expect(r.code, r.stderr).toBe(0);
      const p = parsePlatformJson(await readFile(platform, "utf8"));
      expect(r.stdout).toContain(
        `${farm}: 30 jobs on ${platform} (${p.machines.length} machines, ${p.totalCores} processors)`,
      );
      expect(r.stdout).toMatch(new RegExp(`^${scheduler.replace("-", "\\-")}\\s+30\\s`, "m"));
      const metrics = await readFile(join(out, "metrics.json"), "utf8");
      const jobsCsv = await readFile(join(out, "jobs.csv"), "utf8");
      expect(jobsCsv.trimEnd().split("\n")).toHaveLength(31);

      const { jobs } = parseJobsJsonl(await readFile(farm, "utf8"));
      const choice = chooseScheduler(scheduler, [], "test");
      const trace = simulate(jobs, p, choice.entry.create(choice.options));
      const expected = metricsJson(trace.stats, computeMetrics(trace), {
        scheduler,
        schedulerOptions: {},
        workload: farm,
        platform,
        procs: p.totalCores,
        clean: false,
        version: VERSION,
      });
      expect(metrics).toBe(expected);
      // The jobs' own features reached the simulation: deadlines and licences are measured.
      const parsed = JSON.parse(metrics) as Record<string, unknown>;
      expect(parsed.deadlineMissRate).toEqual(expect.any(Number));
      expect(parsed.licenseUsage).toBeGreaterThan(0);
    });
  }

  it("gzipped, and unsorted (read whole and sorted), gives the same metrics", async () => {
    const text = await readFile(farm, "utf8");
    const [header, ...lines] = text.trimEnd().split("\n");
    const gz = join(dir, "farm-gz.jsonl.gz");
    await writeFile(gz, gzipSync(text));
    const reversed = join(dir, "farm-rev.jsonl");
    await writeFile(reversed, `${[header, ...lines.reverse()].join("\n")}\n`);
    const metricsOf = async (w: string) => {
      const r = await cli("run", "-s", "easy", "-w", w, "--platform", platform, "--format", "json");
      expect(r.code, r.stderr).toBe(0);
      const m = JSON.parse(r.stdout) as { run: Record<string, unknown> };
      m.run.workload = "";
      return { m, stderr: r.stderr };
    };
    const plain = await metricsOf(farm);
    expect((await metricsOf(gz)).m).toEqual(plain.m);
    const rev = await metricsOf(reversed);
    expect(rev.stderr).toContain("is not sorted by submit time");
    expect(rev.m).toEqual(plain.m);
  });

  it("without --platform: the header's meta.procs identical processors, on the general engine", async () => {
    const r = await cli("run", "-s", "easy", "-w", farm, "--format", "json");
    expect(r.code, r.stderr).toBe(0);
    const m = JSON.parse(r.stdout) as { run: { procs: number; platform?: string } };
    expect(m.run.procs).toBe(parsePlatformJson(await readFile(platform, "utf8")).totalCores);
    expect(m.run.platform).toBeUndefined();
    // The identical pool has no licences: the policy rejects the jobs that need them, and says so.
    expect(r.stderr).toContain("which the platform does not have");
  });

  it("a native workload of plain jobs gives the SWF trace's outputs", async () => {
    const jsonl = join(dir, "l.jsonl");
    const swf = join(dir, "l.swf");
    for (const f of [jsonl, swf]) {
      const g = await cli(
        ...["gen", "lublin", "--jobs", "40", "--procs", "16", "--seed", "2"],
        "--out",
        f,
      );
      expect(g.code, g.stderr).toBe(0);
    }
    const a = await cli("run", "-s", "easy", "-w", jsonl, "-o", join(dir, "la"));
    const b = await cli(
      "run",
      ...["-s", "easy", "-w", swf, "--estimate", "runtime", "-o", join(dir, "lb")],
    );
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    expect(await readFile(join(dir, "la", "jobs.csv"), "utf8")).toBe(
      await readFile(join(dir, "lb", "jobs.csv"), "utf8"),
    );
  });

  it("--platform with an SWF trace: a heterogeneous farm for it", async () => {
    const r = await cli(
      ...["run", "-s", "easy", "-w", fixture("small.swf"), "--clean", "--platform", platform],
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`on ${platform} (`);
    // --engine auto with --platform is the general engine on the farm (the pooled kernel models
    // one pool of identical single-core machines): the same bytes as --engine general.
    const outputs = async (engine: string) => {
      const out = join(dir, `swf-farm-${engine}`);
      const run = await cli(
        ...["run", "-s", "easy", "-w", fixture("small.swf"), "--clean", "--platform", platform],
        ...["--engine", engine, "--format", "json", "-o", out],
      );
      expect(run.code, run.stderr).toBe(0);
      return [run.stdout, await readFile(join(out, "jobs.csv"), "utf8")];
    };
    expect(await outputs("auto")).toEqual(await outputs("general"));
  });
});

describe("sched-sim run on native input: bad input and flag clashes", () => {
  it("a bad job line names FILE:LINE and the field", async () => {
    const lines = (await readFile(farm, "utf8")).split("\n");
    lines[4] = lines[4]!.replace(/"cores":\d+/, '"cores":"x"');
    const bad = join(dir, "bad.jsonl");
    await writeFile(bad, lines.join("\n"));
    const r = await cli("run", "-w", bad, "--platform", platform);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${bad}:5 cores: is "x"`);
  });

  it("a bad platform names its file (and line and column, or field)", async () => {
    const syntax = join(dir, "syntax.json");
    await writeFile(syntax, '{"machines": [\n  {"cores": 2},\n]}\n');
    const r1 = await cli("run", "-w", farm, "--platform", syntax);
    expect(r1.code).toBe(1);
    expect(r1.stderr).toContain(`${syntax}:3:1: is not valid JSON`);
    const zero = join(dir, "zero.json");
    await writeFile(zero, '{"machines": [{"cores": 2}, {"cores": 0}]}\n');
    const r2 = await cli("run", "-w", farm, "--platform", zero);
    expect(r2.code).toBe(1);
    expect(r2.stderr).toContain(`${zero} spec.machines[1].cores: is 0`);
    const r3 = await cli("run", "-w", farm, "--platform", join(dir, "none.json"));
    expect(r3.code).toBe(2);
    expect(r3.stderr).toContain("option --platform");
  });

  it("flag clashes are usage errors naming the flags", async () => {
    const cases: readonly (readonly [readonly string[], string])[] = [
      [["--platform", platform, "--procs", "8"], "options --platform and --procs"],
      [["--platform", platform, "--engine", "pooled", "-s", "easy"], "option --engine pooled"],
      [["--clean"], "option --clean: applies to SWF input only"],
      [["--estimate", "runtime"], "option --estimate: applies to SWF input only"],
    ];
    for (const [args, message] of cases) {
      const r = await cli("run", "-w", farm, ...args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toContain(message);
    }
    const r = await cli("run", "-w", platform);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("a platform file goes to --platform");
  });

  it("a native workload without a header and without --platform or --procs is a usage error", async () => {
    const text = await readFile(farm, "utf8");
    const bare = join(dir, "bare.jsonl");
    await writeFile(bare, text.slice(text.indexOf("\n") + 1));
    const r = await cli("run", "-w", bare);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("give the machines with --platform FILE or --procs N");
  });
});
