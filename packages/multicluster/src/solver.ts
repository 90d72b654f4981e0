import loadHighs, { type Highs } from "highs";

let solver: Promise<Highs> | undefined;

/**
 * The HiGHS WebAssembly runtime, loaded once per process and shared by every solve (each solve
 * creates its own model and disposes it).
 *
 * Complexity: the first call compiles the Wasm module (tens of ms); later calls are O(1).
 *
 * @example
 * ```ts
 * await loadSolver(); // warm-up, e.g. before timing solves
 * ```
 */
export function loadSolver(): Promise<Highs> {
  solver ??= loadHighs();
  return solver;
}
