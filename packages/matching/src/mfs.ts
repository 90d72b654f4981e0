import { addRowToFreeColumn, DEFAULT_SEARCH, type SearchOptions } from "./bidi.js";
import { CandidateLists } from "./candidates.js";
import { setColumnCopy } from "./column-cache.js";
import { scanWeights } from "./cost.js";
import { jvInit } from "./init.js";
import { finish } from "./result.js";
import { NONE, SolverState } from "./solver-state.js";
import type { ExactMatching, MatchingInput } from "./types.js";
import { validateShape } from "./validate.js";

/** Rows left to the searches below which `mfs` scans every row in full (see `candidates.ts`). */
const MIN_SEARCHES_FOR_LISTS = 16;
/** Columns per free column above which a search scans rows through their lists. */
const MIN_COLUMNS_PER_FREE = 16;
/**
 * Rows scanned per one-sided search, on average over those so far (at least
 * {@link MIN_OBSERVED_SEARCHES} of them), from which the next ones scan rows through their
 * lists whatever the free columns predict (while the lists seldom have to be read in full).
 */
const LONG_SEARCH_ROWS = 4;
const MIN_OBSERVED_SEARCHES = 8;
/** Lists used on that evidence stop after 64 scans when more than one in 8 read its row in full. */
const OBSERVED_EXPANSION_SHARE = 8;

function seldomExpanded(lists: CandidateLists | undefined): boolean {
  return (
    lists !== undefined &&
    (lists.scans < 64 || lists.expansions * OBSERVED_EXPANSION_SHARE <= lists.scans)
  );
}

/**
 * Maximum Flow Search: an optimal matching of the weight matrix, exactly as the paper defines
 * it: among the matchings of **maximum cardinality**, one of **maximum total weight**
 * (ineligible pairs, `<= 0`, are never used).
 *
 * A shortest-augmenting-path (Hungarian / Jonker-Volgenant family) solver with potentials on
 * typed arrays: Jonker-Volgenant's start with a maximum matching on tight pairs (which solves
 * most integer-weighted problems outright), level-wise Dijkstra searches (scanning rows through
 * lists of their cheapest columns where that pays, with the same result), and searches from
 * both ends for the last rows (see the README, "How MFS works"). The matrix is transposed when
 * it has more rows than columns, so the solver always adds the shorter side one line at a time.
 * Cardinality comes first exactly, by a counting argument and not by a large constant: the
 * cardinality is maximum for any finite weights, huge or tiny; the weight is maximum up to
 * floating-point rounding (exact for integer weights with sums below 2^53).
 *
 * Ties: several optimal matchings may exist; the one returned is fixed by the input (the start
 * breaks ties by lowest index; the rows it leaves are added in increasing index; each search
 * settles equal distances breadth first, and the first free column reached ends it; see the
 * README, "Ties and determinism").
 *
 * Complexity: `O(s^2 l)` time worst case with `s = min(rows, cols)`, `l = max(rows, cols)`
 * (`O(N^3)` square), usually much less; `O(rows + cols)` memory besides the matrix when it is a
 * `Float64Array` with `rows <= cols` (read in place), else one copy of it (a transposed copy of
 * at most 2 MB is kept by the module for the next solve instead of being dropped).
 *
 * @param matrix the weight matrix (never modified)
 * @returns the matching, its size and weight, and a `state` for {@link imfs}
 * @throws {InvalidInputError} on a malformed matrix (sizes, length, NaN or `+Infinity`)
 * @example
 * ```ts
 * mfs({ rows: 2, cols: 2, weights: new Float64Array([5, 1, 1, 0]) });
 * // rowToCol [1, 0], size 2, weight 2: two pairs beat the single pair of weight 5
 * ```
 */
export function mfs(matrix: MatchingInput): ExactMatching {
  return exactSolve(matrix, DEFAULT_SEARCH);
}

/**
 * The body of {@link mfs}, with the tuning of its searches as a parameter (internal: tests and
 * benchmarks vary it; any tuning gives an optimal result).
 */
export function exactSolve(matrix: MatchingInput, search: SearchOptions): ExactMatching {
  const where = "@sched/matching/mfs";
  validateShape(where, matrix);
  const { rows, cols } = matrix;
  const transposed = rows > cols;
  const n = transposed ? cols : rows;
  const m = transposed ? rows : cols;
  // Column reduction (the Jonker-Volgenant start) when the matrix is square or nearly so (at
  // most one extra column per 128 rows). Without it, the last rows of a nearly square matrix need
  // long augmenting paths (few free columns to end on): 1000 x 999 took twice as long as
  // 1000 x 1000. It leaves free columns with negative potentials, repaired at the end; with more
  // spare columns those repairs cost more than the reduction saves (README, "Benchmarks").
  const reduce = (m - n) * 128 <= n;
  // The weights are read in place (a Float64Array that needs no transposition) or copied once
  // into the solver's orientation; either way the solver reads rows contiguously.
  const { W, scale, colMax, argRow, tightCols, tightCount } = scanWeights(
    where,
    matrix,
    transposed,
    reduce,
  );
  const engine = new SolverState(n, m, W, { scale, rowStride: m, colStride: 1 });
  jvInit(engine, colMax, argRow, search.candidates, tightCols, tightCount);
  // The rows left free, in increasing index: one-sided searches while many columns are free
  // (the nearest free column is close), both-ended ones for the last rows, whose paths are
  // long (few free columns to end on).
  let free = engine.freeRealColumns();
  // While only one-sided searches run, column potentials only fall, so each row's list of
  // cheapest columns, taken once, stays a valid shortcut (`candidates.ts`); a two-sided
  // search may raise a potential, so the lists go before the first one. They pay only when
  // rows are scanned again by later searches, so only (1) with enough rows left to the
  // searches: with few (integer weights, where the start does nearly everything) each row is
  // scanned about once, and building its list costs more than the plain scan; and (2) in a
  // search that is likely long: one ends at the first free column it reaches, so with `f` of
  // `m` columns free it settles about `m / f` (README, "How MFS works").
  const freshLists = (): void =>
    engine.setCandidates(new CandidateLists(n, search.candidates, search.candidateGates));
  if (search.candidates > 0 && free > search.maxFreeTargets) {
    let rowsLeft = 0;
    for (let i = 0; i < n; i++) if (engine.rowToCol[i] === NONE) rowsLeft++;
    if (rowsLeft >= MIN_SEARCHES_FOR_LISTS || !search.candidateGates) {
      freshLists();
    }
  }
  // Many free columns predict short searches (`m / f`), but where the rows all rank the columns
  // alike (a farm's machines and the jobs they all prefer: convergent scheduling's matrices,
  // transposed) the searches run long anyway, about ten rows each with half the columns free,
  // and each row is scanned again and again: the lists then pay too. Lists taken on that
  // evidence are dropped when the free columns come to predict long searches: built early, their
  // bounds have grown loose (potentials fell since), and fresh ones are read in full less often.
  let searches = 0; // one-sided
  let observedLists = false;
  let refreshed = false; // lists on evidence replaced once (below)
  for (let i = 0; i < n; i++) {
    if (engine.rowToCol[i] !== NONE) continue;
    const before = engine.K;
    if (free > search.maxFreeTargets) {
      const predicted = free * MIN_COLUMNS_PER_FREE <= m || !search.candidateGates;
      if (predicted && observedLists) {
        observedLists = false;
        freshLists();
      }
      const long =
        !predicted &&
        searches >= MIN_OBSERVED_SEARCHES &&
        engine.rowScans >= LONG_SEARCH_ROWS * searches;
      const lists = engine.candidates;
      if (long && !refreshed && lists !== undefined && !seldomExpanded(lists)) {
        // Read in full too often: their bounds have grown loose. Fresh ones, once (on
        // farm-shaped matrices the searches then stay on lists; more often did not pay).
        refreshed = true;
        freshLists();
      }
      const observed = long && seldomExpanded(engine.candidates);
      if (observed) observedLists = true;
      engine.useCandidates = predicted || observed;
      engine.augmentRow(i, false, free);
      searches++;
    } else {
      if (engine.candidates !== undefined) engine.setCandidates(undefined);
      // The columns the two-sided searches read (strided) are kept, in a column-major copy
      // that the result's state hands to `imfs`: its first calls after the plan mostly read
      // the same columns (`column-cache.ts`). Not transposed: `imfs` reads a transposed
      // state's columns contiguously anyway.
      if (!transposed && engine.columns === undefined) {
        engine.startColumns = true;
        engine.startVersion = 1;
      }
      if (!addRowToFreeColumn(engine, i, search)) engine.augmentRow(i);
    }
    if (engine.K === before) free--;
  }
  engine.setCandidates(undefined);
  if (reduce) {
    // Column reduction may leave free columns (when more columns than rows, or no perfect
    // matching exists) with a negative potential; restore (D3) so the state is a certificate.
    let inS: Uint8Array | undefined;
    for (let j = 0; j < m; j++) {
      if (engine.colToRow[j] === NONE && engine.v[j]! < 0) {
        inS ??= new Uint8Array(n).fill(1);
        engine.repairColumn(j, inS);
      }
    }
  }
  const result = finish(matrix, engine, transposed, scale);
  const cache = engine.columns;
  if (cache !== undefined) setColumnCopy(result.state, cache, cache.version);
  return result;
}
