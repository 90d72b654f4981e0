import { join } from "node:path";
import { bench, describe } from "vitest";
import { builtCliAndFolder, loadAverage, lublinGenArgs, measure } from "./whole-process.js";

// What the lost-jobs check and the progress line cost a run, whole processes on a Lublin-Feitelson
// trace (256 processors, seed 1): `run -s easy` on the pooled kernel and on the general engine
// (which now always passes records to a sink, to name the lost jobs), `demo` (now streamed in
// chunks), and `run` with `--progress` against without. RUN_GUARD_BENCH_BASELINE=path/to/cli.js
// (another build, e.g. main's, made with `pnpm exec tsup --out-dir DIR` in apps/sim) is measured
// too, interleaved with this build REPS times each (RUN_GUARD_BENCH_REPS, 3), and the ratios of
// the minimum CPU printed; stdout must be the same bytes. RUN_GUARD_BENCH_JOBS sets the trace's
// size (200000).

const JOBS = Number(process.env.RUN_GUARD_BENCH_JOBS ?? "200000");
const REPS = Number(process.env.RUN_GUARD_BENCH_REPS ?? "3");
const BASELINE = process.env.RUN_GUARD_BENCH_BASELINE;
const once = { iterations: 1, warmupIterations: 0, time: 0, warmupTime: 0 };

let measured = false;
const built = builtCliAndFolder("sched-sim-run-guard-");

/** The commands measured, by name: the words after the CLI. */
function commands(trace: string): Record<string, string[]> {
  return {
    "run pooled": ["run", "-w", trace, "-s", "easy"],
    "run general": ["run", "-w", trace, "-s", "easy", "--engine", "general"],
    demo: ["demo", "--jobs", "20000", "--load", "0.7"],
  };
}

const min = (xs: readonly number[]) => Math.min(...xs);

describe("the lost-jobs check and --progress, whole process: CPU", () => {
  bench(
    `run -s easy (pooled, general) on ${JOBS} Lublin jobs, demo, with and without --progress`,
    () => {
      // vitest may call a bench function more than once: measure once.
      if (measured) return;
      measured = true;
      const trace = join(built.dir, "lublin.swf");
      measure([process.execPath, built.cli, ...lublinGenArgs(JOBS, trace)]);
      const cmds = commands(trace);
      const cpu = new Map<string, number[]>();
      const stdout = new Map<string, string>();
      const add = (key: string, words: readonly string[], cli: string) => {
        const r = measure([process.execPath, cli, ...words]);
        cpu.set(key, [...(cpu.get(key) ?? []), r.cpu]);
        stdout.set(key, r.stdout);
      };
      for (let k = 0; k < REPS; k++) {
        for (const [name, words] of Object.entries(cmds)) {
          if (BASELINE !== undefined) add(`base ${name}`, words, BASELINE);
          add(name, words, built.cli);
          add(`${name} --progress`, [...words, "--progress"], built.cli);
        }
      }
      const parts: string[] = [];
      let identical = true;
      for (const name of Object.keys(cmds)) {
        const now = min(cpu.get(name)!);
        const progress = min(cpu.get(`${name} --progress`)!);
        let text = `${name} ${now.toFixed(2)} s, --progress x${(progress / now).toFixed(3)}`;
        if (BASELINE !== undefined) {
          const base = min(cpu.get(`base ${name}`)!);
          text += `, this build / baseline x${(now / base).toFixed(3)}`;
          identical &&= stdout.get(`base ${name}`) === stdout.get(name);
        }
        identical &&= stdout.get(`${name} --progress`) === stdout.get(name);
        parts.push(text);
      }
      console.log(
        `[run-guard] ${JOBS} jobs, min CPU of ${REPS}: ${parts.join("; ")}; same stdout: ${identical ? "yes" : "NO"}; load ${loadAverage()}`,
      );
      if (!identical) throw new Error("stdout differs between builds or with --progress");
    },
    once,
  );
});
