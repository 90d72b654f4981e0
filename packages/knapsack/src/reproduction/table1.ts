import { describeValue, InvalidInputError, optionKeys, requireKnownKeys } from "@sched/errors";
import { type MkpInstance, readMkpInstance } from "../instance.js";
import { EXACT_KEYS, type MkpExactOptions, mkpExact } from "../mkp-exact.js";
import { GREEDY_KEYS, type MkpGreedyOptions, mkpGreedy } from "../mkp-greedy.js";

const WHERE = "@sched/knapsack/reproduction/table1Event";

/** Options of {@link table1Event}. */
export interface Table1EventOptions {
  /**
   * Options of the exact solver ({@link mkpExact}). Its node limit decides whether every
   * knapsack can be proven optimal; the result says whether it was.
   * @defaultValue `{}` (`mkpExact`'s defaults)
   */
  readonly exact?: MkpExactOptions;
  /**
   * Options of the paper's greedy ({@link mkpGreedy}).
   * @defaultValue `{}` (the paper's greedy: `"drop"`, Eilon's surrogate, re-weighting)
   */
  readonly greedy?: MkpGreedyOptions;
  /**
   * The clock used to time both solvers, in milliseconds. Times are the only part of the result
   * that differs between identical runs.
   * @defaultValue `performance.now`
   */
  readonly now?: () => number;
  /**
   * Runs of the greedy whose total time is measured (its time is that total divided by the
   * runs): the greedy takes about a millisecond, near the clock's resolution in some browsers.
   * The solution is the same at every run.
   * @defaultValue `1`
   */
  readonly greedyRuns?: number;
}

/** The keys of {@link Table1EventOptions}, all of them (checked by the compiler). */
const TABLE1_KEYS = optionKeys<Table1EventOptions>({
  exact: true,
  greedy: true,
  now: true,
  greedyRuns: true,
});

/** One solver's result on one event (all its knapsacks). */
export interface Table1Solution {
  /** The chosen items of each knapsack, in the order of the instances. */
  readonly items: readonly (readonly number[])[];
  /** The total value over the event's knapsacks. */
  readonly value: number;
  /**
   * License usage in %: copies used by the chosen jobs over copies available, summed over every
   * constraint of every knapsack (the critical licenses of the event); 100 for an event with no
   * copy available.
   */
  readonly usagePct: number;
  /** Time to solve every knapsack of the event, in ms (wall clock: not reproducible). */
  readonly timeMs: number;
}

/** What {@link table1Event} returns for one scheduling event. */
export interface Table1Event {
  /** The exact solution ({@link mkpExact}) with its bound and search nodes summed over knapsacks. */
  readonly exact: Table1Solution & { readonly bound: number; readonly nodes: number };
  /** The paper's greedy ({@link mkpGreedy}). */
  readonly greedy: Table1Solution;
  /** How far the greedy is below the exact value, in %: 100·(1 − greedy/exact); 0 when exact is 0. */
  readonly gapPct: number;
  /** The greedy's time as a share of the exact solver's, in % (the paper: "saving 97%" = 3%). */
  readonly timePct: number;
  /** True when every knapsack of the event was proven optimal (then `gapPct` is exact). */
  readonly optimal: boolean;
}

/** License usage of `items` in `instance`: [copies used, copies available]. */
function usage(instance: MkpInstance, items: readonly number[]): [number, number] {
  let used = 0;
  let available = 0;
  for (let k = 0; k < instance.capacities.length; k++) {
    available += instance.capacities[k] as number;
    const row = instance.weights[k] as ArrayLike<number>;
    for (const i of items) used += row[i] as number;
  }
  return [used, available];
}

function solveAll(
  instances: readonly MkpInstance[],
  solve: (instance: MkpInstance) => { items: readonly number[]; value: number },
  now: () => number,
  runs: number,
): { items: (readonly number[])[]; value: number; usagePct: number; timeMs: number } {
  const items: (readonly number[])[] = [];
  let value = 0;
  let used = 0;
  let available = 0;
  const t0 = now();
  for (let run = 0; run < runs; run++) {
    for (const instance of instances) {
      const r = solve(instance);
      if (run > 0) continue;
      items.push(r.items);
      value += r.value;
      const [u, a] = usage(instance, r.items);
      used += u;
      available += a;
    }
  }
  const timeMs = (now() - t0) / runs;
  return { items, value, usagePct: available === 0 ? 100 : (100 * used) / available, timeMs };
}

/**
 * Solves one scheduling event of the paper's Table 1 (convergent scheduling, section 6) with
 * both the exact solver and the paper's greedy, and returns what the table reports per event:
 * license usage of each, their times, the greedy's gap below the exact value and whether the
 * exact value is proven optimal.
 *
 * `instances` are the event's license knapsacks, one per cluster of jobs sharing critical
 * licenses, as {@link preMatch} builds them (`preMatch(...).clusters.map((c) => c.instance)`:
 * items = the cluster's jobs valued by their cost `c_i`, one constraint per critical license
 * with the free copies as capacity).
 *
 * Complexity: one `mkpExact` and `greedyRuns` `mkpGreedy` per instance.
 *
 * @throws InvalidInputError on a malformed instance (named as `instances[i].…`), bad options of
 * this function, or (from the solvers) bad `exact` / `greedy` options.
 * @example
 * const event = table1Event([{ values: [10, 7, 6], weights: [[4, 3, 3], [1, 2, 2]], capacities: [6, 4] }]);
 * // event.exact.value = 13, event.greedy.value = 10, event.gapPct ≈ 23.08, event.optimal = true
 */
export function table1Event(
  instances: readonly MkpInstance[],
  options?: Table1EventOptions,
): Table1Event {
  if (!Array.isArray(instances)) {
    throw new InvalidInputError(
      WHERE,
      "instances",
      "is not an array, expected one MKP per cluster",
    );
  }
  const o = requireKnownKeys(WHERE, "options", options, TABLE1_KEYS) ?? {};
  requireKnownKeys(WHERE, "options.greedy", o.greedy, GREEDY_KEYS);
  requireKnownKeys(WHERE, "options.exact", o.exact, EXACT_KEYS);
  const now = o.now ?? (() => performance.now());
  if (typeof now !== "function") {
    throw new InvalidInputError(WHERE, "options.now", `is ${typeof now}, expected a function`);
  }
  const runs = o.greedyRuns ?? 1;
  if (!Number.isInteger(runs) || runs < 1) {
    throw new InvalidInputError(
      WHERE,
      "options.greedyRuns",
      `is ${describeValue(runs)}, expected an integer >= 1`,
    );
  }
  // Validate every instance first, naming it on failure.
  instances.forEach((instance, i) => {
    try {
      readMkpInstance(WHERE, instance);
    } catch (e) {
      if (!(e instanceof InvalidInputError)) throw e;
      const detail = e.message.slice(`${e.where}: ${e.field} `.length);
      const field = e.field === "instance" ? `instances[${i}]` : `instances[${i}].${e.field}`;
      throw new InvalidInputError(WHERE, field, detail, { cause: e });
    }
  });
  let bound = 0;
  let nodes = 0;
  let optimal = true;
  const exact = solveAll(
    instances,
    (instance) => {
      const r = mkpExact(instance, o.exact);
      bound += r.bound;
      nodes += r.nodes;
      optimal &&= r.optimal;
      return r;
    },
    now,
    1,
  );
  const greedy = solveAll(instances, (instance) => mkpGreedy(instance, o.greedy), now, runs);
  return {
    exact: { ...exact, bound, nodes },
    greedy,
    gapPct: exact.value === 0 ? 0 : 100 * (1 - greedy.value / exact.value),
    timePct: exact.timeMs === 0 ? 0 : (100 * greedy.timeMs) / exact.timeMs,
    optimal,
  };
}

/** One row of Table 1: a license-ratio bin's events summarised as the paper does. */
export interface Table1Row {
  /** Events summarised. */
  readonly events: number;
  /** Events whose exact value is proven optimal. */
  readonly proven: number;
  /** Per solver: mean time (ms), smallest / mean / best license usage (%). */
  readonly exact: Table1Usage;
  readonly greedy: Table1Usage;
  /** Mean over events of the greedy's gap below the exact value, in %. */
  readonly gapPct: number;
  /** The greedy's mean time as a share of the exact solver's mean time, in %. */
  readonly timePct: number;
}

/** Time and license usage of one solver over a bin's events. */
export interface Table1Usage {
  readonly timeMs: number;
  readonly smallestPct: number;
  readonly meanPct: number;
  readonly bestPct: number;
}

function summarise(solutions: readonly Table1Solution[]): Table1Usage {
  const n = solutions.length;
  let time = 0;
  let sum = 0;
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const s of solutions) {
    time += s.timeMs;
    sum += s.usagePct;
    lo = Math.min(lo, s.usagePct);
    hi = Math.max(hi, s.usagePct);
  }
  return n === 0
    ? { timeMs: 0, smallestPct: 0, meanPct: 0, bestPct: 0 }
    : { timeMs: time / n, smallestPct: lo, meanPct: sum / n, bestPct: hi };
}

/**
 * Summarises a bin's events (from {@link table1Event}) into one row of Table 1: per solver the
 * mean time and the smallest (Sml), mean (Avg) and best (Bst) license usage, the mean gap of
 * the greedy below the exact value, the time share and how many events are proven optimal.
 *
 * Complexity: O(events).
 *
 * @example
 * table1Row(events); // { events: 160, proven: 160, exact: { timeMs, smallestPct, … }, … }
 */
export function table1Row(events: readonly Table1Event[]): Table1Row {
  if (!Array.isArray(events)) {
    throw new InvalidInputError(
      "@sched/knapsack/reproduction/table1Row",
      "events",
      "is not an array, expected the results of table1Event",
    );
  }
  const exact = summarise(events.map((e) => e.exact));
  const greedy = summarise(events.map((e) => e.greedy));
  let gap = 0;
  let proven = 0;
  for (const e of events) {
    gap += e.gapPct;
    if (e.optimal) proven++;
  }
  return {
    events: events.length,
    proven,
    exact,
    greedy,
    gapPct: events.length === 0 ? 0 : gap / events.length,
    timePct: exact.timeMs === 0 ? 0 : (100 * greedy.timeMs) / exact.timeMs,
  };
}
