import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { cli, tempDir } from "./helpers.js";

// A streamed run keeps nothing of the trace, so the limits of a trace read whole (lines, bytes)
// do not apply to it: for native input as for SWF (README, "Limits"). With the limits lowered
// here to 20 lines and 2,000 bytes, a sorted native file of 60 jobs runs; the same jobs unsorted
// are read whole to be sorted, and stop at the limit.
vi.mock("../src/limits.js", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../src/limits.js")>()),
  MAX_TRACE_LINES: 20,
  MAX_TRACE_BYTES: 2_000,
}));

const job = (id: number, submit: number) =>
  `{"id":${id},"submit":${submit},"runtime":${30 + (id % 7) * 10},"cores":${1 + (id % 4)}}`;

describe("run on native input past the limits of a trace read whole", () => {
  it("runs a native file without a header line on --procs N (it asked for --procs it was given)", async () => {
    const file = join(await tempDir(), "w.jsonl");
    await writeFile(file, [job(1, 0), job(2, 5)].join("\n"));
    for (const engine of ["auto", "general", "pooled"]) {
      const r = await cli("run", "-w", file, "-s", "easy", "--procs", "4", "--engine", engine);
      expect(r.stderr).toBe("");
      expect(r.stdout).toContain("2 jobs on 4 processors");
    }
  });

  for (const engine of ["auto", "general"]) {
    it(`streams a sorted file of 60 jobs (over 20 lines and 2,000 bytes), --engine ${engine}`, async () => {
      const file = join(await tempDir(), "w.jsonl");
      await writeFile(file, Array.from({ length: 60 }, (_, k) => job(k + 1, 10 * k)).join("\n"));
      const r = await cli("run", "-w", file, "-s", "easy", "--procs", "4", "--engine", engine);
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      expect(r.stdout).toContain("60 jobs on 4 processors");
    });
  }

  it("reads an unsorted one whole, under the limits", async () => {
    const file = join(await tempDir(), "w.jsonl");
    const lines = Array.from({ length: 60 }, (_, k) => job(k + 1, 10 * k));
    [lines[3], lines[4]] = [lines[4]!, lines[3]!];
    await writeFile(file, lines.join("\n"));
    const r = await cli("run", "-w", file, "-s", "easy", "--procs", "4");
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("the limit of a trace");
  });
});
