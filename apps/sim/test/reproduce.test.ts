import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../src/main.js";
import { COMPARED_SCHEDULERS } from "../src/schedulers.js";
import { cli, tempDir } from "./helpers.js";

describe("sched-sim reproduce", () => {
  it("--list lists the experiments", async () => {
    const r = await cli("reproduce", "--list");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("fcfs-load");
  });

  it("fcfs-load --quick writes a tidy results.csv with the right columns, and is deterministic", async () => {
    const a = await tempDir();
    const r = await cli("reproduce", "fcfs-load", "--quick", "--seeds", "2", "--out", a);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/scheduler\s+load\s+mean wait \(s\)\s+mean bsld\s+runs/);
    const csv = await readFile(join(a, "results.csv"), "utf8");
    const lines = csv.trimEnd().split("\n");
    expect(lines[0]).toBe("scheduler,load,metric,mean,ci95,runs");
    // schedulers x 3 loads x 2 metrics
    expect(lines).toHaveLength(1 + COMPARED_SCHEDULERS.length * 3 * 2);
    const fcfsRows = lines.slice(1).filter((l) => l.startsWith("fcfs,"));
    expect(fcfsRows.map((l) => l.split(",").slice(1, 3).join(","))).toEqual([
      "0.3,meanWait",
      "0.3,meanBoundedSlowdown",
      "0.5,meanWait",
      "0.5,meanBoundedSlowdown",
      "0.7,meanWait",
      "0.7,meanBoundedSlowdown",
    ]);
    for (const row of lines.slice(1)) {
      const [, , , mean, ci95, runs] = row.split(",");
      expect(Number(mean)).toBeGreaterThanOrEqual(0);
      expect(Number(ci95)).toBeGreaterThanOrEqual(0);
      expect(runs).toBe("2");
    }
    // FCFS waits grow with the load.
    const waits = fcfsRows
      .filter((l) => l.includes("meanWait"))
      .map((l) => Number(l.split(",")[3]));
    expect(waits[0]).toBeLessThan(waits[2] as number);
    const runs = await readFile(join(a, "runs.csv"), "utf8");
    expect(runs.split("\n")[0]).toBe("key,scheduler,load,seed,metric,value,events,decisions");

    const b = await tempDir();
    await cli("reproduce", "fcfs-load", "--quick", "--seeds", "2", "--out", b);
    expect(await readFile(join(b, "results.csv"))).toEqual(await readFile(join(a, "results.csv")));
    expect(await readFile(join(b, "runs.csv"))).toEqual(await readFile(join(a, "runs.csv")));
  });

  it("reports progress through io.progress when given one, and clears it at the end", async () => {
    const seen: string[] = [];
    const code = await main(["reproduce", "fcfs-load", "--quick", "--seeds", "1"], {
      stdout: () => {},
      stderr: () => {},
      progress: (t) => seen.push(t),
    });
    expect(code).toBe(0);
    const total = COMPARED_SCHEDULERS.length * 3;
    // once at the start, once per run, then cleared
    expect(seen).toHaveLength(total + 2);
    expect(seen[0]).toBe(`fcfs-load: 0/${total} runs, ${total} to go`);
    expect(seen[1]).toMatch(
      new RegExp(`^fcfs-load: 1/${total} runs, ${total - 1} to go, ~\\d+s left$`),
    );
    expect(seen[total]).toBe(`fcfs-load: ${total}/${total} runs, 0 to go`);
    expect(seen[total + 1]).toBe("");
  });

  it("bad usage exits 2 naming the problem", async () => {
    const cases: [string[], string][] = [
      [["reproduce"], "missing argument <experiment>"],
      [["reproduce", "fcfs-lod"], "unknown experiment 'fcfs-lod' (did you mean fcfs-load?)"],
      [
        ["reproduce", "fcfs-load", "--seeds", "0"],
        "option --seeds must be a whole number from 1 to 10000 (digits only), got '0'",
      ],
      [["reproduce", "fcfs-load", "--list"], "--list takes no experiment name"],
    ];
    for (const [argv, message] of cases) {
      const r = await cli(...argv);
      expect(r.code, argv.join(" ")).toBe(2);
      expect(r.stderr).toContain(message);
    }
  });
});
