import { setFlagsFromString } from "node:v8";

/**
 * The optimizing compiler's inlining budgets the CLI runs with: at most 300 bytes of bytecode
 * inlined into one function in all (V8's default in Node 20: 920), and at most 200 per inlined
 * function (default 460).
 *
 * Why: a whole `sched-sim run` of a trace such as KTH-SP2 (28k jobs, about a second of CPU) spends
 * about a third of its CPU in TurboFan, compiling the simulation's hot functions on V8's
 * background threads (callgrind: 32% of the instructions; /proc: 0.45 s of 1.1 s on threads other
 * than the main one). The hot functions inline each other deeply (the event loop inlines the
 * scheduler call, which inlines the policy's verbs, ...), and a graph's compile cost grows with
 * what it inlines. Smaller budgets cut that compile work, and a long run, where compiling is a
 * small part, is no slower: a short run is cheaper and a long one costs the same. Measured
 * (interleaved rounds, load 4-6): `sched-sim run -s easy --clean` on KTH-SP2, CPU median 0.87 s
 * against 1.05 s with V8's defaults (11 rounds); EASY on 300,000 Lublin jobs 3.70 s against
 * 3.77 s, conservative 3.78 s against 3.80 s (5 rounds). See the README, Development.
 *
 * JIT heuristics only: the results are the same bytes either way.
 */
const INLINING_BUDGETS =
  "--max-inlined-bytecode-size-cumulative=300 --max-inlined-bytecode-size=200";

/**
 * The V8 flags {@link tuneV8} sets for a process started with `execArgv` (`node`'s own
 * arguments) and `nodeOptions` (the `NODE_OPTIONS` environment variable): {@link
 * INLINING_BUDGETS}, or null when the user chose inlining budgets of their own in either (V8
 * takes a flag's `-` and `_` spellings alike).
 */
export function v8FlagsFor(execArgv: readonly string[], nodeOptions: string): string | null {
  const chosen = [...execArgv, nodeOptions].some((a) =>
    /max[-_]inlined[-_]bytecode[-_]size/.test(a),
  );
  return chosen ? null : INLINING_BUDGETS;
}

/**
 * Sets {@link INLINING_BUDGETS} for this process (call it first thing, before the simulation's
 * code runs), unless the user chose inlining budgets of their own (in `node`'s arguments or in
 * `NODE_OPTIONS`).
 */
export function tuneV8(): void {
  const flags = v8FlagsFor(process.execArgv, process.env.NODE_OPTIONS ?? "");
  if (flags !== null) setFlagsFromString(flags);
}
