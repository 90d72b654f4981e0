import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  makeDirs,
  StreamedFile,
  uuidMaker,
  writeFileAtomicSync,
  writeFilesAtomic,
} from "../src/atomic.js";

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

describe("writeFileAtomicSync", () => {
  it("writes the file (and its directories), replaces one whole, leaves no temporary", async () => {
    const dir = await mkdtemp(join(tmpdir(), "atomic-sync-"));
    const uuid = await uuidMaker();
    const path = join(dir, "runs", "a.json");
    writeFileAtomicSync(path, "first", uuid);
    writeFileAtomicSync(path, "second", uuid);
    expect(await readFile(path, "utf8")).toBe("second");
    expect(await readdir(join(dir, "runs"))).toEqual(["a.json"]);
  });

  it("a file that cannot be written: an error naming it, the target untouched, no temporary", async () => {
    const dir = await mkdtemp(join(tmpdir(), "atomic-sync-"));
    const uuid = await uuidMaker();
    // a directory where the file goes: the rename fails after the temporary was written
    await mkdir(join(dir, "taken"));
    await writeFile(join(dir, "taken", "x"), "kept");
    expect(() => writeFileAtomicSync(join(dir, "taken"), "new", uuid)).toThrow(
      `cannot write ${join(dir, "taken")}: `,
    );
    expect(await readFile(join(dir, "taken", "x"), "utf8")).toBe("kept");
    expect(await readdir(dir)).toEqual(["taken"]);
    // a file where a parent directory goes
    await writeFile(join(dir, "file"), "");
    expect(() => writeFileAtomicSync(join(dir, "file", "a.json"), "x", uuid)).toThrow(
      `cannot write ${join(dir, "file", "a.json")}: `,
    );
  });
});

describe("StreamedFile", () => {
  it("writes text and bytes in order, copying a chunk it holds (the writer reuses it)", async () => {
    const dir = await mkdtemp(join(tmpdir(), "sched-sim-"));
    const path = join(dir, "mixed.txt");
    const file = await StreamedFile.create(path);
    const chunk = new Uint8Array(100);
    file.reset("head\n");
    chunk.set(Buffer.from("one\n"));
    file.writeBytes(chunk.subarray(0, 4));
    chunk.set(Buffer.from("two\n")); // overwritten after the call, as SwfWriter does
    file.writeBytes(chunk.subarray(0, 4));
    file.write("tail\n");
    // Under 1 MiB: nothing on disk before the commit.
    expect(await readdir(dir)).toEqual([]);
    await writeFilesAtomic(new Map([[path, file]]));
    expect(await readFile(path, "utf8")).toBe("head\none\ntwo\ntail\n");
    expect(await readdir(dir)).toEqual(["mixed.txt"]);
  });

  it("writes chunks of 1 MiB as they come to a temporary, renamed on commit, removed on discard", async () => {
    const dir = await mkdtemp(join(tmpdir(), "sched-sim-"));
    const path = join(dir, "big.txt");
    const chunk = new Uint8Array(1 << 20);
    const expected: Buffer[] = [Buffer.from("x,y\n")];
    const file = await StreamedFile.create(path);
    file.reset("x,y\n");
    for (let k = 0; k < 3; k++) {
      chunk.fill(0x61 + k);
      file.writeBytes(chunk);
      expected.push(Buffer.from(chunk));
    }
    const [temp] = await readdir(dir);
    expect(temp).toMatch(/^\.big\.txt\..+\.tmp$/);
    await writeFilesAtomic(new Map([[path, file]]));
    expect((await readFile(path)).equals(Buffer.concat(expected))).toBe(true);
    expect(await readdir(dir)).toEqual(["big.txt"]);

    const again = await StreamedFile.create(join(dir, "gone.txt"));
    again.writeBytes(chunk);
    expect((await readdir(dir)).length).toBe(2);
    again.discard();
    expect(await readdir(dir)).toEqual(["big.txt"]);
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
