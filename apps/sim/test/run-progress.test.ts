import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { JobRecord } from "@sched/core";
import { describe, expect, it } from "vitest";
import type { Io } from "../src/command.js";
import { main } from "../src/main.js";
import { PROGRESS_INTERVAL_MS, progressText, RunProgress } from "../src/run-progress.js";
import { type CliResult, fixture, tempDir } from "./helpers.js";

const SMALL = fixture("small.swf");
const KTH_HEAD = fixture("kth-sp2-head.swf");

/** A clock that moves `step` ms each time it is read. */
function steppingClock(step: number): () => number {
  let t = 0;
  return () => {
    t += step;
    return t;
  };
}

/** What `sched-sim argv` printed, with `extra` added to the Io (a clock, a terminal's progress). */
async function cliWith(
  extra: Partial<Pick<Io, "clock" | "progress">>,
  ...argv: string[]
): Promise<CliResult & { progress: string[] }> {
  let stdout = "";
  let stderr = "";
  const progress: string[] = [];
  const code = await main(argv, {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    ...extra,
    ...(extra.progress === undefined ? {} : { progress: (t: string) => progress.push(t) }),
  });
  return { code, stdout, stderr, progress };
}

function record(id: number, end: number | null): JobRecord {
  return {
    job: { id, submit: 0, runtime: 1, estimate: 1, cores: 1 },
    intervals: [],
    end,
    outcome: end === null ? "unfinished" : "completed",
  } as unknown as JobRecord;
}

/** The progress line's form. */
const LINE =
  /^(run|demo \((fcfs|easy|conservative)\)): \d+ jobs read, \d+ finished, \d+ in the system, t=\d+ s, \d+ jobs\/s, \d+(s|m\d\ds|h\d\dm) elapsed$/;

describe("progressText", () => {
  it("says the counts, the simulated time, the rate and the elapsed time", () => {
    expect(
      progressText("run", {
        read: 1200,
        finished: 1000,
        time: 4523400.4,
        rate: 812.6,
        elapsedMs: 74_000,
      }),
    ).toBe(
      "run: 1200 jobs read, 1000 finished, 200 in the system, t=4523400 s, 813 jobs/s, 1m14s elapsed",
    );
    expect(
      progressText("demo (easy)", {
        read: 5,
        finished: 0,
        time: Number.NaN,
        rate: 0,
        elapsedMs: 0,
      }),
    ).toBe("demo (easy): 5 jobs read, 0 finished, 5 in the system, t=0 s, 0 jobs/s, 0s elapsed");
  });
});

describe("RunProgress (an injected clock: no timing)", () => {
  it("shows a line once every interval, with the rate over that interval, and clears it at the end", () => {
    let t = 0;
    const shown: string[] = [];
    let cleared = 0;
    const p = new RunProgress(
      "run",
      (l) => shown.push(l),
      () => cleared++,
      () => t,
    );
    p.read(10);
    expect(shown).toEqual([]);
    t = PROGRESS_INTERVAL_MS - 1;
    p.record(record(1, 50));
    expect(shown).toEqual([]);
    t = PROGRESS_INTERVAL_MS;
    p.record(record(2, 40));
    expect(shown).toEqual([
      "run: 10 jobs read, 2 finished, 8 in the system, t=50 s, 1 jobs/s, 2s elapsed",
    ]);
    // 4 more finished over the next 2 s: 2 jobs/s.
    for (let id = 3; id <= 6; id++) p.record(record(id, 60 + id));
    t = 2 * PROGRESS_INTERVAL_MS;
    p.read(5);
    expect(shown[1]).toBe(
      "run: 15 jobs read, 6 finished, 9 in the system, t=66 s, 2 jobs/s, 4s elapsed",
    );
    expect(cleared).toBe(0);
    p.end();
    p.end();
    expect(cleared).toBe(1);
  });

  it("reads the clock less often while records come fast, and at every record when they come slowly", () => {
    let reads = 0;
    const fast = new RunProgress(
      "run",
      () => {},
      () => {},
      () => reads++,
    );
    for (let i = 0; i < 100_000; i++) fast.record(record(i, i));
    expect(reads).toBeLessThan(100);
    let t = 0;
    let slowReads = 0;
    const slow = new RunProgress(
      "run",
      () => {},
      () => {},
      () => {
        slowReads++;
        t += 500;
        return t;
      },
    );
    for (let i = 0; i < 50; i++) slow.record(record(i, i));
    expect(slowReads).toBe(51);
  });

  it("restart counts a new run under a new label; the elapsed time goes on", () => {
    let t = 0;
    const shown: string[] = [];
    const p = new RunProgress(
      "demo (fcfs)",
      (l) => shown.push(l),
      () => {},
      () => t,
    );
    p.read(3);
    p.restart("demo (easy)");
    t = 3000;
    p.read(2);
    expect(shown).toEqual([
      "demo (easy): 2 jobs read, 0 finished, 2 in the system, t=0 s, 0 jobs/s, 3s elapsed",
    ]);
  });
});

describe("sched-sim run/demo --progress", () => {
  it("prints progress lines on stderr (one per line off a terminal), and nothing else changes", async () => {
    for (const engine of ["pooled", "general"]) {
      const dirA = await tempDir();
      const dirB = await tempDir();
      const args = ["run", "-w", KTH_HEAD, "-s", "easy", "--engine", engine];
      const plain = await cliWith({}, ...args, "--out", dirA);
      const shown = await cliWith(
        { clock: steppingClock(1000) },
        ...args,
        "--out",
        dirB,
        "--progress",
      );
      expect(plain.code).toBe(0);
      expect(shown.code).toBe(0);
      expect(shown.stdout).toBe(plain.stdout);
      for (const f of ["jobs.csv", "metrics.json"]) {
        expect(await readFile(join(dirB, f), "utf8")).toBe(await readFile(join(dirA, f), "utf8"));
      }
      const lines = shown.stderr.split("\n").filter((l) => l.startsWith("run: "));
      expect(lines.length).toBeGreaterThan(10);
      for (const l of lines) expect(l).toMatch(LINE);
      // The rest of stderr is what it was without --progress.
      expect(
        shown.stderr
          .split("\n")
          .filter((l) => !l.startsWith("run: "))
          .join("\n")
          .replaceAll(dirB, dirA),
      ).toBe(plain.stderr);
      // The last line has read every job.
      expect(lines.at(-1)).toMatch(/^run: 1000 jobs read, /);
    }
  });

  it("on a terminal rewrites the line in place and clears it before the table", async () => {
    const r = await cliWith(
      { clock: steppingClock(1000), progress: () => {} },
      "run",
      "-w",
      SMALL,
      "--clean",
    );
    expect(r.code).toBe(0);
    expect(r.progress.length).toBeGreaterThan(1);
    for (const l of r.progress.slice(0, -1)) expect(l).toMatch(LINE);
    expect(r.progress.at(-1)).toBe("");
    expect(r.stderr).not.toContain("jobs read");
  });

  it("is on by default only on a terminal, and --no-progress turns it off there", async () => {
    const tty = await cliWith(
      { clock: steppingClock(1000), progress: () => {} },
      "demo",
      "--jobs",
      "50",
    );
    expect(tty.code).toBe(0);
    expect(tty.progress.filter((l) => l !== "").length).toBeGreaterThan(0);
    for (const l of tty.progress.filter((x) => x !== "")) expect(l).toMatch(LINE);
    const off = await cliWith(
      { clock: steppingClock(1000), progress: () => {} },
      "demo",
      "--jobs",
      "50",
      "--no-progress",
    );
    expect(off.progress).toEqual([]);
    expect(off.stdout).toBe(tty.stdout);
    const pipe = await cliWith({ clock: steppingClock(1000) }, "run", "-w", SMALL, "--clean");
    expect(pipe.stderr).not.toContain("jobs read");
  });

  it("demo --progress names each policy and leaves stdout as it was", async () => {
    const plain = await cliWith({}, "demo", "--jobs", "200", "--format", "json");
    const shown = await cliWith(
      { clock: steppingClock(1000) },
      "demo",
      "--jobs",
      "200",
      "--format",
      "json",
      "--progress",
    );
    expect(shown.stdout).toBe(plain.stdout);
    const lines = shown.stderr.trim().split("\n");
    for (const l of lines) expect(l).toMatch(LINE);
    for (const s of ["fcfs", "easy", "conservative"]) {
      expect(lines.some((l) => l.startsWith(`demo (${s}): `))).toBe(true);
    }
  });

  it("refuses --progress with --no-progress, naming both", async () => {
    for (const command of [["run", "-w", SMALL], ["demo"]]) {
      const r = await cliWith({}, ...command, "--progress", "--no-progress");
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(
        `sched-sim: ${command[0]}: options --progress and --no-progress contradict each other; give one of them\n`,
      );
    }
  });
});
