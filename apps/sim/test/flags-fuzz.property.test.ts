import { writeFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { cli, fixture, tempDir } from "./helpers.js";

// The flags of sched-sim, fuzzed in-process (main(argv), no process spawned): from a valid, cheap
// command line, one flag's value is made hostile (empty, NaN, 1e999, -0, 0x10, " 5", 5abc,
// unicode digits, ...), in `--flag value` or `--flag=value` form, or the flag is repeated, given
// without a value, or unknown. Expected: exit 2 with one line `sched-sim: <command>: ...` naming
// the flag, or (for a value the flag takes) a clean run; never a stack trace, an internal error,
// or exit 0 with a nonsense number. FUZZ_RUNS=n samples more; FUZZ_EXHAUSTIVE=1 tries every case.
const RUNS = Number(process.env.FUZZ_RUNS ?? 60);

const HOSTILE = [
  "",
  " ",
  "NaN",
  "nan",
  "1e999",
  "-1e999",
  "Infinity",
  "-Infinity",
  "0x10",
  "0b1",
  "1_000",
  " 5",
  "5 ",
  "5abc",
  "5\n",
  "１２",
  "٣",
  "∞",
  "-1",
  "1.5",
  "1e2",
  "9007199254740993",
  "--procs",
  "=",
  "é",
  "5\r",
  "\u001b[31m5",
];

interface Baseline {
  /** The command's words in sched-sim's messages (`gen lublin`). */
  readonly command: string;
  readonly argv: (dir: string) => string[];
  /** Flags whose baseline value is a whole number: a hostile number accepted is a defect. */
  readonly numeric: readonly string[];
  /** Flags whose value is a real number: any finite decimal may be accepted. */
  readonly reals?: readonly string[];
}

const swf = fixture("small.swf");
const BASELINES: readonly Baseline[] = [
  {
    command: "sweep",
    argv: (dir) => [
      "sweep",
      join(dirname(fileURLToPath(import.meta.url)), "..", "experiments", "load.json"),
      "--out",
      join(dir, "sweep"),
      "--emit",
      "slurm",
      "--shards",
      "4",
      "--parallel",
      "2",
      "--jobs",
      "1",
    ],
    numeric: ["shards", "parallel", "jobs"],
  },
  {
    command: "reproduce",
    argv: (dir) => [
      "reproduce",
      "fcfs-load",
      "--quick",
      "--seeds",
      "1",
      "--jobs",
      "1",
      "--quiet",
      "--set",
      "load=0.5",
      "--out",
      join(dir, "rep"),
    ],
    numeric: ["seeds", "jobs"],
  },
  {
    command: "demo",
    argv: () => [
      "demo",
      "--jobs",
      "20",
      "--procs",
      "8",
      "--load",
      "0.5",
      "--seed",
      "1",
      "--format",
      "json",
    ],
    numeric: ["jobs", "procs", "seed"],
    reals: ["load"],
  },
  {
    command: "run",
    argv: (dir) => [
      "run",
      "--scheduler",
      "easy",
      "--workload",
      swf,
      "--clean",
      "--procs",
      "16",
      "--estimate",
      "runtime",
      "--format",
      "json",
      "--max-events",
      "100000",
      "--max-stalled-events",
      "1000",
      "--engine",
      "general",
      "--out",
      join(dir, "run"),
    ],
    numeric: ["procs", "max-events", "max-stalled-events"],
  },
  {
    command: "inspect",
    argv: () => ["inspect", swf, "--clean", "--procs", "16", "--estimate", "runtime", "--json"],
    numeric: ["procs"],
  },
  {
    command: "convert",
    argv: (dir) => [
      "convert",
      swf,
      "--clean",
      "--to",
      "native",
      "--procs",
      "16",
      "--out",
      join(dir, "c.jsonl"),
    ],
    numeric: ["procs"],
  },
  {
    command: "gen lublin",
    argv: (dir) => [
      "gen",
      "lublin",
      "--jobs",
      "5",
      "--procs",
      "16",
      "--seed",
      "1",
      "--arrivalFactor",
      "1",
      "--out",
      join(dir, "g.swf"),
    ],
    numeric: ["jobs", "procs", "seed"],
    reals: ["arrivalFactor"],
  },
];

/** The flags of a command line that take a value: `--name value` pairs. */
function valueFlags(argv: readonly string[]): { name: string; index: number }[] {
  const out: { name: string; index: number }[] = [];
  for (let i = 0; i < argv.length - 1; i++) {
    const w = argv[i]!;
    if (w.startsWith("--") && !argv[i + 1]!.startsWith("--"))
      out.push({ name: w.slice(2), index: i });
  }
  return out;
}

interface Case {
  readonly baseline: Baseline;
  readonly label: string;
  readonly flag: string;
  readonly value?: string;
  readonly make: (dir: string) => string[];
}

function cases(): Case[] {
  const out: Case[] = [];
  for (const b of BASELINES) {
    const sample = b.argv("/d");
    for (const { name, index } of valueFlags(sample)) {
      for (const value of HOSTILE) {
        for (const form of ["space", "equals"] as const) {
          out.push({
            baseline: b,
            flag: name,
            value,
            label:
              form === "space"
                ? `--${name} ${JSON.stringify(value)}`
                : `--${name}=${JSON.stringify(value)}`,
            make: (dir) => {
              const argv = b.argv(dir);
              // an output path stays in the temporary directory, whatever it is called
              const v = name === "out" ? join(dir, "out", value) : value;
              return form === "space"
                ? [...argv.slice(0, index + 1), v, ...argv.slice(index + 2)]
                : [...argv.slice(0, index), `--${name}=${v}`, ...argv.slice(index + 2)];
            },
          });
        }
      }
      out.push({
        baseline: b,
        flag: name,
        label: `--${name} without a value`,
        make: (dir) => {
          const argv = b.argv(dir);
          return [...argv.slice(0, index), ...argv.slice(index + 2), `--${name}`];
        },
      });
      out.push({
        baseline: b,
        flag: name,
        label: `--${name} repeated`,
        make: (dir) => {
          const argv = b.argv(dir);
          return [...argv, `--${name}`, argv[index + 1]!];
        },
      });
    }
    out.push({
      baseline: b,
      flag: "bogus-flag",
      label: "an unknown flag",
      make: (dir) => [...b.argv(dir), "--bogus-flag", "1"],
    });
  }
  return out;
}

/** What is wrong with the outcome of one case, or undefined. */
async function defectOf(c: Case, dir: string): Promise<string | undefined> {
  // Each case in a folder of its own: a case must not meet another's output (a sample runs
  // them in a random order, and a results folder left by one changed what the next one said).
  const argv = c.make(await mkdtemp(join(dir, "case-")));
  const r = await cli(...argv);
  const what = `sched-sim ${argv.join(" ")} (${c.label}) -> exit ${r.code}, stderr ${JSON.stringify(r.stderr)}`;
  if (r.code !== 0 && r.code !== 1 && r.code !== 2) return `${what}: exit code not 0, 1 or 2`;
  if (
    /\n\s+at |TypeError|RangeError|ReferenceError|Cannot read properties|internal error/.test(
      r.stderr,
    )
  ) {
    return `${what}: a raw JavaScript error`;
  }
  // an error echoing a control character raw would garble the terminal (a carriage return, an
  // escape); a successful run's "wrote <path>" names the path it was given (left as is)
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the characters to find
  if (r.code !== 0 && /[\u0000-\u0009\u000b-\u001f\u007f]/.test(r.stderr)) {
    return `${what}: a control character`;
  }
  if (r.code === 2) {
    const lines = r.stderr.trimEnd().split("\n");
    if (lines.length !== 1) return `${what}: not one line`;
    // `gen lublin`'s parser errors say `gen:`, its model options `gen lublin:` (both name it)
    if (!lines[0]!.startsWith(`sched-sim: ${c.baseline.command.split(" ")[0]}`)) {
      return `${what}: not prefixed`;
    }
    if (!lines[0]!.includes(`--${c.flag}`)) return `${what}: does not name --${c.flag}`;
    return undefined;
  }
  if (r.code === 1) return `${what}: a flag's value reported as bad data (exit 1), not usage (2)`;
  // exit 0: only a value the flag reads as written
  if (c.value !== undefined && c.baseline.numeric.includes(c.flag)) {
    if (!/^-?\d+$/.test(c.value) || !Number.isSafeInteger(Number(c.value))) {
      return `${what}: accepted ${JSON.stringify(c.value)} for a whole number`;
    }
  }
  if (c.value !== undefined && c.baseline.reals?.includes(c.flag)) {
    if (!/^-?\d+(\.\d+)?(e\d+)?$/.test(c.value) || !Number.isFinite(Number(c.value))) {
      return `${what}: accepted ${JSON.stringify(c.value)} for a number`;
    }
  }
  if (c.label.endsWith("without a value") || c.label.endsWith("repeated")) {
    return `${what}: accepted`;
  }
  if (c.flag === "bogus-flag") return `${what}: accepted an unknown flag`;
  return undefined;
}

describe("flags fuzz: a hostile flag ends in exit 2 naming the flag, or a clean run", () => {
  let dir = "";
  beforeAll(async () => {
    dir = await tempDir();
  });
  const all = cases();

  it(`every command line of ${BASELINES.length} baselines (${all.length} cases; a sample unless FUZZ_EXHAUSTIVE)`, async () => {
    if (process.env.FUZZ_EXHAUSTIVE) {
      const defects: string[] = [];
      for (const b of BASELINES) {
        const r = await cli(...b.argv(dir));
        expect(r.code, `${b.command}: ${r.stderr}`).toBe(0);
      }
      for (const c of all) {
        const d = await defectOf(c, dir);
        if (d !== undefined) defects.push(d);
      }
      if (process.env.FUZZ_REPORT) writeFileSync(process.env.FUZZ_REPORT, defects.join("\n"));
      expect(defects).toEqual([]);
      return;
    }
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...all), async (c) => {
        const d = await defectOf(c, dir);
        if (d !== undefined) throw new Error(d);
      }),
      { numRuns: RUNS },
    );
  });
});
