import { execFile, spawn } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "./helpers.js";
import { writeExperiment } from "./sweep-helpers.js";

const run = promisify(execFile);
const appDir = join(dirname(fileURLToPath(import.meta.url)), "..");
let cliPath = "";

/** Build the real CLI bundle once (worker threads need the built file) into a temporary dir. */
beforeAll(async () => {
  const outDir = await tempDir();
  await run("pnpm", ["exec", "tsup", "--out-dir", outDir, "--silent"], { cwd: appDir });
  cliPath = join(outDir, "cli.js");
}, 60_000);

async function count(dir: string): Promise<number> {
  try {
    return (await readdir(dir)).filter((f) => f.endsWith(".json") && !f.startsWith(".")).length;
  } catch {
    return 0;
  }
}

describe("sched-sim sweep as a process, on worker threads", () => {
  it("a 200-run sweep on 2 threads, killed (SIGKILL) half-way and restarted, ends with exactly 200 results", async () => {
    const file = await writeExperiment({
      name: "kill-test",
      workload: { type: "synthetic", jobs: 300 },
      platform: { procs: 32 },
      schedulers: [
        "fcfs",
        "easy",
        "conservative",
        { name: "backfill", options: { reservations: 2 } },
      ],
      grid: { load: [0.3, 0.4, 0.5, 0.6, 0.7] },
      seeds: 10,
      metrics: ["meanWait", "meanBoundedSlowdown"],
    });
    const out = await tempDir();
    const runs = join(out, "runs");
    const child = spawn(process.execPath, [cliPath, "sweep", file, "--out", out, "--jobs", "2"], {
      stdio: "ignore",
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on("exit", (_code, signal) => resolve(signal)),
    );
    while ((await count(runs)) < 40) await new Promise((r) => setTimeout(r, 10));
    child.kill("SIGKILL");
    expect(await exited).toBe("SIGKILL");
    const atKill = await count(runs);
    expect(atKill).toBeGreaterThanOrEqual(40);
    expect(atKill).toBeLessThan(200);
    await expect(readFile(join(out, "results.csv"))).rejects.toThrow();

    const again = await run(process.execPath, [
      cliPath,
      "sweep",
      file,
      "--out",
      out,
      "--jobs",
      "2",
    ]);
    expect(again.stderr).toContain(`${200 - atKill} runs in`);
    expect(again.stderr).toContain(`(${atKill} already done)`);
    const files = (await readdir(runs)).filter((f) => !f.startsWith("."));
    expect(files).toHaveLength(200);
    expect((await readdir(runs)).filter((f) => f.endsWith(".tmp"))).toEqual([]);
    const lines = (await readFile(join(out, "runs.csv"), "utf8")).trimEnd().split("\n");
    expect(lines).toHaveLength(1 + 200 * 2);
    expect(new Set(lines).size).toBe(lines.length);
    const results = (await readFile(join(out, "results.csv"), "utf8")).trimEnd().split("\n");
    expect(results).toHaveLength(1 + 4 * 5 * 2);
    for (const row of results.slice(1)) expect(row.endsWith(",10")).toBe(true);
  }, 60_000);
});

describe("sched-sim sweep interrupted (Ctrl-C, SIGTERM)", () => {
  it.each([
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const)(
    "on %s: says what is kept and how to resume, exits %i; the same command again finishes it",
    async (signal, code) => {
      const file = await writeExperiment({
        name: "interrupt-test",
        workload: { type: "synthetic", jobs: 300 },
        platform: { procs: 32 },
        schedulers: ["fcfs", "easy", "conservative"],
        grid: { load: [0.3, 0.5, 0.7] },
        seeds: 8,
        metrics: ["meanWait"],
      });
      const out = await tempDir();
      const runs = join(out, "runs");
      const child = spawn(process.execPath, [cliPath, "sweep", file, "--out", out, "--jobs", "2"], {
        stdio: ["ignore", "ignore", "pipe"],
      });
      let stderr = "";
      child.stderr.on("data", (d: Buffer) => {
        stderr += d.toString();
      });
      const exited = new Promise<number | null>((resolve) => child.on("close", (c) => resolve(c)));
      while ((await count(runs)) < 5) await new Promise((r) => setTimeout(r, 10));
      child.kill(signal);
      expect(await exited).toBe(code);
      const kept = await count(runs);
      expect(kept).toBeLessThan(72);
      const said = stderr.match(
        /sched-sim: interrupt-test interrupted \((\w+)\); (\d+) of 72 runs have a result in (.+): run the same command again to resume\n/,
      );
      expect(said?.[1]).toBe(signal);
      // Every run counted was written (the runs in hand when the signal came are not counted).
      expect(Number(said?.[2])).toBeLessThanOrEqual(kept);
      expect(Number(said?.[2])).toBeGreaterThanOrEqual(5);
      expect(said?.[3]).toBe(out);
      const again = await run(process.execPath, [
        cliPath,
        "sweep",
        file,
        "--out",
        out,
        "--jobs",
        "2",
      ]);
      expect(again.stderr).toContain(`(${kept} already done)`);
      const results = (await readFile(join(out, "results.csv"), "utf8")).trimEnd().split("\n");
      expect(results).toHaveLength(1 + 3 * 3);
    },
    60_000,
  );
});
