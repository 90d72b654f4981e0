/**
 * Branch and bound for the single-constraint 0-1 knapsack (Horowitz–Sahni style): depth-first
 * over the items in decreasing value/weight, "take" first, each node bounded by Dantzig's bound
 * (the LP relaxation: fill the residual capacity greedily, the critical item fractionally),
 * skipping items heavier than the residual capacity. Used by `knapsack01` for real weights and
 * by `mkpExact` when a single constraint is binding. Internal to the package.
 */

/** What the search returns; `bound` is a valid upper bound on the optimum. */
export interface DantzigResult {
  readonly items: number[];
  readonly optimal: boolean;
  readonly bound: number;
  readonly nodes: number;
}

/**
 * Maximises `sum v_i x_i` subject to `sum w_i x_i <= capacity` over `items` (indices into `v` and
 * `w`, every one with `v_i > 0` and `w_i <= capacity`), starting from the incumbent `start`
 * (a feasible subset of `items`). Stops after `nodeLimit` nodes. Returns the chosen indices,
 * ascending.
 */
export function dantzigSearch(
  v: Float64Array,
  w: Float64Array,
  capacity: number,
  items: readonly number[],
  start: readonly number[],
  nodeLimit: number,
): DantzigResult {
  const ratio = (i: number): number =>
    (w[i] as number) === 0 ? Number.POSITIVE_INFINITY : (v[i] as number) / (w[i] as number);
  const order = [...items].sort((x, y) => {
    const rx = ratio(x);
    const ry = ratio(y);
    return rx === ry ? x - y : rx > ry ? -1 : 1;
  });
  const N = order.length;
  const ov = new Float64Array(N);
  const ow = new Float64Array(N);
  let integral = true;
  for (let j = 0; j < N; j++) {
    const i = order[j] as number;
    ov[j] = v[i] as number;
    ow[j] = w[i] as number;
    if (!Number.isInteger(ov[j] as number)) integral = false;
  }
  let bestItems = [...start].sort((p, q) => p - q);
  let best = 0;
  for (const i of bestItems) best += v[i] as number;
  const tolerance = (x: number): number => (integral ? 0 : 1e-12 * Math.max(1, Math.abs(x)));
  const round = (ub: number): number =>
    integral ? Math.floor(ub + 1e-9 * Math.max(1, Math.abs(ub))) : ub;

  // The load and value taken before each depth, as prefix sums along the path (a function of
  // the items taken so far, so no drift from taking and giving back). A set's load summed in
  // depth order can differ from the plain sum in item order, the rule `fitsAll` applies, by a
  // few ulps of the capacity per item: an item is tried (and counted in the bound) when it fits
  // within that slack, and a set is kept only when its plain sum fits. Without it, a set whose
  // plain sum is exactly the capacity could be missed, and `optimal` claimed wrongly.
  const used = new Float64Array(N + 1);
  const got = new Float64Array(N + 1);
  const slack = 4 * (N + 1) * Number.EPSILON * capacity;
  const bound = (d: number): number => {
    let ub = got[d] as number;
    const room = capacity - (used[d] as number) + slack;
    let cap = room;
    for (let j = d; j < N; j++) {
      const wj = ow[j] as number;
      if (wj > room) continue;
      if (wj <= cap) {
        cap -= wj;
        ub += ov[j] as number;
      } else {
        ub += ((ov[j] as number) * cap) / wj;
        break;
      }
    }
    return round(ub);
  };

  const rootBound = bound(0);
  const x = new Int8Array(N);
  let nodes = 0;
  let finished = rootBound <= best + tolerance(best);
  let d = 0;
  search: while (!finished) {
    if (nodes >= nodeLimit) break;
    nodes++;
    const value = got[d] as number;
    if (value > best + tolerance(best)) {
      const chosen: number[] = [];
      for (let j = 0; j < d; j++) if (x[j] === 1) chosen.push(order[j] as number);
      chosen.sort((p, q) => p - q);
      // Kept only when its load, as a plain sum in item order, fits.
      let load = 0;
      for (const i of chosen) load += w[i] as number;
      if (load <= capacity) {
        best = value;
        bestItems = chosen;
      }
    }
    if (d < N && bound(d) > best + tolerance(best)) {
      const take = (ow[d] as number) <= capacity - (used[d] as number) + slack;
      x[d] = take ? 1 : 0;
      used[d + 1] = take ? (used[d] as number) + (ow[d] as number) : (used[d] as number);
      got[d + 1] = take ? value + (ov[d] as number) : value;
      d++;
      continue;
    }
    // Backtrack to the deepest item still taken and leave it out instead.
    while (d > 0) {
      d--;
      if (x[d] === 1) {
        x[d] = 0;
        used[d + 1] = used[d] as number;
        got[d + 1] = got[d] as number;
        d++;
        continue search;
      }
    }
    finished = true;
  }
  return {
    items: bestItems,
    optimal: finished,
    bound: finished ? best : Math.max(rootBound, best),
    nodes,
  };
}
