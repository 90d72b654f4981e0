import {
  describeValue,
  InvalidInputError,
  optionKeys,
  requireKnownKeys,
  requireOneOf,
} from "@sched/errors";
import { checkNumber, type MkpInstance } from "./instance.js";
import {
  clustersFor,
  clusterWeights,
  type LicenseCluster,
  LicenseClusters,
  type LicenseCopies,
  type LicenseJob,
} from "./license-clusters.js";
import { EXACT_KEYS, type MkpExactOptions, mkpExact, resolveExactOptions } from "./mkp-exact.js";
import {
  type MkpGreedyOptions,
  mkpGreedy,
  resolveGreedyChoices,
  type SparseInstance,
  sparseFromItems,
  sparseGreedyItems,
} from "./mkp-greedy.js";

const WHERE = "@sched/knapsack/preMatch";

/**
 * The paper's cost of each job for the license knapsack: the mean of the positive entries of its
 * Job-Machine matrix row (`c_i` in section 4.2); 0 for a row with no positive entry (a job that
 * can run nowhere).
 *
 * Complexity: O(total entries).
 *
 * @throws InvalidInputError when a row is not an array or holds NaN / infinite entries.
 * @example
 * jobCosts([[0, 4, 2], [0, 0, 0]]); // => Float64Array [3, 0]
 */
export function jobCosts(matrix: ArrayLike<ArrayLike<number>>): Float64Array {
  return rowCosts(matrix, "@sched/knapsack/jobCosts");
}

function rowCosts(matrix: ArrayLike<ArrayLike<number>>, where: string): Float64Array {
  if (matrix === null || typeof matrix !== "object" || typeof matrix.length !== "number") {
    throw new InvalidInputError(where, "matrix", "is not an array, expected one row per job");
  }
  const out = new Float64Array(matrix.length);
  for (let i = 0; i < matrix.length; i++) {
    const row = matrix[i];
    if (row === null || typeof row !== "object" || typeof row.length !== "number") {
      throw new InvalidInputError(
        where,
        `matrix[${i}]`,
        "is not an array, expected one entry per machine",
      );
    }
    let sum = 0;
    let count = 0;
    for (let j = 0; j < row.length; j++) {
      const p = row[j] as number;
      if (typeof p !== "number" || !Number.isFinite(p)) {
        throw new InvalidInputError(
          where,
          `matrix[${i}][${j}]`,
          `is ${describeValue(p)}, expected a finite number`,
        );
      }
      if (p > 0) {
        sum += p;
        count++;
      }
    }
    out[i] = count === 0 ? 0 : sum / count;
  }
  return out;
}

/** What {@link preMatch} needs: the jobs, the license state and either the matrix or the costs. */
export interface PreMatchInput {
  /** The jobs in the system (queued and running), in queue order. */
  readonly jobs: readonly LicenseJob[];
  /** Copies of each license that can be active at once: the knapsack capacities. */
  readonly copies: LicenseCopies;
  /** The Job-Machine matrix, one row per job (same order as `jobs`); costs come from {@link jobCosts}. */
  readonly matrix?: ArrayLike<ArrayLike<number>>;
  /** Per-job costs `c_i` (same order as `jobs`), instead of `matrix`. */
  readonly costs?: ArrayLike<number>;
  /**
   * A persistent {@link LicenseClusters} kept up to date by the caller (`add` on arrival,
   * `remove` on departure) instead of rebuilding the clustering from `jobs` at every call. It
   * must have been built with the same `copies`, must track every job of `jobs` with the same
   * license requests, and may track more jobs than `jobs` (e.g.
   * every job of the system asking for a license), provided every job it puts in a cluster
   * (every tracked job on a critical license) is in `jobs`. The clusters then list their jobs
   * in the order they were added (arrival order) rather than in `jobs` order, which only
   * matters for ties.
   * @defaultValue none (the clustering of `jobs` is built here)
   */
  readonly clusters?: LicenseClusters;
}

/** Options of {@link preMatch}. */
export interface PreMatchOptions {
  /**
   * `"greedy"`: the paper's surrogate greedy ({@link mkpGreedy}) per cluster;
   * `"exact"`: branch and bound ({@link mkpExact}) per cluster.
   * @defaultValue `"greedy"`
   */
  readonly solver?: "greedy" | "exact";
  /**
   * Options for {@link mkpGreedy} (its `costs` are set by the pre-matching).
   * @defaultValue `{}`
   */
  readonly greedy?: Omit<MkpGreedyOptions, "costs">;
  /**
   * Options for {@link mkpExact}.
   * @defaultValue `{}`
   */
  readonly exact?: MkpExactOptions;
}

/** The keys of {@link PreMatchOptions}, all of them (checked by the compiler). Internal. */
export const PRE_MATCH_KEYS = optionKeys<PreMatchOptions>({
  solver: true,
  greedy: true,
  exact: true,
});

/** The keys of {@link PreMatchOptions.greedy}: the greedy's, but `costs` (set by the pre-matching). */
const PRE_MATCH_GREEDY_KEYS = optionKeys<Omit<MkpGreedyOptions, "costs">>({
  reweight: true,
  strategy: true,
  rhoExponent: true,
});

/** One cluster's knapsack and its solution. */
export interface PreMatchCluster extends LicenseCluster {
  /** The MKP solved: items = `jobs`, values = costs, one constraint per critical license. */
  readonly instance: MkpInstance;
  /** The jobs kept (may run together without exceeding any critical license), in `jobs` order. */
  readonly keep: readonly number[];
  /** Whether the choice is proven optimal. */
  readonly optimal: boolean;
}

/** What {@link preMatch} returns. */
export interface PreMatchResult {
  /** Ids of the jobs to clear from the Job-Machine matrix, in input order. */
  readonly clear: readonly number[];
  /** The critical licenses, sorted by name. */
  readonly critical: readonly string[];
  /** Every cluster with its knapsack and the jobs kept. */
  readonly clusters: readonly PreMatchCluster[];
}

/**
 * The Clustering & Pre-Matching phase of convergent scheduling (section 4.2): cluster the jobs
 * by shared critical licenses ({@link clusterLicenses}), solve one MKP per cluster (items: the
 * cluster's jobs valued by their cost `c_i`; constraints: the cluster's critical licenses with
 * the available copies as capacities and the requested copies as weights), and return the jobs
 * that were not chosen: the caller clears their rows. Jobs on no critical license are never
 * cleared: all their requests fit at once.
 *
 * Complexity: clustering O(total requests), then per cluster of n jobs and m licenses the
 * solver's cost; with the greedy the knapsack is built from the z requests of the cluster's jobs
 * on its licenses (O(z + m)) and solved in O(z + (n + z) log n), and the reported instance is
 * O(n·m).
 *
 * @throws InvalidInputError on bad jobs / copies, when neither or both of `matrix` and `costs`
 * are given, or when their length differs from `jobs`.
 * @example
 * preMatch({
 *   jobs: [{ id: 1, licenses: { cad: 1 } }, { id: 2, licenses: { cad: 1 } }, { id: 3 }],
 *   copies: { cad: 1 },
 *   costs: [2, 5, 1],
 * }).clear; // => [1]
 */
export function preMatch(input: PreMatchInput, options?: PreMatchOptions): PreMatchResult {
  if (input === null || typeof input !== "object") {
    throw new InvalidInputError(
      WHERE,
      "input",
      "is not an object, expected { jobs, copies, matrix | costs }",
    );
  }
  const o = requireKnownKeys(WHERE, "options", options, PRE_MATCH_KEYS) ?? {};
  // Both solvers' options are checked whichever runs (a bad `greedy` passed silently with the
  // exact solver, or when no license was critical); `costs` is the pre-matching's own.
  const greedy = requireKnownKeys(WHERE, "options.greedy", o.greedy, PRE_MATCH_GREEDY_KEYS);
  const exact = requireKnownKeys(WHERE, "options.exact", o.exact, EXACT_KEYS);
  const choices = resolveGreedyChoices(WHERE, "options.greedy", greedy ?? {});
  resolveExactOptions(WHERE, exact, "options.exact");
  const solver = o.solver ?? "greedy";
  requireOneOf(WHERE, "options.solver", solver, ["greedy", "exact"]);
  const { jobs } = input;
  if (!Array.isArray(jobs))
    throw new InvalidInputError(WHERE, "jobs", "is not an array, expected an array of jobs");
  if ((input.matrix === undefined) === (input.costs === undefined)) {
    throw new InvalidInputError(WHERE, "matrix", "and costs: give exactly one of them");
  }
  let costs: ArrayLike<number>;
  if (input.matrix !== undefined) {
    costs = rowCosts(input.matrix, WHERE);
    if (costs.length !== jobs.length) {
      throw new InvalidInputError(
        WHERE,
        "matrix",
        `has ${costs.length} rows, expected ${jobs.length} (one per job)`,
      );
    }
  } else {
    costs = input.costs as ArrayLike<number>;
    if (costs === null || typeof costs !== "object" || costs.length !== jobs.length) {
      throw new InvalidInputError(
        WHERE,
        "costs",
        `has length ${costs?.length ?? "none"}, expected ${jobs.length} (one per job)`,
      );
    }
    for (let i = 0; i < costs.length; i++) {
      const x = costs[i];
      // The field name is built only for the error.
      if (typeof x !== "number" || !Number.isFinite(x))
        checkNumber(WHERE, `costs[${i}]`, x, Number.NEGATIVE_INFINITY);
    }
  }
  if (input.clusters !== undefined && !(input.clusters instanceof LicenseClusters)) {
    throw new InvalidInputError(WHERE, "clusters", "is not a LicenseClusters");
  }
  const clustering = input.clusters ?? clustersFor(WHERE, input.copies, jobs);
  if (input.clusters !== undefined) {
    for (let i = 0; i < jobs.length; i++) {
      const id = (jobs[i] as LicenseJob).id;
      if (!input.clusters.has(id))
        throw new InvalidInputError(WHERE, `jobs[${i}]`, `(id ${id}) is not tracked by clusters`);
    }
  }
  const indexOf = new Map<number, number>();
  for (let i = 0; i < jobs.length; i++) indexOf.set((jobs[i] as LicenseJob).id, i);
  const positionOf = (id: number): number => {
    const i = indexOf.get(id);
    if (i === undefined) {
      throw new InvalidInputError(
        WHERE,
        "clusters",
        `puts job ${id} in a cluster, but it is not in jobs (a persistent clustering must track no clustered job beyond jobs)`,
      );
    }
    return i;
  };

  const cleared = new Set<number>();
  const clusters: PreMatchCluster[] = [];
  for (const cluster of clustering.clusters()) {
    const at = cluster.jobs.map(positionOf);
    const sparse =
      solver === "greedy" ? sparseCluster(clustering, cluster, at, costs, input.copies) : null;
    let instance: MkpInstance;
    let result: { readonly items: readonly number[]; readonly optimal: boolean };
    if (sparse !== null) {
      // The greedy on the instance it would have read, options checked above: same items.
      instance = instanceOf(sparse);
      result = {
        items: sparseGreedyItems(sparse, { costs: sparse.v, ...choices }),
        optimal: false,
      };
    } else {
      const values = at.map((i) => costs[i] as number);
      const weights = cluster.licenses.map((license) =>
        at.map((i) => (jobs[i] as LicenseJob).licenses?.[license] ?? 0),
      );
      const capacities = cluster.licenses.map((license) => input.copies[license] ?? 0);
      instance = { values, weights, capacities };
      // The exact solver, or the greedy on an instance it refuses (its error names the field).
      result = solver === "greedy" ? mkpGreedy(instance, o.greedy) : mkpExact(instance, o.exact);
    }
    const chosen = new Set(result.items);
    const keep: number[] = [];
    cluster.jobs.forEach((id, item) => {
      if (chosen.has(item)) keep.push(id);
      else cleared.add(id);
    });
    clusters.push({ ...cluster, instance, keep, optimal: result.optimal });
  }
  const clear = jobs.map((job) => job.id).filter((id) => cleared.has(id));
  return { clear, critical: clustering.critical(), clusters };
}

/**
 * A cluster's knapsack as `mkpGreedy` would read it (items: the cluster's jobs, valued by their
 * cost; one constraint per critical license, capacity = its copies, weight = the copies the job
 * asks for), by its nonzero weights, from the requests `clustering` tracks (the licenses each job
 * asks for, copies > 0, checked when it was added) instead of looking every critical license up
 * in every job's record. The same instance: `preMatch`'s contract has the clustering track every
 * job of `jobs` with its license requests. `null` when a capacity is not a finite number >= 0:
 * the caller then builds the instance in full and the greedy's own check throws, naming the field.
 */
function sparseCluster(
  clustering: LicenseClusters,
  cluster: LicenseCluster,
  at: readonly number[],
  costs: ArrayLike<number>,
  copies: LicenseCopies,
): SparseInstance | null {
  const { licenses, jobs } = cluster;
  const n = at.length;
  const m = licenses.length;
  const c = new Float64Array(m);
  for (let k = 0; k < m; k++) {
    const x = copies[licenses[k] as string] ?? 0;
    if (!(typeof x === "number" && Number.isFinite(x) && x >= 0)) return null;
    c[k] = x;
  }
  const v = new Float64Array(n);
  for (let item = 0; item < n; item++) v[item] = costs[at[item] as number] as number;
  const { start, k, w } = clusterWeights(clustering, licenses, jobs);
  return sparseFromItems(n, m, v, c, start, k, w);
}

/** The {@link MkpInstance} of a sparse one, with plain arrays (as `preMatch` reports it). */
function instanceOf(sparse: SparseInstance): MkpInstance {
  const { n, m, v, c, itemStart, itemK, itemW } = sparse;
  const weights: number[][] = [];
  for (let k = 0; k < m; k++) weights.push(new Array<number>(n).fill(0));
  for (let i = 0; i < n; i++) {
    for (let p = itemStart[i] as number; p < (itemStart[i + 1] as number); p++)
      (weights[itemK[p] as number] as number[])[i] = itemW[p] as number;
  }
  return { values: plain(v), weights, capacities: plain(c) };
}

/** `x` as a plain array (a loop: `Array.from` on a typed array is slow). */
function plain(x: Float64Array): number[] {
  const out = new Array<number>(x.length);
  for (let i = 0; i < x.length; i++) out[i] = x[i] as number;
  return out;
}
