import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { easy } from "@sched/backfill";
import { computeMetrics, identicalPool, simulate } from "@sched/core";
import { parseSwf, swfToJobs } from "@sched/workload";
import { describe, expect, it } from "vitest";
import { jobsCsv, metricsJson } from "../src/outputs.js";
import { VERSION } from "../src/version.js";
import { cli, fixture, tempDir } from "./helpers.js";

const SMALL = fixture("small.swf");
const KTH = new URL("../../../packages/workload/fixtures/KTH-SP2-1996-2.1-cln.swf", import.meta.url)
  .pathname;

describe("sched-sim run: the streamed data path", () => {
  it("writes the kept trace's jobs.csv and metrics.json on KTH-SP2 (jobs.csv over 1 MiB, written as it goes)", async () => {
    const out = await tempDir();
    const r = await cli("run", "-w", KTH, "-s", "easy", "--clean", "-o", out);
    expect(r.code).toBe(0);
    // The same run kept whole, through the library.
    const { jobs } = swfToJobs(parseSwf(await readFile(KTH, "utf8")).records, { clean: true });
    const trace = simulate(jobs, identicalPool(100), easy());
    const csv = await readFile(join(out, "jobs.csv"), "utf8");
    expect(csv.length).toBeGreaterThan(1 << 20);
    expect(csv).toBe(jobsCsv(trace));
    const json = metricsJson(trace.stats, computeMetrics(trace), {
      scheduler: "easy",
      schedulerOptions: {},
      workload: KTH,
      procs: 100,
      clean: true,
      version: VERSION,
    });
    // metrics.json is deterministic: the same bytes (the wall clock is in timing.json).
    expect(await readFile(join(out, "metrics.json"), "utf8")).toBe(json);
    expect(r.stdout).toContain(`${KTH}: 28467 jobs on 100 processors`);
    expect((await readdir(out)).sort()).toEqual(["jobs.csv", "metrics.json", "timing.json"]);
  });

  it("reads a trace not sorted by submit time whole, sorts it, and gives the sorted trace's outputs", async () => {
    const dir = await tempDir();
    const text = await readFile(SMALL, "utf8");
    const lines = text.split("\n");
    const data = lines.filter((l) => l.trim() !== "" && !l.startsWith(";"));
    const header = lines.filter((l) => l.startsWith(";"));
    // Swap jobs 4 and 5: the file is no longer sorted by submit time.
    const shuffled = [...data];
    [shuffled[3], shuffled[4]] = [shuffled[4]!, shuffled[3]!];
    const unsorted = join(dir, "unsorted.swf");
    await writeFile(unsorted, `${[...header, ...shuffled].join("\n")}\n`);
    const a = await cli("run", "-w", SMALL, "--clean", "-o", join(dir, "a"));
    const b = await cli("run", "-w", unsorted, "--clean", "-o", join(dir, "b"));
    expect(a.code).toBe(0);
    expect(b.code).toBe(0);
    expect(b.stderr).toContain(`note: ${unsorted} is not sorted by submit time; sorting it`);
    expect(await readFile(join(dir, "b", "jobs.csv"), "utf8")).toBe(
      await readFile(join(dir, "a", "jobs.csv"), "utf8"),
    );
  });
});

describe("sched-sim run: a trace not sorted by submit time, sorted by submit then id", () => {
  // Jobs 3 and 2 both arrive at 5, after job 1's line (at 10): sorted, 2 before 3 (by id), as
  // the sorted file has them; the estimates are still what --estimate asks.
  const line = (id: number, submit: number, runtime: number) =>
    `${id} ${submit} -1 ${runtime} 2 -1 -1 2 ${10 * runtime} -1 1 1 1 -1 1 1 -1 -1`;
  const unsorted = ["; MaxProcs: 4", line(1, 10, 30), line(3, 5, 10), line(2, 5, 20)];
  const sorted = ["; MaxProcs: 4", line(2, 5, 20), line(3, 5, 10), line(1, 10, 30)];
  for (const engine of ["general", "auto"]) {
    for (const estimate of ["requested", "runtime"]) {
      it(`--engine ${engine} --estimate ${estimate}: the sorted file's outputs`, async () => {
        const dir = await tempDir();
        const outputs = async (name: string, lines: readonly string[]) => {
          const path = join(dir, `${name}.swf`);
          await writeFile(path, `${lines.join("\n")}\n`);
          const out = join(dir, name);
          const r = await cli(
            "run",
            ...["-w", path, "-s", "easy", "--engine", engine, "--estimate", estimate, "-o", out],
          );
          expect(r.code, r.stderr).toBe(0);
          return readFile(join(out, "jobs.csv"), "utf8");
        };
        const a = await outputs("sorted", sorted);
        const b = await outputs("unsorted", unsorted);
        expect(b).toBe(a);
        const rows = a.trim().split("\n").slice(1);
        expect(rows.map((r) => r.split(",")[0])).toEqual(["2", "3", "1"]);
        // estimate column (after id, submit, start, end, wait, runtime)
        expect(rows.map((r) => r.split(",")[6])).toEqual(
          estimate === "runtime" ? ["20", "10", "30"] : ["200", "100", "300"],
        );
      });
    }
  }
});

describe("sched-sim run: bad bytes in a streamed trace", () => {
  const swfLine = (id: number) => `${id} ${id} -1 10 1 -1 -1 1 10 -1 1 -1 -1 -1 -1 -1 -1 -1`;
  const text = `; MaxProcs: 4\n${swfLine(1)}\n${swfLine(2)}\n`;

  it("names the file when the text is not UTF-8, and the line when a line is over the limit", async () => {
    const dir = await tempDir();
    const notUtf8 = join(dir, "latin1.swf");
    await writeFile(
      notUtf8,
      Buffer.concat([Buffer.from(`; Note: caf`), Buffer.from([0xe9, 10]), Buffer.from(text)]),
    );
    const a = await cli("run", "-w", notUtf8);
    expect(a.code).toBe(1);
    expect(a.stderr).toBe(`sched-sim: run: ${notUtf8}: is not valid UTF-8 text\n`);
    const long = join(dir, "long.swf");
    await writeFile(long, `${text};${"x".repeat(1 << 20)}\n${swfLine(3)}\n`);
    const b = await cli("run", "-w", long);
    expect(b.code).toBe(1);
    expect(b.stderr).toBe(
      `sched-sim: run: ${long}:4: is longer than 1048576 characters, the limit of a line (a trace line is a few hundred at most)\n`,
    );
  });

  it("names a corrupt gzip file as such", async () => {
    const dir = await tempDir();
    const gz = gzipSync(Buffer.from(text.repeat(200)));
    gz[gz.length - 6] = gz[gz.length - 6]! ^ 0xff; // the CRC no longer matches
    const path = join(dir, "corrupt.swf.gz");
    await writeFile(path, gz);
    const r = await cli("run", "-w", path);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`^sched-sim: run: ${path}: is not valid gzip data \\(`));
  });
});

/** A policy module that starts nothing and wakes itself a second later, forever. */
async function wakesForeverModule(): Promise<string> {
  const policy = join(await tempDir(), "wakes-forever.mjs");
  await writeFile(
    policy,
    'export default { name: "wakes-forever", schedule(ctx) { ctx.wakeAt(ctx.view.now + 1); } };\n',
  );
  return policy;
}

describe("sched-sim run: a policy of the user's (--scheduler FILE)", () => {
  it("stops a policy that wakes itself forever after the default stall bound, with an error naming it", async () => {
    const policy = await wakesForeverModule();
    // Stopped by a count of calls (deterministic), not a clock: 100,000 calls take well under
    // 10 s (about 0.1 s on an idle machine).
    const r = await cli("run", "-w", SMALL, "--clean", "-s", policy);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^sched-sim: run: policy "wakes-forever" made no progress in 100000 schedule calls in a row .*, at t=\d+; 6 jobs waiting \(ids 1, 2, 3, 4, 5, \.\.\.\), none running;.*\(--max-stalled-events sets the bound\)\n$/,
    );
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("lets --max-stalled-events and --max-events set the guards, and names the flags, not the library options", async () => {
    const policy = await wakesForeverModule();
    const stalled = await cli(
      "run",
      "-w",
      SMALL,
      "--clean",
      "-s",
      policy,
      "--max-stalled-events",
      "50",
    );
    expect(stalled.code).toBe(1);
    expect(stalled.stderr).toContain("made no progress in 50 schedule calls in a row");
    expect(stalled.stderr).toContain("(--max-stalled-events sets the bound)");
    expect(stalled.stderr).not.toContain("options.");
    const events = await cli("run", "-w", SMALL, "--clean", "-s", policy, "--max-events", "20");
    expect(events.code).toBe(1);
    expect(events.stderr).toContain("did not finish within --max-events (20) events");
    expect(events.stderr).toContain("Raise --max-events if the run is meant to be that long");
    expect(events.stderr).not.toContain("options.");
    // The policy does set timers: the hint counts them and asks the question.
    expect(events.stderr).toMatch(
      /; by its last scheduling call 0 of the 6 jobs read had completed and 0 had been rejected; it set \d+ timers \(wakeAt\) and made 0 preemptions; does it keep doing so\? Raise --max-events/,
    );
    const bad = await cli("run", "-w", SMALL, "--max-stalled-events", "0");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      "option --max-stalled-events must be a whole number of at least 1 (digits only), got '0'",
    );
  });

  it("--max-events on a policy that sets no timer and preempts nothing says so, with the jobs done, not a question about timers", async () => {
    // FCFS on small.swf (8 processors, 6 jobs after --clean): events 1-5 are the arrivals at
    // 0..40, 6 and 7 the completion of job 2 and the arrival of job 7 at 60 (job 2 is the one
    // completion the policy was told of), 8 the completion of job 4 at 70 (started at 60).
    for (const policy of ["fcfs", "easy"]) {
      const r = await cli("run", "-w", SMALL, "--clean", "-s", policy, "--max-events", "7");
      expect(r.code, policy).toBe(1);
      expect(r.stderr).toBe(
        `sched-sim: run: policy "${policy}" did not finish within --max-events (7) events, at t=70; ${r.stderr.match(/at t=70; ([^;]*);/)?.[1]}; by its last scheduling call 1 of the 6 jobs read had completed and 0 had been rejected; it set no timer (wakeAt) and preempted no job, so every event so far was a job's arrival or completion, at most 2 per job (12 for the 6 jobs read). Raise --max-events if the run is meant to be that long\n`,
      );
      expect(r.stderr).not.toContain("does it keep");
    }
    // Conservative backfilling does set timers (it wakes at its reservations): counted, asked.
    const c = await cli("run", "-w", SMALL, "--clean", "-s", "conservative", "--max-events", "7");
    expect(c.stderr).toContain(
      "by its last scheduling call 1 of the 6 jobs read had completed and 0 had been rejected; it set 2 timers (wakeAt) and made 0 preemptions; does it keep doing so? Raise --max-events",
    );
  });

  it("runs a factory module with its --opt values, and names the policy when its code throws", async () => {
    const dir = await tempDir();
    const policy = join(dir, "first-fit.mjs");
    await writeFile(
      policy,
      [
        "export function createScheduler(options) {",
        "  return {",
        '    name: "first-fit-" + (options.tag ?? "none"),',
        "    schedule(ctx) {",
        "      for (const w of ctx.view.waiting) {",
        '        if (options.crash === "yes" && ctx.view.now >= 40) null.boom;',
        "        const free = [];",
        "        for (let m = 0, need = w.job.cores; m < ctx.view.platform.machines.length && need > 0; m++) {",
        "          if (ctx.view.freeCores(m) > 0) { free.push({ machine: m, cores: 1 }); need--; }",
        "        }",
        "        if (free.length === w.job.cores) ctx.start(w.job.id, free);",
        "      }",
        "    },",
        "  };",
        "}",
        "",
      ].join("\n"),
    );
    const ok = await cli(
      "run",
      "-w",
      SMALL,
      "--clean",
      "-s",
      policy,
      "--opt",
      "tag=x",
      "--format",
      "json",
    );
    expect(ok.code).toBe(0);
    const doc = JSON.parse(ok.stdout) as {
      jobs: number;
      run: { scheduler: string; schedulerOptions: unknown };
    };
    expect(doc.jobs).toBe(6);
    expect(doc.run.scheduler).toBe("first-fit-x");
    expect(doc.run.schedulerOptions).toEqual({ tag: "x" });
    const crash = await cli("run", "-w", SMALL, "--clean", "-s", policy, "--opt", "crash=yes");
    expect(crash.code).toBe(1);
    expect(crash.stderr).toMatch(
      /^sched-sim: run: policy "first-fit-none" threw at t=40, .*TypeError: Cannot read properties of null/,
    );
  });

  it("exits 2 naming the option when the module cannot be loaded or exports no policy", async () => {
    const dir = await tempDir();
    const missing = await cli("run", "-w", SMALL, "-s", join(dir, "nope.mjs"));
    expect(missing.code).toBe(2);
    // said as a missing file, not as Node's "Cannot find module … imported from dist/chunk-….js"
    expect(missing.stderr).toBe(
      `sched-sim: run: option --scheduler ${join(dir, "nope.mjs")}: no such file or directory\n`,
    );
    const folder = await cli("run", "-w", SMALL, "-s", `${dir}/`);
    expect(folder.code).toBe(2);
    expect(folder.stderr).toBe(`sched-sim: run: option --scheduler ${dir}/: not a file\n`);
    const broken = join(dir, "broken.mjs");
    await writeFile(broken, 'import "no-such-package-anywhere";\n');
    const imports = await cli("run", "-w", SMALL, "-s", broken);
    expect(imports.code).toBe(2);
    expect(imports.stderr).toContain(`run: option --scheduler ${broken}: cannot load the module:`);
    expect(imports.stderr).toContain("no-such-package-anywhere");
    const empty = join(dir, "empty.mjs");
    await writeFile(empty, "export const x = 1;\n");
    const r = await cli("run", "-w", SMALL, "-s", empty);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      "must be a scheduler { name, schedule(ctx) } or a function returning one",
    );
  });
});
