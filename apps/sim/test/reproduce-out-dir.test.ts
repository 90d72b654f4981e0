import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli, tempDir } from "./helpers.js";

// reproduce shares sweep's results folder; its folder errors are worded as reproduce's (they said
// `sweep:`; found by the flags fuzz suite when a case met a folder another case had left).
describe("reproduce --out: the folder's errors name the command the user ran", () => {
  const args = (out: string) => [
    "reproduce",
    "fcfs-load",
    "--quick",
    "--seeds",
    "1",
    "--jobs",
    "1",
    "--quiet",
    "--set",
    "load=0.5",
    "--out",
    out,
  ];

  it("a folder that is not empty and holds no experiment.json", async () => {
    const out = join(await tempDir(), "full");
    await mkdir(out);
    await writeFile(join(out, "notes.txt"), "mine\n");
    const r = await cli(...args(out));
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `sched-sim: reproduce: --out ${out} is not empty and holds no experiment.json; give a new or empty directory\n`,
    );
  });

  it("a folder that holds another experiment's results", async () => {
    const out = join(await tempDir(), "other");
    expect((await cli(...args(out))).code).toBe(0);
    const again = args(out).map((a) => (a === "load=0.5" ? "load=0.6" : a));
    const r = await cli(...again);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^sched-sim: reproduce: --out .* holds results of a different experiment/,
    );
  });
});
