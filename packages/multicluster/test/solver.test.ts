import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { InvalidInputError, SchedError } from "@sched/core";
import { describe, expect, it } from "vitest";
import { loadSolver } from "../src/index.js";

// The steps share this file's one runtime cache, so they run in order. The browser's way (the
// default beside the page, locateFile over HTTP) is tested in tests/artifacts/test/browser.test.ts.
const WASM = createRequire(import.meta.url).resolve("highs/runtime");
const LP =
  "Maximize\n obj: x + y\nSubject To\n c: x + 2 y <= 4\nBounds\n 0 <= x <= 3\n 0 <= y <= 3\nEnd";

describe("loadSolver", () => {
  it("rejects more than one source of highs.wasm, naming them, without starting a load", async () => {
    const bytes = readFileSync(WASM);
    await expect(loadSolver({ locateFile: () => WASM, wasmBinary: bytes })).rejects.toThrow(
      "@sched/multicluster/loadSolver: options gives locateFile and wasmBinary, expected at most one way to find highs.wasm",
    );
    await expect(loadSolver({ locateFile: "x" as never })).rejects.toBeInstanceOf(
      InvalidInputError,
    );
  });

  it("a load that fails names the file it tried and is forgotten", async () => {
    const error = await loadSolver({ locateFile: (f) => `/nonexistent/${f}` }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SchedError);
    expect(error).toMatchObject({ code: "SOLVER_LOAD" });
    expect((error as Error).message).toMatch(
      /^@sched\/multicluster\/loadSolver: could not load HiGHS from \/nonexistent\/highs\.wasm: .*pass locateFile, wasmBinary or wasmModule/,
    );
  });

  it("then loads from the bytes it is given, solves, and is shared by later calls", async () => {
    const highs = await loadSolver({ wasmBinary: readFileSync(WASM) });
    const solution = highs.solve(LP);
    expect(solution.Status).toBe("Optimal");
    expect(solution.ObjectiveValue).toBeCloseTo(3.5, 9);
    expect(await loadSolver()).toBe(highs);
  });

  it("options given once HiGHS is loaded are refused, since they could not take effect", async () => {
    await expect(loadSolver({ locateFile: (f) => f })).rejects.toThrow(
      /options were given after HiGHS started loading/,
    );
  });
});
