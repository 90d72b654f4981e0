import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli, fixture, tempDir } from "./helpers.js";

/**
 * The prefix of a message names the command as the user typed it: `gen lublin --jobs 10` with no
 * `--out` said `gen: option --out FILE is required`, while a bad `--jobs` of the same command said
 * `gen lublin: …`. And a path echoed back on success ("-> PATH", "wrote PATH") has its control
 * characters escaped as the error messages escape them (it was written raw: an escape sequence
 * in a file name recoloured the terminal).
 */
describe("gen: the messages name the command typed, gen MODEL once a model is named", async () => {
  const dir = await tempDir();
  const cases: [string[], string][] = [
    [
      ["gen", "lublin", "--jobs", "10"],
      "sched-sim: gen lublin: option --out FILE is required (FILE.swf or FILE.jsonl)",
    ],
    [
      ["gen", "lublin", "--jobs", "10", "--out", join(dir, "x.txt")],
      `sched-sim: gen lublin: option --out '${join(dir, "x.txt")}': the format is chosen by the extension`,
    ],
    [
      ["gen", "lublin", "--bogus", "1", "--out", join(dir, "x.swf")],
      "sched-sim: gen lublin: unknown option --bogus",
    ],
    // the model after the option: still the command typed
    [
      ["gen", "--jobs", "10", "--jbos=1", "lublin", "--out", join(dir, "x.swf")],
      "sched-sim: gen lublin: unknown option --jbos (did you mean --jobs?)",
    ],
    // no model named, or an unknown one: `gen`
    [["gen", "--jobs", "10"], "sched-sim: gen: missing argument <model>"],
    [["gen", "lublinn", "--out", join(dir, "x.swf")], "sched-sim: gen: unknown model 'lublinn'"],
  ];
  for (const [argv, message] of cases) {
    it(argv.join(" "), async () => {
      const r = await cli(...argv);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(message);
    });
  }
});

describe("a path echoed back on success has its control characters escaped", async () => {
  const dir = await tempDir();
  it("gen: -> PATH", async () => {
    const out = join(dir, "a\u001b[31mred.swf");
    const r = await cli("gen", "lublin", "--jobs", "5", "--out", out);
    expect(r.code).toBe(0);
    expect(existsSync(out)).toBe(true);
    expect(r.stdout).toContain(`-> ${join(dir, "a\\u001b[31mred.swf")}`);
    expect(r.stdout).not.toContain("\u001b");
  });

  it("convert: wrote N jobs to PATH", async () => {
    const out = join(dir, "b\rc.jsonl");
    const r = await cli("convert", fixture("small.swf"), "--clean", "--to", "native", "--out", out);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(join(dir, "b\\u000dc.jsonl"));
    expect(r.stderr).not.toContain("\r");
  });
});
