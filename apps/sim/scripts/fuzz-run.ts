// The fuzz run of issue 23 at scale: FUZZ_INPUTS inputs (default 10,000) spread evenly over the
// four formats (SWF, plain or gzipped; native JSON Lines; Batsim JSON; experiment files), each
// read by the CLI's reader and by the command line in-process and classified against the
// reference readers of test/fuzz/oracles.ts. Prints the count of each outcome per format and a
// few examples of every bad outcome; fails when there is one. Not part of `pnpm test` (the
// suite runs the same harness on a few hundred inputs, test/fuzz.property.test.ts). From
// apps/sim:
//
//   pnpm fuzz                                     # 10,000 inputs, seed 1
//   FUZZ_INPUTS=2000 FUZZ_SEED=7 pnpm fuzz
import fc from "fast-check";
import { expect, it } from "vitest";
import { FUZZ_FORMATS, type FuzzFormat, fuzzCases } from "../test/fuzz/inputs.js";
import { type Outcome, runCase } from "../test/fuzz/run-case.js";
import { tempDir } from "../test/helpers.js";

const INPUTS = Number(process.env.FUZZ_INPUTS ?? 10_000);
const SEED = Number(process.env.FUZZ_SEED ?? 1);
const BAD = ["internal", "silent", "misplaced", "rejected-valid", "hang"] as const;

/** The column an outcome is counted in: `clean`, `typed ParseError`, `internal`, … */
function column(o: Outcome): string {
  return o.kind === "typed" ? `typed ${o.error}` : o.kind;
}

it(`fuzz: ${INPUTS} inputs over ${FUZZ_FORMATS.length} formats, seed ${SEED}`, async () => {
  const counts = new Map<FuzzFormat, Map<string, number>>();
  const examples = new Map<string, string[]>();
  const dir = await tempDir();
  const started = performance.now();
  let slowest = { ms: 0, what: "" };
  for (const [i, format] of FUZZ_FORMATS.entries()) {
    const n = Math.floor(INPUTS / FUZZ_FORMATS.length) + (i < INPUTS % FUZZ_FORMATS.length ? 1 : 0);
    const row = new Map<string, number>();
    counts.set(format, row);
    for (const c of fc.sample(fuzzCases(format), { seed: SEED + i, numRuns: n })) {
      const t0 = performance.now();
      const outcome = await runCase(c, dir);
      const ms = performance.now() - t0;
      if (ms > slowest.ms)
        slowest = { ms, what: `${format}: ${c.mutations.join("; ") || "unmutated"}` };
      const key = column(outcome);
      row.set(key, (row.get(key) ?? 0) + 1);
      if ("detail" in outcome) {
        const list = examples.get(outcome.kind) ?? [];
        if (list.length < 5) {
          list.push(`${format} [${c.mutations.join("; ")}]: ${outcome.detail.slice(0, 400)}`);
        }
        examples.set(outcome.kind, list);
      }
    }
  }
  const columns = [
    "clean",
    ...[...new Set([...counts.values()].flatMap((r) => [...r.keys()]))]
      .filter((k) => k.startsWith("typed "))
      .sort(),
    ...BAD,
  ];
  const total = (k: string) => [...counts.values()].reduce((s, r) => s + (r.get(k) ?? 0), 0);
  const width = Math.max(...columns.map((c) => c.length)) + 2;
  const lines = [
    `fuzz: ${INPUTS} inputs, seed ${SEED}, ${((performance.now() - started) / 1000).toFixed(1)} s (slowest input ${slowest.ms.toFixed(0)} ms: ${slowest.what.slice(0, 80)})`,
    `${"outcome".padEnd(width)}${FUZZ_FORMATS.map((f) => f.padStart(12)).join("")}${"total".padStart(12)}`,
    ...columns.map(
      (k) =>
        `${k.padEnd(width)}${FUZZ_FORMATS.map((f) => String(counts.get(f)?.get(k) ?? 0).padStart(12)).join("")}${String(total(k)).padStart(12)}`,
    ),
  ];
  for (const [kind, list] of examples) lines.push("", `${kind}:`, ...list.map((l) => `  ${l}`));
  console.log(lines.join("\n"));
  for (const kind of BAD) expect(total(kind), kind).toBe(0);
});
