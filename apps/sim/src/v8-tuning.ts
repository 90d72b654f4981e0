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
 * what it inlines. Smaller budgets cut that compile work; the compiled code is as fast here (a
 * third pass over KTH-SP2 in one process takes the same time either way), so a short run is
 * cheaper and a long one no slower. Measured by `bench/kth-vs-pyss.bench.ts`: CPU median 0.92 s
 * against 1.08 s with V8's defaults, 15 interleaved rounds (load 5-7), see the README.
 *
 * JIT heuristics only: the results are the same bytes either way.
 */
const INLINING_BUDGETS =
  "--max-inlined-bytecode-size-cumulative=300 --max-inlined-bytecode-size=200";

/**
 * Sets {@link INLINING_BUDGETS} for this process (call it first thing, before the simulation's
 * code runs), unless the user chose inlining budgets of their own (in `node`'s arguments or in
 * `NODE_OPTIONS`).
 */
export function tuneV8(): void {
  const chosen = [...process.execArgv, process.env.NODE_OPTIONS ?? ""].some((a) =>
    /max[-_]inlined[-_]bytecode[-_]size/.test(a),
  );
  if (chosen) return;
  setFlagsFromString(INLINING_BUDGETS);
}
