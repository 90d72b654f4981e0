import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { type ModelOption, WORKLOAD_MODELS } from "@sched/workload";
import { describe, expect, it } from "vitest";
import { cli, tempDir } from "./helpers.js";

/** Values every option of the kind refuses, by what is wrong with them. */
function badValues(o: ModelOption): [what: string, value: string][] {
  switch (o.kind) {
    case "integer":
      return [
        ["non-integer", "1.5"],
        ["exponent", "1e3"],
        ["not a number", "ten"],
        ["empty", ""],
        ["out of range", "-1"],
      ];
    case "number":
      return [
        ["not a number", "abc"],
        ["hex", "0x1"],
        ["infinite", "1e999"],
        ["empty", ""],
      ];
    case "range":
      return [
        ["one number", "1"],
        ["three numbers", "1,2,3"],
        ["missing high end", "1,"],
        ["missing low end", ",2"],
        ["not a number", "a,2"],
        ["lo > hi", "4,1"],
        ["out of range", "-5,3"],
        ...(o.element === "integer"
          ? ([
              ["non-integer", "1.5,2"],
              ["exponent", "1e0,2"],
            ] as [string, string][])
          : []),
      ];
    case "list":
      return [
        ["not a number", "1,a"],
        ["missing item", "1,,2"],
        ["empty", ""],
        ["out of range", "-1,1"],
      ];
    default:
      return [];
  }
}

/** Out-of-range values of number options (the model's own checks), one or more per model. */
const OUT_OF_RANGE: readonly [model: string, option: string, value: string][] = [
  ["lublin", "arrivalFactor", "0"],
  ["lublin", "batch.uProb", "1.5"],
  ["lublin", "typeless.a1", "0"],
  ["lublin", "interactive.uMed", "-1"],
  ["convergent", "meanInterArrival", "0"],
  ["convergent", "licenseNeed", "2"],
  ["advance-reservation", "uMed", "12"],
  ["advance-reservation", "artimeFactor", "-1"],
  ["multicluster", "load", "0"],
  ["multicluster", "serviceCV", "0.5"],
  ["elo", "load", "-1"],
  ["oas", "linkBandwidth", "0"],
];

describe("sched-sim gen: a refused model option is said in the command line's words", () => {
  const cases = WORKLOAD_MODELS.flatMap((m) =>
    m.options.flatMap((o) =>
      badValues(o).map(([what, value]) => [m.name, o.name, what, value] as const),
    ),
  );

  it.each([...cases, ...OUT_OF_RANGE.map(([m, o, v]) => [m, o, "out of range", v] as const)])(
    "gen %s --%s, %s (%s): exit 2 naming the flag, no options.X",
    async (model, name, _what, value) => {
      const dir = await tempDir();
      const r = await cli("gen", model, `--${name}=${value}`, "--out", join(dir, "x.swf"));
      expect(r.code, r.stderr).toBe(2);
      const line = r.stderr.trimEnd();
      expect(line.split("\n")).toHaveLength(1);
      expect(line.startsWith(`sched-sim: gen ${model}: option --${name}`), line).toBe(true);
      expect(line).toMatch(new RegExp(`option --${name.replace(".", "\\.")}[ :]`));
      expect(line).not.toContain("options.");
      expect(line).not.toContain("@sched/");
      expect(await readdir(dir)).toEqual([]);
    },
  );

  it("covers every range and list option of every model", () => {
    const covered = new Set(cases.map(([m, o]) => `${m} ${o}`));
    for (const m of WORKLOAD_MODELS) {
      for (const o of m.options) {
        if (o.kind !== "boolean" && o.kind !== "choice") {
          expect(covered.has(`${m.name} ${o.name}`)).toBe(true);
        }
      }
    }
  });

  it("names the end of a range, or the item of a list, that is wrong", async () => {
    const dir = await tempDir();
    const out = join(dir, "c.swf");
    const expected: [argv: string[], message: string][] = [
      [
        ["convergent", "--jobs", "3", "--cpus", "1.5,8"],
        "gen convergent: option --cpus: the low end must be a whole number (digits only), got '1.5' (in '1.5,8')",
      ],
      [
        ["convergent", "--cpus", "1e0,8"],
        "gen convergent: option --cpus: the low end must be a whole number (digits only), got '1e0' (in '1e0,8')",
      ],
      [
        ["convergent", "--cpus", "1,"],
        "gen convergent: option --cpus: the high end is missing, expected a whole number (digits only); got '1,'",
      ],
      [
        ["convergent", "--cpus", "8,1"],
        "gen convergent: option --cpus: the low end (8) is above the high end (1), expected lo <= hi",
      ],
      [
        ["convergent", "--cpus", "0,4"],
        "gen convergent: option --cpus: the low end is 0, expected a number >= 1",
      ],
      [
        ["convergent", "--estimated", "0,4"],
        "gen convergent: option --estimated: the low end is 0, expected a number > 0",
      ],
      [
        ["convergent", "--licenseRatio", "0.5,2"],
        "gen convergent: option --licenseRatio: the high end is 2, expected a probability in [0, 1]",
      ],
      [
        ["convergent", "--estimated", "1,2,3"],
        "gen convergent: option --estimated must be two decimal numbers lo,hi (e.g. 0.5,1e3), got '1,2,3'",
      ],
      [
        ["multicluster", "--maxParallelism", "2,x"],
        "gen multicluster: option --maxParallelism: the high end must be a whole number (digits only), got 'x' (in '2,x')",
      ],
      [
        ["oas", "--powers", "1,0x2"],
        "gen oas: option --powers: item 2 must be a decimal number (e.g. 0.5 or 5e-1), got '0x2' (in '1,0x2')",
      ],
      [
        ["oas", "--powers", "1,0,1"],
        "gen oas: option --powers: item 2 is 0, expected a finite number > 0",
      ],
      [["oas", "--tasks", "1,9"], "gen oas: option --tasks is 1,9, but the platform has 6 nodes"],
    ];
    for (const [argv, message] of expected) {
      const r = await cli("gen", ...argv, "--out", out);
      expect(r.code, argv.join(" ")).toBe(2);
      expect(r.stderr).toBe(`sched-sim: ${message}\n`);
    }
  });

  it("bounds the options that size the platform by the processors of a simulated machine", async () => {
    const dir = await tempDir();
    const out = join(dir, "p.jsonl");
    const expected: [argv: string[], message: string][] = [
      [
        ["convergent", "--machines", "99999999999"],
        "gen convergent: option --machines must be a whole number from 1 to 1000000 (digits only), got '99999999999'",
      ],
      [
        ["convergent", "--licenses", "1000001"],
        "gen convergent: option --licenses must be a whole number from 0 to 1000000 (digits only), got '1000001'",
      ],
      [
        ["elo", "--machines", "1000001"],
        "gen elo: option --machines must be a whole number from 1 to 1000000 (digits only), got '1000001'",
      ],
      [
        ["multicluster", "--clusters", "1000", "--processorsPerCluster", "1001"],
        "gen multicluster: --clusters 1000 x --processorsPerCluster 1001 give 1001000 processors, more than the 1000000 a simulated platform may have",
      ],
      [
        ["oas", "--nodesPerCluster", "400000"],
        "gen oas: --nodesPerCluster 400000 x --powers (3 items) give 1200000 processors, more than the 1000000 a simulated platform may have",
      ],
    ];
    for (const [argv, message] of expected) {
      const r = await cli("gen", ...argv, "--jobs", "3", "--out", out);
      expect(r.code, argv.join(" ")).toBe(2);
      expect(r.stderr).toBe(`sched-sim: ${message}\n`);
    }
    expect(await readdir(dir)).toEqual([]);
  });

  it("reads real range ends by the real rule (exponent and fraction) and writes them as numbers", async () => {
    const dir = await tempDir();
    const out = join(dir, "e.jsonl");
    const r = await cli(
      "gen",
      "elo",
      "--operations",
      "1e3,2.5e6",
      "--speedMflops",
      ".5,9",
      "--out",
      out,
    );
    expect(r.code, r.stderr).toBe(0);
  });
});

describe("sched-sim gen --list", () => {
  it("shows the element kind of ranges and lists: int lo,hi, lo,hi, a,b,…", async () => {
    const r = await cli("gen", "--list");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/--cpus\s+int lo,hi\s+1,8\s/);
    expect(r.stdout).toMatch(/--estimated\s+lo,hi\s+500,3000\s/);
    expect(r.stdout).toMatch(/--maxParallelism\s+int lo,hi\s+1,64\s/);
    expect(r.stdout).toMatch(/--tasks\s+int lo,hi\s+1,nodes\s/);
    expect(r.stdout).toMatch(/--sigma\s+lo,hi\s+0\.5,1\s/);
    expect(r.stdout).toMatch(/--powers\s+a,b,…\s+1,0\.75,0\.5\s/);
    for (const m of WORKLOAD_MODELS) {
      for (const o of m.options) {
        if (o.kind !== "range" && o.kind !== "list") continue;
        const kind = `${o.element === "integer" ? "int " : ""}${o.kind === "range" ? "lo,hi" : "a,b,…"}`;
        expect(r.stdout).toMatch(new RegExp(`--${o.name}\\s+${kind.replace(/[.,…]/g, "\\$&")}\\s`));
      }
    }
  });
});
