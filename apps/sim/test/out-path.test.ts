import { existsSync } from "node:fs";
import { mkdir, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { StreamedFile } from "../src/atomic.js";
import { cli, fixture, tempDir } from "./helpers.js";
import { smallExperiment, writeExperiment } from "./sweep-helpers.js";

/**
 * Each command's output option given an empty path, a path under a file, and the wrong kind of
 * thing: exit 2 before any work, one line naming the option and the path, nothing written.
 * Before: `run -o ''` wrote into the current directory, `sweep`/`reproduce --out ''` said
 * `ENOENT: no such file or directory, mkdir ''`, `gen --out FILE/x.swf` a raw `ENOTDIR … lstat`
 * of its temporary, `report`/`convert --out FILE/x` "already exists".
 */
describe("output paths are checked before the work, in the option's words", async () => {
  const dir = await tempDir();
  const file = join(dir, "a-file");
  await writeFile(file, "not a directory\n");
  await mkdir(join(dir, "a-dir.swf"));
  const experiment = await writeExperiment(smallExperiment([0.5], 1));
  const sweepDir = await tempDir();
  expect((await cli("sweep", experiment, "--out", sweepDir, "--quiet")).code).toBe(0);
  const swf = fixture("small.swf");

  const cases: [string, string[], string][] = [
    [
      "run --out ''",
      ["run", "-w", swf, "--clean", "--out", ""],
      "run: option --out: expected a directory path, got ''",
    ],
    [
      "run --out FILE/sub",
      ["run", "-w", swf, "--clean", "--out", join(file, "sub")],
      `run: option --out ${join(file, "sub")}: a parent is not a directory`,
    ],
    [
      "sweep --out ''",
      ["sweep", experiment, "--out", ""],
      "sweep: option --out: expected a directory path, got ''",
    ],
    [
      "sweep --out FILE/sub",
      ["sweep", experiment, "--out", join(file, "sub")],
      `sweep: option --out ${join(file, "sub")}: a parent is not a directory`,
    ],
    [
      "sweep --out FILE",
      ["sweep", experiment, "--out", file],
      `sweep: option --out ${file}: exists and is not a directory`,
    ],
    [
      "reproduce --out ''",
      ["reproduce", "fcfs-load", "--quick", "--out", ""],
      "reproduce: option --out: expected a directory path, got ''",
    ],
    [
      "reproduce --out FILE/sub",
      ["reproduce", "fcfs-load", "--quick", "--out", join(file, "sub")],
      `reproduce: option --out ${join(file, "sub")}: a parent is not a directory`,
    ],
    [
      "gen --out FILE/x.swf",
      ["gen", "lublin", "--jobs", "10", "--out", join(file, "x.swf")],
      `gen lublin: option --out ${join(file, "x.swf")}: a parent is not a directory`,
    ],
    [
      "gen --out DIR.swf",
      ["gen", "lublin", "--jobs", "10", "--out", join(dir, "a-dir.swf")],
      `gen lublin: option --out ${join(dir, "a-dir.swf")}: is a directory; give a file name`,
    ],
    [
      "gen --platform FILE/p.json",
      [
        "gen",
        "lublin",
        "--jobs",
        "10",
        "--out",
        join(dir, "l.swf"),
        "--platform",
        join(file, "p.json"),
      ],
      `gen lublin: option --platform ${join(file, "p.json")}: a parent is not a directory`,
    ],
    [
      "gen --platform ''",
      ["gen", "lublin", "--jobs", "10", "--out", join(dir, "l.swf"), "--platform", ""],
      "gen lublin: option --platform: expected a file path, got ''",
    ],
    [
      "report --out ''",
      ["report", sweepDir, "--out", ""],
      "report: option --out: expected a file path, got ''",
    ],
    [
      "report --out FILE/r.html",
      ["report", sweepDir, "--out", join(file, "r.html")],
      `report: option --out ${join(file, "r.html")}: a parent is not a directory`,
    ],
    [
      "report --out DIR",
      ["report", sweepDir, "--out", dir],
      `report: option --out ${dir}: is a directory; give a file name`,
    ],
    [
      "convert --out FILE/x.json",
      ["convert", swf, "--out", join(file, "x.json")],
      `convert: option --out ${join(file, "x.json")}: a parent is not a directory`,
    ],
    [
      "convert --out ''",
      ["convert", swf, "--to", "batsim", "--out", ""],
      "convert: option --out: expected a file path, got ''",
    ],
  ];
  for (const [name, argv, message] of cases) {
    it(name, async () => {
      const before = (await readdir(dir)).sort();
      const r = await cli(...argv);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toBe(`sched-sim: ${message}\n`);
      expect(r.stdout).toBe("");
      expect((await readdir(dir)).sort()).toEqual(before);
    });
  }

  it("sweep --emit takes a DIR that does not exist here (it is the cluster's path)", async () => {
    const r = await cli(
      "sweep",
      experiment,
      "--out",
      join(file, "on-the-cluster"),
      "--emit",
      "slurm",
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("on-the-cluster");
  });

  // Node 20's recursive mkdir never returns there (each command used to hang for good).
  it.runIf(existsSync("/proc/self"))(
    "a directory that cannot be made (under /proc): exit, not a hang",
    async () => {
      const r = await cli("sweep", experiment, "--out", "/proc/sched-sim-no-such/out", "--quiet");
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toBe(
        "sched-sim: sweep: --out /proc/sched-sim-no-such/out: cannot create it: no such file or directory\n",
      );
      const run = await cli("run", "-w", swf, "--clean", "--out", "/proc/sched-sim-no-such/out");
      expect(run.code).toBe(1);
      expect(run.stderr).toContain("cannot write /proc/sched-sim-no-such/out/jobs.csv");
    },
  );

  it("StreamedFile.discard never throws, even when its temporary could not be created", async () => {
    const f = await StreamedFile.create(join(file, "x.swf"));
    expect(() => f.write("x".repeat(2 << 20))).toThrow("a parent is not a directory");
    expect(() => f.discard()).not.toThrow();
  });
});
