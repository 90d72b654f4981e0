import { readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli, fixture, tempDir } from "./helpers.js";

describe("run --out DIR after a killed run", () => {
  // `run` writes jobs.csv as jobs end, into `.jobs.csv.<id>.tmp`; SIGINT or SIGTERM (exit 130,
  // 143) end the process with it there. Before, every interrupted run left one, megabytes each.
  it("removes the temporaries a killed run left, and nothing else", async () => {
    const out = await tempDir();
    const left = [
      ".jobs.csv.503ed57e-f85a-48bd-9643-4a55901f111f.tmp",
      ".metrics.json.0d2c0c3e-1b7f-4a57-8bd5-93c5f3f0c6a1.tmp",
    ];
    const kept = [".keep", ".other.csv.1.tmp", "notes.txt"];
    for (const f of [...left, ...kept]) await writeFile(join(out, f), "x\n");
    const r = await cli("run", "-w", fixture("small.swf"), "--clean", "-o", out);
    expect(r.code, r.stderr).toBe(0);
    expect((await readdir(out)).sort()).toEqual(
      [...kept, "jobs.csv", "metrics.json", "timing.json"].sort(),
    );
  });
});
