import type * as fs from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it, vi } from "vitest";
import { cli, fixture, tempDir, withoutRequestedTimes } from "./helpers.js";

/** Bytes read from each file by path, through `createReadStream` and `readSync`. */
const bytesRead = new Map<string, number>();

vi.mock("node:fs", async (importOriginal) => {
  const real = await importOriginal<typeof fs>();
  const count = (path: string, n: number) => bytesRead.set(path, (bytesRead.get(path) ?? 0) + n);
  const paths = new Map<number, string>();
  const counted = {
    ...real,
    createReadStream(path: string, options?: Parameters<typeof fs.createReadStream>[1]) {
      const o = typeof options === "object" && options !== null ? options : {};
      // The stream's own reads, counted (a `data` listener would change how it is consumed).
      const read = ((fd, buffer, offset, length, position, callback) =>
        real.read(fd, buffer, offset, length, position, (error, n, b) => {
          count(path, n);
          callback(error, n, b);
        })) as typeof real.read;
      return real.createReadStream(path, {
        ...o,
        fs: { open: real.open, close: real.close, read },
      });
    },
    openSync(path: string, ...rest: unknown[]) {
      const fd = (real.openSync as (...a: unknown[]) => number)(path, ...rest);
      paths.set(fd, path);
      return fd;
    },
    readSync(fd: number, ...rest: unknown[]) {
      const n = (real.readSync as (...a: unknown[]) => number)(fd, ...rest);
      const path = paths.get(fd);
      if (path !== undefined) count(path, n);
      return n;
    },
  };
  return { ...counted, default: counted };
});

/**
 * Bytes of a peek at the first 1,024 records (about 60 KB here): the stream's chunks of 64 KiB,
 * and the one it may read ahead before it is closed.
 */
const PEEK = 3 * 65536;

/** An SWF text of `n` jobs (about 60 bytes a line), field 9 from `requested(i)`. */
function swfText(n: number, requested: (i: number) => number): string {
  const lines = ["; MaxProcs: 64"];
  for (let i = 1; i <= n; i++) {
    const runtime = 1 + ((i * 7919) % 5000);
    const cores = 1 << (i % 7);
    lines.push(
      `${i} ${i * 13} -1 ${runtime} ${cores} -1 -1 ${cores} ${requested(i)} -1 1 -1 -1 -1 1 -1 -1 -1`,
    );
  }
  return `${lines.join("\n")}\n`;
}

describe("sched-sim inspect reads an SWF file once (estimate auto)", () => {
  it("a file without requested times is read once, not first to decide the estimate and then again", async () => {
    const file = join(await tempDir(), "noreq.swf");
    const text = swfText(20_000, () => -1);
    await writeFile(file, text);
    bytesRead.clear();
    const r = await cli("inspect", file, "--json");
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).estimatesFrom).toBe("runtime");
    // The whole file once, and a peek at the first record's field 9.
    expect(text.length).toBeGreaterThan(1_000_000);
    expect(bytesRead.get(file)).toBeLessThanOrEqual(text.length + PEEK);
  });

  it("so is one whose field 9 is 0 throughout (no requested time either)", async () => {
    const file = join(await tempDir(), "zero.swf");
    const text = swfText(20_000, () => 0);
    await writeFile(file, text);
    bytesRead.clear();
    const r = await cli("inspect", file, "--json");
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).estimatesFrom).toBe("runtime");
    expect(bytesRead.get(file)).toBeLessThanOrEqual(text.length + PEEK);
  });

  it("a file with requested times is read once too, and so is one whose first comes early; one whose first comes late, twice", async () => {
    const dir = await tempDir();
    for (const [name, requested, reads] of [
      ["req.swf", (i: number) => 100 + i, 1],
      ["late.swf", (i: number) => (i === 10_000 ? 50 : -1), 2],
      ["early.swf", (i: number) => (i === 500 ? 50 : -1), 1],
    ] as const) {
      const file = join(dir, name);
      const text = swfText(20_000, requested);
      await writeFile(file, text);
      bytesRead.clear();
      const r = await cli("inspect", file, "--clean", "--json");
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).estimatesFrom).toBe("requested");
      expect(bytesRead.get(file)).toBeLessThanOrEqual(reads * text.length + PEEK);
    }
  });

  it("prints the bytes the streamed reader's path prints (a gzip copy), with and without requested times", async () => {
    const dir = await tempDir();
    const kth = await readFile(fixture("kth-sp2-head.swf"), "utf8");
    /** `kth` with field 9 unknown (-1) on the data lines whose index (from 0) fails `keep`. */
    const requestedOn = (keep: (k: number) => boolean) => {
      let k = 0;
      return kth
        .split("\n")
        .map((line) =>
          line.startsWith(";") || line.trim() === "" || keep(k++)
            ? line
            : withoutRequestedTimes(line),
        )
        .join("\n");
    };
    const variants: [string, string][] = [
      ["kth.swf", kth],
      ["noreq.swf", requestedOn(() => false)],
      ["first.swf", requestedOn((k) => k === 0)],
      ["later.swf", requestedOn((k) => k % 7 === 3)],
      // The first requested time after the first 1,024 records: read as runtime, then again.
      ["late.swf", swfText(5_000, (i) => (i >= 2_000 && i % 100 === 0 ? 3_000 : -1))],
      ["small.swf", await readFile(fixture("small.swf"), "utf8")],
      ["no-size.swf", await readFile(fixture("no-size.swf"), "utf8")],
      ["malformed.swf", await readFile(fixture("malformed.swf"), "utf8")],
    ];
    let compared = 0;
    for (const [name, text] of variants) {
      const plain = join(dir, name);
      const gz = join(dir, `${name}.gz`);
      await writeFile(plain, text);
      await writeFile(gz, gzipSync(text));
      for (const flags of [[], ["--clean"], ["--estimate", "runtime"], ["--clean", "--json"]]) {
        const a = await cli("inspect", plain, ...flags);
        const b = await cli("inspect", gz, ...flags);
        const same = (s: string) =>
          s
            .replaceAll(`${gz}`, plain)
            .replace(" (gzip)", "")
            .replace('"gzip": true', '"gzip": false');
        expect([a.code, a.stdout, a.stderr], `${name} ${flags.join(" ")}`).toEqual([
          b.code,
          same(b.stdout),
          same(b.stderr),
        ]);
        if (a.code === 0) compared++;
      }
    }
    expect(compared).toBeGreaterThan(10);
  });
});
