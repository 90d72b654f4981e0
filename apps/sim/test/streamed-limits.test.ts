import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { cli, tempDir } from "./helpers.js";
import { writeExperiment } from "./sweep-helpers.js";

// The limits of a trace read whole (lines, bytes) bound what it holds; a streamed conversion,
// inspection or sweep run holds the jobs in flight (or the summary's columns) only, so they do
// not apply to it (README, "Limits"). With
// the limits lowered here to 20 lines and 2,000 bytes, files of 60 jobs stream through; a trace
// that must be read whole (an unsorted one) stops at the limit.
vi.mock("../src/limits.js", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../src/limits.js")>()),
  MAX_TRACE_LINES: 20,
  MAX_TRACE_BYTES: 2_000,
}));

const JOBS = 60;
const native = (id: number, submit: number) =>
  `{"id":${id},"submit":${submit},"runtime":${30 + (id % 7) * 10},"cores":${1 + (id % 4)}}`;
const swfLine = (id: number, submit: number) =>
  `${id} ${submit} -1 ${30 + (id % 7) * 10} ${1 + (id % 4)} -1 -1 ${1 + (id % 4)} 100 -1 1 -1 -1 -1 -1 -1 -1 -1`;

async function nativeFile(): Promise<string> {
  const file = join(await tempDir(), "w.jsonl");
  await writeFile(file, Array.from({ length: JOBS }, (_, k) => native(k + 1, 10 * k)).join("\n"));
  return file;
}

async function swfFile(swap = false): Promise<string> {
  const file = join(await tempDir(), "w.swf");
  const lines = Array.from({ length: JOBS }, (_, k) => swfLine(k + 1, 10 * k));
  if (swap) [lines[3], lines[4]] = [lines[4]!, lines[3]!];
  await writeFile(file, ["; MaxProcs: 4", ...lines].join("\n"));
  return file;
}

const records = (text: string) => text.split("\n").filter((l) => /^\s*\d/.test(l));

describe("past the limits of a trace read whole", () => {
  it("convert streams a native file of 60 jobs to SWF and to native, into a file and to stdout", async () => {
    const input = await nativeFile();
    const out = join(await tempDir(), "out.swf");
    const toFile = await cli("convert", input, "--to", "swf", "--out", out);
    expect(toFile.stderr).toBe(`wrote ${JOBS} jobs to ${out} (swf)\n`);
    expect(toFile.code).toBe(0);
    expect(records(await readFile(out, "utf8"))).toHaveLength(JOBS);
    const toStdout = await cli("convert", input, "--to", "swf");
    expect(toStdout.code).toBe(0);
    expect(toStdout.stdout).toBe(await readFile(out, "utf8"));
    const jsonl = await cli("convert", input, "--to", "native");
    expect(jsonl.code).toBe(0);
    expect(jsonl.stdout.trim().split("\n")).toHaveLength(JOBS + 1); // and the header line
  });

  it("convert streams native and SWF files of 60 jobs to Batsim, into a file and to stdout", async () => {
    for (const input of [await nativeFile(), await swfFile()]) {
      const out = join(await tempDir(), "out.json");
      const toFile = await cli("convert", input, "--to", "batsim", "--out", out);
      expect(toFile.stderr).toBe(`wrote ${JOBS} jobs to ${out} (batsim)\n`);
      expect(toFile.code).toBe(0);
      const doc = JSON.parse(await readFile(out, "utf8")) as { jobs: unknown[]; nb_res: number };
      expect(doc.jobs).toHaveLength(JOBS);
      expect(doc.nb_res).toBe(4);
      const toStdout = await cli("convert", input, "--to", "batsim");
      expect(toStdout.code, toStdout.stderr).toBe(0);
      expect(toStdout.stdout).toBe(await readFile(out, "utf8"));
    }
  });

  it("inspect streams a native file and an SWF file of 60 jobs", async () => {
    for (const file of [await nativeFile(), await swfFile()]) {
      const r = await cli("inspect", file, "--procs", "4");
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`${JOBS} jobs`);
    }
  });

  it("convert streams an SWF file of 60 jobs", async () => {
    const r = await cli("convert", await swfFile(), "--to", "native");
    expect(r.stderr).toBe("");
    expect(r.stdout.trim().split("\n")).toHaveLength(JOBS + 1);
  });

  it("a sweep streams a sorted SWF trace of 60 jobs; an unsorted one is read whole, and stops at the limit", async () => {
    for (const [swap, code] of [
      [false, 0],
      [true, 1],
    ] as const) {
      const file = await writeExperiment({
        name: "limits",
        workload: { type: "swf", path: await swfFile(swap) },
        schedulers: ["easy", "conservative"],
        metrics: ["meanWait"],
      });
      const r = await cli("sweep", file, "--out", await tempDir(), "--quiet", "--jobs", "1");
      expect(r.code, r.stderr).toBe(code);
      if (swap) expect(r.stderr).toContain("the limit of a trace");
      else expect(r.stdout).toMatch(/\nconservative\s/);
    }
  });
});
