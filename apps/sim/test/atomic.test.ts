import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeDirs, writeFilesAtomic } from "../src/atomic.js";

describe("writeFilesAtomic", () => {
  it("writes every file and creates the directory", async () => {
    const dir = join(await mkdtemp(join(tmpdir(), "sched-sim-")), "out", "deep");
    await writeFilesAtomic(
      new Map([
        [join(dir, "a.txt"), "A"],
        [join(dir, "b.txt"), "B"],
      ]),
    );
    expect(await readFile(join(dir, "a.txt"), "utf8")).toBe("A");
    expect(await readFile(join(dir, "b.txt"), "utf8")).toBe("B");
    expect((await readdir(dir)).sort()).toEqual(["a.txt", "b.txt"]);
  });

  it("leaves earlier files untouched and no temporaries when one file cannot be written", async () => {
    const dir = await mkdtemp(join(tmpdir(), "sched-sim-"));
    await writeFile(join(dir, "a.txt"), "old A");
    // b.txt cannot be created: its parent "blocked" is a file, not a directory.
    await writeFile(join(dir, "blocked"), "");
    await expect(
      writeFilesAtomic(
        new Map([
          [join(dir, "a.txt"), "new A"],
          [join(dir, "blocked", "b.txt"), "B"],
        ]),
      ),
    ).rejects.toThrow(`cannot write ${join(dir, "blocked", "b.txt")}: a parent is not a directory`);
    expect(await readFile(join(dir, "a.txt"), "utf8")).toBe("old A");
    expect((await readdir(dir)).sort()).toEqual(["a.txt", "blocked"]);
  });

  it("replaces an existing file whole", async () => {
    const dir = await mkdtemp(join(tmpdir(), "sched-sim-"));
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, "m.json"), "x".repeat(1000));
    await writeFilesAtomic(new Map([[join(dir, "m.json"), "{}\n"]]));
    expect(await readFile(join(dir, "m.json"), "utf8")).toBe("{}\n");
  });
});

describe("makeDirs (mkdir -p without Node's recursive mkdir)", () => {
  it("creates the missing directories, accepts existing ones, refuses a file in the way", async () => {
    const root = await mkdtemp(join(tmpdir(), "sched-sim-"));
    makeDirs(join(root, "a", "b", "c"));
    expect(await readdir(join(root, "a", "b"))).toEqual(["c"]);
    makeDirs(join(root, "a", "b", "c"));
    makeDirs(root);
    await writeFile(join(root, "file"), "");
    expect(() => makeDirs(join(root, "file", "x"))).toThrow(/EEXIST/);
    expect(() => makeDirs(join(root, "file"))).toThrow(/EEXIST/);
  });

  // Node 20's mkdir(..., { recursive: true }) never returns for a new directory under /proc.
  it.runIf(existsSync("/proc/self"))("returns with ENOENT under /proc instead of spinning", () => {
    expect(() => makeDirs("/proc/sched-sim-no-such/x")).toThrow(/ENOENT/);
  });
});
