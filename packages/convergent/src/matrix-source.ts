import { optionKeys, requireBoolean, requireKnownKeys } from "@sched/errors";
import type { Heuristic } from "./heuristic.js";
import { IncrementalMatrix, REFRESH_TOLERANCE, SHIFT_HORIZON } from "./incremental.js";
import {
  buildMatrixInto,
  type MatrixInput,
  type MatrixSource,
  type MatrixUpdate,
  Scratch,
  type SourceWithCore,
  UNCHECKED_UPDATE,
} from "./matrix.js";
import { checkHeuristics, checkMatrixInput } from "./matrix-checks.js";
import { finiteOption } from "./option-checks.js";
import {
  type HeuristicConstants,
  type HeuristicReadings,
  resolveConstants,
  resolveReadings,
} from "./paper-heuristics.js";
import { PaperIncrementalMatrix } from "./paper-incremental.js";

/** Options of {@link matrixSource}. */
export interface MatrixSourceOptions {
  /**
   * The heuristics, in order. When absent, the paper's seven with `constants` and `readings`,
   * computed by one fused pass per row (the same matrix as `paperHeuristics(constants,
   * readings)`, up to rounding: see the README, Interpretation 13).
   * @defaultValue the paper's seven
   */
  readonly heuristics?: readonly Heuristic[];
  /**
   * The paper's heuristics' constants (ignored with `heuristics`).
   * @defaultValue `PAPER_CONSTANTS`
   */
  readonly constants?: HeuristicConstants;
  /**
   * The heuristics' readings (Deadline, Wait minimization; ignored with `heuristics`).
   * @defaultValue `PAPER_READINGS`
   */
  readonly readings?: HeuristicReadings;
  /**
   * Keep rows across events and replace a row only when it moved by more than
   * `refreshTolerance` (the incremental variants); otherwise every row is rebuilt at every
   * event.
   * @defaultValue `false`
   */
  readonly incremental?: boolean;
  /**
   * Incremental sources: how far an entry may drift before its row is recomputed.
   * @defaultValue {@link REFRESH_TOLERANCE}
   */
  readonly refreshTolerance?: number;
  /**
   * Incremental sources: seconds of clock after which the uniform anti-aging shift is re-based.
   * @defaultValue {@link SHIFT_HORIZON}
   */
  readonly shiftHorizon?: number;
}

/** The keys of {@link MatrixSourceOptions}, all of them (checked by the compiler). Internal. */
export const MATRIX_SOURCE_KEYS = optionKeys<MatrixSourceOptions>({
  heuristics: true,
  constants: true,
  readings: true,
  incremental: true,
  refreshTolerance: true,
  shiftHorizon: true,
});

const WHERE = "@sched/convergent/matrixSource";

/** Every row rebuilt at every event by the given heuristics (any heuristics). */
class FromScratchMatrix implements SourceWithCore {
  readonly incremental = false;
  readonly #heuristics: readonly Heuristic[];
  readonly #scratch = new Scratch();

  constructor(heuristics: readonly Heuristic[]) {
    this.#heuristics = heuristics;
  }

  update(input: MatrixInput): MatrixUpdate {
    checkMatrixInput(WHERE, "input", input);
    return this[UNCHECKED_UPDATE](input);
  }

  [UNCHECKED_UPDATE](input: MatrixInput): MatrixUpdate {
    const matrix = buildMatrixInto(input, this.#heuristics, this.#scratch, WHERE);
    const changedRows = Array.from({ length: matrix.rows }, (_, i) => i);
    return { matrix, changedRows, costs: undefined, shift: 0 };
  }

  reset(): void {}
}

/**
 * The Job-Machine matrix source for `options`: one of four behind the {@link MatrixSource}
 * contract. The paper's seven heuristics (no `heuristics` given) are computed by the fused row
 * computation, from scratch or incrementally; other heuristics by the generic row builder
 * ({@link IncrementalMatrix} when incremental). The `convergent` scheduler and
 * `convergentPass` make theirs here (incremental exactly for the `"imfs"` matcher).
 *
 * Complexity: O(1) to make; see each source for `update`.
 *
 * @throws InvalidInputError naming the option (`options.refreshTolerance`,
 *   `options.constants.deadlineMax`, …) when it is invalid.
 * @example
 * ```ts
 * const source = matrixSource({ incremental: true, constants: { overhead: 800 } });
 * const { matrix, changedRows } = source.update({ now, platform, jobs });
 * ```
 */
export function matrixSource(options: MatrixSourceOptions = {}): MatrixSource {
  requireKnownKeys(WHERE, "options", options, MATRIX_SOURCE_KEYS);
  const incremental = requireBoolean(WHERE, "options.incremental", options.incremental ?? false);
  const tolerance = finiteOption(
    WHERE,
    "options.refreshTolerance",
    options.refreshTolerance,
    REFRESH_TOLERANCE,
    false,
  );
  const horizon = finiteOption(
    WHERE,
    "options.shiftHorizon",
    options.shiftHorizon,
    SHIFT_HORIZON,
    true,
  );
  if (options.heuristics !== undefined) {
    checkHeuristics(WHERE, "options.heuristics", options.heuristics);
    return incremental
      ? new IncrementalMatrix({ heuristics: options.heuristics, tolerance, horizon })
      : new FromScratchMatrix(options.heuristics);
  }
  return new PaperIncrementalMatrix({
    constants: resolveConstants(WHERE, options.constants, "options.constants"),
    readings: resolveReadings(WHERE, options.readings, "options.readings"),
    incremental,
    tolerance,
    horizon,
  });
}
