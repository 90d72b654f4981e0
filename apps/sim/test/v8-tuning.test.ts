import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { v8FlagsFor } from "../src/v8-tuning.js";

describe("v8FlagsFor (the inlining budgets the CLI sets)", () => {
  it("sets both budgets when the user chose none", () => {
    expect(v8FlagsFor([], "")).toBe(
      "--max-inlined-bytecode-size-cumulative=300 --max-inlined-bytecode-size=200",
    );
    expect(v8FlagsFor(["--enable-source-maps"], "--max-old-space-size=4096")).not.toBeNull();
  });

  it("leaves the budgets to the user who set one, in node's arguments or NODE_OPTIONS, either spelling", () => {
    expect(v8FlagsFor(["--max-inlined-bytecode-size=460"], "")).toBeNull();
    expect(v8FlagsFor([], "--max_inlined_bytecode_size_cumulative=920")).toBeNull();
    expect(v8FlagsFor(["--stack-size=2000"], "--max-inlined_bytecode-size=1")).toBeNull();
  });

  it("names flags this Node's V8 knows (V8 ignores a misspelt flag with a note on stdout)", () => {
    const flags = v8FlagsFor([], "");
    const child = spawnSync(
      process.execPath,
      ["-e", `require("node:v8").setFlagsFromString(${JSON.stringify(flags)})`],
      { encoding: "utf8" },
    );
    expect(child.status).toBe(0);
    expect(child.stdout + child.stderr).toBe("");
    // The check itself: a misspelt flag is reported.
    const typo = spawnSync(
      process.execPath,
      ["-e", `require("node:v8").setFlagsFromString("--max-inlined-bytecode-sise=200")`],
      { encoding: "utf8" },
    );
    expect(typo.stdout + typo.stderr).toMatch(/unrecognized flag/);
  });
});
