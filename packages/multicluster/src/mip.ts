import { InvalidInputError, type Job, type Platform } from "@sched/core";
import { computeOnlyProfile, linkDemand, type ProfileOf } from "./cost.js";
import { checkOasSchedule } from "./oas-check.js";
import { OAS_RULES, ruleOrder } from "./oas-heuristics.js";
import {
  allocationCost,
  allocationOf,
  type OasAssignment,
  type OasInstance,
  oasInstance,
  slotsNeeded,
} from "./oas-instance.js";
import { slottedListSchedule } from "./oas-slotted.js";
import { loadSolver } from "./solver.js";

/** Options of {@link buildOasModel} and {@link solveOas}. */
export interface OasModelOptions {
  /** Slot size `eta`, seconds (> 0). @defaultValue half the mean base time (the paper finds makespans stable below 50%) */
  readonly eta?: number;
  /**
   * Horizon `theta`, slots. @defaultValue the sum over jobs of the slots each needs on the
   * slowest resources, a horizon in which running the jobs one after another always fits
   */
  readonly theta?: number;
  /** Each job's `sigma` and per-task bandwidth. @defaultValue {@link computeOnlyProfile} */
  readonly profile?: ProfileOf;
  /**
   * Add symmetry-breaking rows for identical resources (same cluster, same speed): resource
   * `r'`, the next identical one after `r`, may serve job `j` only if `r` serves some job
   * `j' <= j` (`z_j_r' <= sum_{j' <= j} z_j'_r`). Every schedule has a relabelling of identical
   * resources that satisfies them, so the optimum is unchanged. @defaultValue `true`
   */
  readonly symmetryBreaking?: boolean;
  /**
   * Add the per-resource load cuts `cmax >= sum_j nAt_j_r z_j_r` for every resource `r`, with
   * `nAt_j_r` the slots job `j` needs when its slowest resource is `r` (the jobs on a resource
   * do not overlap, and each holds it for at least `nAt_j_r` slots). Valid: they cut no
   * schedule. @defaultValue `true`
   */
  readonly loadCuts?: boolean;
}

/** Options of {@link solveOas}. */
export interface SolveOasOptions extends OasModelOptions {
  /** Wall-clock limit of the solver, seconds. @defaultValue `60` */
  readonly timeLimit?: number;
  /** Relative MIP gap at which HiGHS stops. @defaultValue `1e-6` */
  readonly relativeGap?: number;
  /**
   * Give HiGHS the best slotted list schedule of the six heuristic orders as a starting
   * solution (so a time-limited solve is never worse than them). @defaultValue `true`
   */
  readonly warmStart?: boolean;
  /**
   * More feasible slotted schedules (one assignment per job, in the order of `jobs`) to
   * consider as the warm start, e.g. {@link slottedPlanFromTrace} of the heuristics' runs; the
   * one with the smallest makespan among these and the list schedules is given to HiGHS. Each
   * is checked with `checkOasSchedule` first. Ignored without `warmStart`. @defaultValue `[]`
   */
  readonly incumbents?: readonly (readonly OasAssignment[])[];
  /**
   * Shrink the horizon to the warm start's makespan: `theta = min(theta, warm start slots)`.
   * No schedule better than the warm start is cut off, and the model shrinks with the horizon.
   * @defaultValue `true`
   */
  readonly tightenHorizon?: boolean;
  /**
   * How to pick the warm start among the candidates (list schedules and `incumbents`): the one
   * with the smallest score, ties by fewer slots. The chosen one is HiGHS' start
   * (`setSolution`) and sets the tightened horizon; when another candidate has fewer slots,
   * it is offered too, at HiGHS' first user-solution checkpoint (it may not come in a short
   * solve). @defaultValue the makespan in slots
   */
  readonly warmStartScore?: (schedule: readonly OasAssignment[]) => number;
}

/** A built model: the LP-format text and its dimensions. */
export interface OasModel {
  /** CPLEX LP format, as HiGHS reads it. */
  readonly lp: string;
  readonly eta: number;
  readonly theta: number;
  readonly variables: number;
  readonly binaries: number;
  readonly constraints: number;
  readonly instance: OasInstance;
}

/** How a solve ended. */
export type OasStatus = "optimal" | "feasible" | "infeasible" | "timeout" | "error";

/** The outcome of {@link solveOas}. */
export interface OasResult {
  /**
   * `optimal`: proven optimal (within `relativeGap`); `feasible`: the time limit stopped the
   * solver with a schedule whose gap is `gap`; `infeasible`: no schedule within `theta` slots
   * (raise `theta`, see `message`); `timeout`: the time limit passed before any schedule was
   * found; `error`: HiGHS failed (see `message`).
   */
  readonly status: OasStatus;
  readonly message: string;
  /** Makespan in slots (`max f_j`), `null` without a schedule. */
  readonly makespanSlots: number | null;
  /** `makespanSlots * eta`: the slotted makespan, seconds. */
  readonly makespan: number | null;
  /** Best lower bound on `makespanSlots` that HiGHS proved. */
  readonly bound: number | null;
  /** Relative gap `(makespanSlots - bound) / makespanSlots`, 0 when optimal. */
  readonly gap: number | null;
  /** One assignment per job, in the order of `jobs`; empty without a schedule. */
  readonly schedule: readonly OasAssignment[];
  readonly eta: number;
  readonly theta: number;
  readonly buildTimeMs: number;
  readonly solveTimeMs: number;
  readonly variables: number;
  readonly constraints: number;
  /** Makespan (slots) of the warm start given to HiGHS, `null` when none. */
  readonly warmStartSlots: number | null;
  /** The warm start given to HiGHS (a feasible schedule), `null` when none. */
  readonly warmStart: readonly OasAssignment[] | null;
  /** Where the warm start came from: `"list <rule>"` or `"incumbent <i>"`; `null` when none. */
  readonly warmStartSource: string | null;
}

const WHERE = "@sched/multicluster/solveOas";

function fmt(x: number): string {
  return Number.isInteger(x) ? String(x) : x.toPrecision(15);
}

/** Adds `coef name` terms to a row, with the sign. */
function term(coef: number, name: string): string {
  if (coef === 0) return "";
  if (coef === 1) return ` + ${name}`;
  if (coef === -1) return ` - ${name}`;
  return coef < 0 ? ` - ${fmt(-coef)} ${name}` : ` + ${fmt(coef)} ${name}`;
}

/**
 * The slot size and horizon {@link buildOasModel} and {@link solveOas} use for these options:
 * `eta` (default half the mean base time) and `theta` (default the sum of every job's slots on
 * the slowest resources), checked; `solveOas` may then shrink `theta` to its warm start.
 *
 * Complexity: O(jobs * resources).
 *
 * @throws InvalidInputError for a non-positive `eta` or `theta`.
 */
export function oasSlotDefaults(
  jobs: readonly Job[],
  platform: Platform,
  options: OasModelOptions = {},
): { eta: number; theta: number } {
  return slotDefaults(
    oasInstance(jobs, platform, options.profile ?? computeOnlyProfile, WHERE),
    options,
  );
}

/** `eta` and `theta` from the options or their defaults, checked. */
function slotDefaults(inst: OasInstance, options: OasModelOptions): { eta: number; theta: number } {
  const J = inst.jobs.length;
  const R = inst.resourceMachine.length;
  const meanBase = J === 0 ? 1 : inst.baseTime.reduce((s, x) => s + x, 0) / J;
  const eta = options.eta ?? meanBase / 2;
  if (!(eta > 0) || !Number.isFinite(eta)) {
    throw new InvalidInputError(WHERE, "options.eta", `is ${String(eta)}, expected a number > 0`);
  }
  const worst = (j: number) => {
    let sp = 0;
    for (let r = 0; r < R; r++) sp = Math.max(sp, inst.slowdown[j * R + r]!);
    return slotsNeeded(inst.baseTime[j]!, inst.sigma[j]! * sp + 1 - inst.sigma[j]!, eta);
  };
  let defaultTheta = 0;
  for (let j = 0; j < J; j++) defaultTheta += worst(j);
  const theta = options.theta ?? Math.max(1, defaultTheta);
  if (!Number.isInteger(theta) || theta < 1) {
    throw new InvalidInputError(
      WHERE,
      "options.theta",
      `is ${String(theta)}, expected an integer >= 1`,
    );
  }
  return { eta, theta };
}

/**
 * Builds the OAS MIP (second paper, Fig. 2, eq. 9-23) in LP format: binaries `x_j_r_t`
 * (job j on resource r in slot t), `z_j_r`, `y_j_t`, continuous `s_j`, `f_j`, `sp_j`,
 * `bw_j_l_t`, `abw_l_t`, the integer slot count `n_j` and the makespan `cmax`, plus binaries
 * `w_j_t` (j runs in slot t), `u_j_k_c` (j has exactly c tasks in cluster k, making eq. 4
 * linear) and continuous `a_j_t` (j has started by slot t). Slots are numbered
 * 1..theta in the model; see the README's Interpretation for each reformulation.
 *
 * Complexity: O(jobs * resources * theta) variables and rows.
 *
 * @throws InvalidInputError for a non-positive `eta` or `theta`, bad profiles, or a job with more
 * cores than the platform.
 *
 * @example
 * ```ts
 * const model = buildOasModel(jobs, platform, { eta: 50, theta: 12 });
 * model.binaries; // jobs * resources * (theta + 1) + jobs * theta + …
 * ```
 */
export function buildOasModel(
  jobs: readonly Job[],
  platform: Platform,
  options: OasModelOptions = {},
): OasModel {
  const inst = oasInstance(jobs, platform, options.profile ?? computeOnlyProfile, WHERE);
  const J = jobs.length;
  const R = inst.resourceMachine.length;
  const { eta, theta: T } = slotDefaults(inst, options);
  const L = platform.links.length;
  const K = platform.clusters.length;
  // bandwidth in units of the largest link, for numerical sanity
  let scale = 1;
  for (const l of platform.links) scale = Math.max(scale, l.bandwidth);

  const x = (j: number, r: number, t: number) => `x_${j}_${r}_${t}`;
  const rows: string[] = [];
  const binaries: string[] = [];
  const generals: string[] = [];
  const bounds: string[] = [];
  let nRows = 0;
  let nVars = 1; // cmax
  const row = (name: string, body: string, sense: string, rhs: number) => {
    rows.push(` ${name}:${body} ${sense} ${fmt(rhs)}`);
    nRows++;
  };

  // valid cut: the work fits on the resources, R * cmax >= sum_j tau_j * n_j
  let area = ` ${R} cmax`;
  const nAtLoad: string[] = Array.from({ length: R }, () => "");
  for (let j = 0; j < J; j++) {
    const tau = inst.tasks[j]!;
    for (let r = 0; r < R; r++) {
      binaries.push(`z_${j}_${r}`);
      for (let t = 1; t <= T; t++) bounds.push(` 0 <= ${x(j, r, t)} <= 1`);
    }
    for (let t = 1; t <= T; t++) {
      binaries.push(`y_${j}_${t}`, `w_${j}_${t}`);
      bounds.push(` 0 <= a_${j}_${t} <= 1`);
    }
    generals.push(`n_${j}`);
    // bounds from the fastest tau_j resources: SP_j and n_j can be no smaller
    const sorted = Array.from(inst.slowdown.subarray(j * R, j * R + R)).sort((a, b) => a - b);
    const spMin = sorted[tau - 1]!;
    const nMin = Math.min(
      T,
      slotsNeeded(inst.baseTime[j]!, inst.sigma[j]! * spMin + 1 - inst.sigma[j]!, eta),
    );
    bounds.push(
      ` s_${j} >= 0`,
      ` f_${j} >= ${nMin}`,
      ` sp_${j} >= ${fmt(spMin)}`,
      ` ${nMin} <= n_${j} <= ${T}`,
    );
    nVars += R * (T + 1) + 3 * T + 4;
    // (9) cmax >= f_j
    row(`c9_${j}`, ` cmax - f_${j}`, ">=", 0);
    for (let r = 0; r < R; r++) {
      // (11) and (13): x_j_r_t = z_j_r AND w_j_t (w_j_t: j runs in slot t), linearised, so x
      // can stay continuous: x <= z, x <= w, x >= z + w - 1
      for (let t = 1; t <= T; t++) {
        row(`c11_${j}_${r}_${t}`, ` ${x(j, r, t)} - z_${j}_${r}`, "<=", 0);
        row(`c13a_${j}_${r}_${t}`, ` ${x(j, r, t)} - w_${j}_${t}`, "<=", 0);
        row(`c13b_${j}_${r}_${t}`, ` ${x(j, r, t)} - z_${j}_${r} - w_${j}_${t}`, ">=", -1);
      }
    }
    // (12) sum_r z = tau
    let s12 = "";
    for (let r = 0; r < R; r++) s12 += ` + z_${j}_${r}`;
    row(`c12_${j}`, s12, "=", tau);
    for (let t = 1; t <= T; t++) {
      // (13) all tasks run together: sum_r x_j_r_t = tau * w_j_t, w_j_t binary ("j runs in t")
      let all = "";
      for (let r = 0; r < R; r++) all += ` + ${x(j, r, t)}`;
      row(`c13_${j}_${t}`, `${all}${term(-tau, `w_${j}_${t}`)}`, "=", 0);
      // (14) nothing before the start slot: w_j_t <= a_j_t = sum_{t' <= t} y_j_t'
      row(
        `c14a_${j}_${t}`,
        ` a_${j}_${t} - y_${j}_${t}${t > 1 ? ` - a_${j}_${t - 1}` : ""}`,
        "=",
        0,
      );
      row(`c14_${j}_${t}`, ` w_${j}_${t} - a_${j}_${t}`, "<=", 0);
      // (17) f_j >= t * w_j_t
      row(`c17_${j}_${t}`, ` f_${j}${term(-t, `w_${j}_${t}`)}`, ">=", 0);
    }
    // (15) one start slot; (16) s_j = sum_t t * y_j_t - 1
    let s15 = "";
    let s16 = ` s_${j}`;
    for (let t = 1; t <= T; t++) {
      s15 += ` + y_${j}_${t}`;
      s16 += term(-t, `y_${j}_${t}`);
    }
    row(`c15_${j}`, s15, "=", 1);
    row(`c16_${j}`, s16, "=", -1);
    // (3)/(18) sp_j >= slowdown of every resource used
    for (let r = 0; r < R; r++) {
      row(`c18_${j}_${r}`, ` sp_${j}${term(-inst.slowdown[j * R + r]!, `z_${j}_${r}`)}`, ">=", 0);
    }
    // valid cut: on resource r, j needs at least nAt_j_r slots (its SP is at least r's
    // slowdown), and the jobs of each resource fit before cmax
    if (options.loadCuts ?? true) {
      for (let r = 0; r < R; r++) {
        const slow = inst.slowdown[j * R + r]!;
        const nAt = Math.min(
          T,
          slotsNeeded(inst.baseTime[j]!, inst.sigma[j]! * slow + 1 - inst.sigma[j]!, eta),
        );
        nAtLoad[r] += term(-nAt, `z_${j}_${r}`);
      }
    }
    // (8) eta * n_j >= Tb * (sigma * sp + 1 - sigma)
    const tb = inst.baseTime[j]!;
    const sg = inst.sigma[j]!;
    const exactRhs = tb * (1 - sg);
    row(
      `c8_${j}`,
      ` ${fmt(eta)} n_${j}${term(-tb * sg, `sp_${j}`)}`,
      ">=",
      exactRhs - 1e-9 * Math.max(1, tb),
    );
    // (19) f_j - s_j = n_j (the span), (20) sum_t w_j_t >= n_j (the slots used): together, the
    // job runs in exactly the n_j slots s_j + 1 .. s_j + n_j
    row(`c19_${j}`, ` f_${j} - s_${j} - n_${j}`, "=", 0);
    let s20 = "";
    for (let t = 1; t <= T; t++) s20 += ` + w_${j}_${t}`;
    row(`c20_${j}`, `${s20} - n_${j}`, ">=", 0);
    area += term(-tau, `n_${j}`);
  }

  // (4), (21), (22): link bandwidth, only for jobs that can use a link
  const bwTerms: string[][] = Array.from({ length: L * T }, () => []);
  for (let j = 0; j < J; j++) {
    const tau = inst.tasks[j]!;
    if (tau <= 1 || inst.ptbw[j]! <= 0) continue;
    const perLink: string[] = Array.from({ length: L }, () => "");
    const big = new Float64Array(L);
    for (let k = 0; k < K; k++) {
      const l = inst.clusterLink[k]!;
      if (l < 0) continue;
      const maxC = Math.min(tau, inst.clusterSize[k]!);
      let one = "";
      let count = "";
      let peak = 0;
      for (let c = 0; c <= maxC; c++) {
        const u = `u_${j}_${k}_${c}`;
        binaries.push(u);
        nVars++;
        one += ` + ${u}`;
        count += term(c, u);
        const g = linkDemand(c, tau, inst.ptbw[j]!) / scale;
        perLink[l] += term(-g, u);
        peak = Math.max(peak, g);
      }
      row(`c4a_${j}_${k}`, one, "=", 1);
      let members = "";
      for (let r = 0; r < R; r++) if (inst.resourceCluster[r] === k) members += ` - z_${j}_${r}`;
      row(`c4b_${j}_${k}`, `${count}${members}`, "=", 0);
      big[l]! += peak;
    }
    for (let l = 0; l < L; l++) {
      if (big[l] === 0) continue;
      for (let t = 1; t <= T; t++) {
        // bw >= BW_j^l - G * (1 - running_j_t), running = sum_r x / tau
        const bw = `bw_${j}_${l}_${t}`;
        nVars++;
        bounds.push(` ${bw} >= 0`);
        row(
          `c21b_${j}_${l}_${t}`,
          ` ${bw}${perLink[l]}${term(-big[l]!, `w_${j}_${t}`)}`,
          ">=",
          -big[l]!,
        );
        bwTerms[l * T + t - 1]!.push(bw);
      }
    }
  }
  for (let l = 0; l < L; l++) {
    for (let t = 1; t <= T; t++) {
      const terms = bwTerms[l * T + t - 1]!;
      if (terms.length === 0) continue;
      // (21) abw = MBW - sum bw ; (22) abw >= 0
      nVars++;
      bounds.push(` abw_${l}_${t} >= 0`);
      row(
        `c21_${l}_${t}`,
        ` abw_${l}_${t}${terms.map((b) => ` + ${b}`).join("")}`,
        "=",
        platform.links[l]!.bandwidth / scale,
      );
    }
  }
  // (10) one task per resource and slot
  for (let r = 0; r < R; r++) {
    for (let t = 1; t <= T; t++) {
      let s = "";
      for (let j = 0; j < J; j++) s += ` + ${x(j, r, t)}`;
      if (J > 0) row(`c10_${r}_${t}`, s, "<=", 1);
    }
  }
  if (J > 0) row("area", area, ">=", 0);
  if (J > 0 && (options.loadCuts ?? true)) {
    for (let r = 0; r < R; r++) row(`load_${r}`, ` cmax${nAtLoad[r]}`, ">=", 0);
  }
  // makespan within the horizon (implied by the rows above; explicit for the LP relaxation)
  bounds.push(` cmax <= ${T}`);
  if (options.symmetryBreaking ?? true) {
    for (const group of identicalGroups(inst)) {
      for (let i = 1; i < group.length; i++) {
        const r = group[i - 1]!;
        const r2 = group[i]!;
        let prefix = "";
        for (let j = 0; j < J; j++) {
          prefix += ` - z_${j}_${r}`;
          row(`sym_${j}_${r2}`, ` z_${j}_${r2}${prefix}`, "<=", 0);
        }
      }
    }
  }
  const lp = [
    "Minimize",
    " obj: cmax",
    "Subject To",
    ...(rows.length > 0 ? rows : [" c0: cmax >= 0"]),
    "Bounds",
    " cmax >= 0",
    ...bounds,
    "Binary",
    ...binaries.map((b) => ` ${b}`),
    "General",
    ...generals.map((g) => ` ${g}`),
    "End",
    "",
  ].join("\n");
  return {
    lp,
    eta,
    theta: T,
    variables: nVars,
    binaries: binaries.length,
    constraints: nRows,
    instance: inst,
  };
}

/**
 * Builds the OAS MIP and solves it with HiGHS (WebAssembly, loaded once per process; the model
 * is disposed after the solve). The schedule is read from `z`, `s_j` and `n_j`: job j runs on
 * the resources with `z_j_r = 1` from slot `s_j` for `n_j` slots. Check it with
 * `checkOasSchedule`; replay it with `oasPlanScheduler`.
 *
 * Complexity: exponential in the worst case (a MIP); see the README's solver limits.
 *
 * @throws InvalidInputError for bad options (a solver failure is a result with status `error`).
 *
 * @example
 * ```ts
 * const r = await solveOas(jobs, platform, { eta: 50, timeLimit: 10 });
 * r.status; // "optimal"
 * r.makespan; // 350
 * ```
 */
export async function solveOas(
  jobs: readonly Job[],
  platform: Platform,
  options: SolveOasOptions = {},
): Promise<OasResult> {
  const timeLimit = options.timeLimit ?? 60;
  if (!(timeLimit > 0)) {
    throw new InvalidInputError(
      WHERE,
      "options.timeLimit",
      `is ${String(timeLimit)}, expected a number > 0`,
    );
  }
  const relativeGap = options.relativeGap ?? 1e-6;
  if (!(relativeGap >= 0)) {
    throw new InvalidInputError(
      WHERE,
      "options.relativeGap",
      `is ${String(relativeGap)}, expected a number >= 0`,
    );
  }
  const highs = await loadSolver();
  const t0 = performance.now();
  const profile = options.profile ?? computeOnlyProfile;
  const { eta, theta: theta0 } = slotDefaults(oasInstance(jobs, platform, profile, WHERE), options);
  // The warm start: the best of the list schedules and the given incumbents.
  let start: readonly OasAssignment[] | null = null;
  let startSource: string | null = null;
  let startSlots = Number.POSITIVE_INFINITY;
  let startScore = Number.POSITIVE_INFINITY;
  // the candidate with the fewest slots, offered during the solve when it is not the start
  let fewest: readonly OasAssignment[] | null = null;
  let fewestSlots = Number.POSITIVE_INFINITY;
  const score = options.warmStartScore;
  const consider = (s: readonly OasAssignment[] | null, source: string) => {
    if (s === null) return;
    const span = s.reduce((mx, a) => Math.max(mx, a.startSlot + a.slots), 0);
    const value = score === undefined ? span : score(s);
    if (value < startScore || (value === startScore && span < startSlots)) {
      start = s;
      startSource = source;
      startSlots = span;
      startScore = value;
    }
    if (span < fewestSlots) {
      fewest = s;
      fewestSlots = span;
    }
  };
  if ((options.warmStart ?? true) && jobs.length > 0) {
    for (const rule of OAS_RULES) {
      consider(
        slottedListSchedule(jobs, platform, ruleOrder(rule, jobs), { eta, theta: theta0, profile }),
        `list ${rule}`,
      );
    }
    (options.incumbents ?? []).forEach((inc, i) => {
      const bad = checkOasSchedule(jobs, platform, inc, { eta, theta: theta0, profile });
      if (bad.length > 0) {
        throw new InvalidInputError(
          WHERE,
          `options.incumbents[${i}]`,
          `is not feasible: ${bad[0]}`,
        );
      }
      consider(inc, `incumbent ${i}`);
    });
  }
  const theta =
    start !== null && (options.tightenHorizon ?? true) ? Math.min(theta0, startSlots) : theta0;
  const model = buildOasModel(jobs, platform, { ...options, eta, theta });
  const buildTimeMs = performance.now() - t0;
  const base = {
    eta: model.eta,
    theta: model.theta,
    buildTimeMs,
    variables: model.variables,
    constraints: model.constraints,
    warmStartSlots: start === null ? null : startSlots,
    warmStart: start as readonly OasAssignment[] | null,
    warmStartSource: startSource as string | null,
  };
  const none = { makespanSlots: null, makespan: null, bound: null, gap: null, schedule: [] };
  if (jobs.length === 0) {
    return {
      ...base,
      ...none,
      status: "optimal",
      message: "no jobs",
      makespanSlots: 0,
      makespan: 0,
      bound: 0,
      gap: 0,
      solveTimeMs: 0,
    };
  }
  const t1 = performance.now();
  const m = highs.createModel({ format: "lp", data: model.lp });
  try {
    m.options.set({
      output_flag: false,
      time_limit: timeLimit,
      mip_rel_gap: relativeGap,
      random_seed: 0,
    });
    const dims0 = m.getDimensions();
    const colIndex = new Map<string, number>();
    for (let i = 0; i < dims0.numCols; i++) colIndex.set(m.raw.getColName(i).value ?? "", i);
    if (base.warmStart !== null) m.setSolution(startValues(model, base.warmStart, colIndex));
    let offer: { indices: Int32Array; values: Float64Array } | null =
      fewest !== null && fewest !== base.warmStart ? startValues(model, fewest, colIndex) : null;
    const run =
      offer === null
        ? m.run()
        : m.run({
            [highs.constants.callbackType.mipUserSolution](event) {
              if (offer === null) return;
              event.setSolution(offer);
              offer = null;
            },
          });
    const solveTimeMs = performance.now() - t1;
    const codes = highs.constants.modelStatus;
    const hasSolution = Number(m.info.get("primal_solution_status")) === 2;
    const status = run.modelStatus;
    if (status === codes.infeasible || status === codes.unboundedOrInfeasible) {
      return {
        ...base,
        ...none,
        solveTimeMs,
        status: "infeasible",
        message: `no schedule fits in theta = ${model.theta} slots of eta = ${model.eta} s (or a job cannot run without saturating a link); raise options.theta`,
      };
    }
    const limited =
      status === codes.timeLimit ||
      status === codes.iterationLimit ||
      status === codes.interrupted ||
      status === codes.solutionLimit;
    if (status !== codes.optimal && !limited) {
      return {
        ...base,
        ...none,
        solveTimeMs,
        status: "error",
        message: `HiGHS ended with model status ${status}`,
      };
    }
    if (!hasSolution) {
      return {
        ...base,
        ...none,
        solveTimeMs,
        status: "timeout",
        message: `no schedule found within the ${timeLimit} s time limit`,
      };
    }
    const col = m.getSolution().colValue;
    const value = (name: string) => {
      const i = colIndex.get(name);
      return i === undefined ? 0 : col[i]!;
    };
    const R = model.instance.resourceMachine.length;
    const schedule: OasAssignment[] = jobs.map((job, j) => {
      const resources: number[] = [];
      for (let r = 0; r < R; r++) if (value(`z_${j}_${r}`) > 0.5) resources.push(r);
      const allocation = allocationOf(model.instance, resources);
      // n_j and sp_j are only bounded from below in the model: a job off the critical path may
      // hold more slots than it needs; its schedule keeps the exact count (README, Interpretation)
      const ct = allocationCost(model.instance, j, allocation).ct;
      return {
        jobId: job.id,
        startSlot: Math.max(0, Math.round(value(`s_${j}`))), // never -0
        slots: slotsNeeded(model.instance.baseTime[j]!, ct, model.eta),
        allocation,
      };
    });
    const makespanSlots = schedule.reduce((mx, a) => Math.max(mx, a.startSlot + a.slots), 0);
    const optimal = status === codes.optimal;
    const dual = Number(m.info.get("mip_dual_bound"));
    const bound = optimal
      ? makespanSlots
      : Math.min(makespanSlots, Math.max(0, Math.ceil(dual - 1e-6)));
    const gap = makespanSlots === 0 ? 0 : (makespanSlots - bound) / makespanSlots;
    return {
      ...base,
      solveTimeMs,
      status: optimal ? "optimal" : "feasible",
      message: optimal
        ? "optimal"
        : `stopped by the ${timeLimit} s time limit with a gap of ${(gap * 100).toFixed(1)}%`,
      makespanSlots,
      makespan: makespanSlots * model.eta,
      bound,
      gap,
      schedule,
    };
  } finally {
    m.dispose();
  }
}

/**
 * Groups of identical resources (same cluster, same machine speed), each in index order;
 * groups of one are left out.
 */
export function identicalGroups(inst: OasInstance): number[][] {
  const groups = new Map<string, number[]>();
  const machines = inst.platform.machines;
  for (let r = 0; r < inst.resourceMachine.length; r++) {
    const key = `${inst.resourceCluster[r]}:${machines[inst.resourceMachine[r]!]!.speed}`;
    let g = groups.get(key);
    if (g === undefined) {
      g = [];
      groups.set(key, g);
    }
    g.push(r);
  }
  return [...groups.values()].filter((g) => g.length > 1);
}

/**
 * The resources (cores) each job of a valid slotted schedule uses: jobs by start slot, each
 * part taking cores of its machine that are free from the job's start (interval assignment by
 * start time, which never runs out when no machine is over capacity in any slot). Jobs sharing
 * a multi-core machine at different times may reuse its cores; at the same time they get
 * distinct ones.
 */
function scheduleResources(inst: OasInstance, schedule: readonly OasAssignment[]): number[][] {
  const R = inst.resourceMachine.length;
  const freeFrom = new Float64Array(R);
  const out: number[][] = schedule.map(() => []);
  const order = schedule.map((_, j) => j);
  order.sort((a, b) => schedule[a]!.startSlot - schedule[b]!.startSlot || a - b);
  for (const j of order) {
    const a = schedule[j]!;
    for (const part of a.allocation) {
      let left = part.cores;
      for (let r = 0; r < R && left > 0; r++) {
        if (inst.resourceMachine[r] === part.machine && freeFrom[r]! <= a.startSlot) {
          out[j]!.push(r);
          freeFrom[r] = a.startSlot + a.slots;
          left--;
        }
      }
    }
  }
  return out;
}

/**
 * Relabels identical resources so that a schedule satisfies the symmetry-breaking rows: in each
 * group, resources sorted by the first job (index) that uses them take the group's positions in
 * order. Returns each job's resources.
 */
export function canonicalResources(
  inst: OasInstance,
  schedule: readonly OasAssignment[],
): number[][] {
  const R = inst.resourceMachine.length;
  const J = schedule.length;
  const used = scheduleResources(inst, schedule).map((rs) => {
    const u = new Uint8Array(R);
    for (const r of rs) u[r] = 1;
    return u;
  });
  const relabel = new Int32Array(R);
  for (let r = 0; r < R; r++) relabel[r] = r;
  for (const group of identicalGroups(inst)) {
    const first = (r: number) => {
      for (let j = 0; j < J; j++) if (used[j]![r]) return j;
      return J;
    };
    const sorted = [...group].sort((a, b) => first(a) - first(b) || a - b);
    sorted.forEach((old, i) => {
      relabel[old] = group[i]!;
    });
  }
  return used.map((u) => {
    const out: number[] = [];
    for (let r = 0; r < R; r++) if (u[r]) out.push(relabel[r]!);
    return out.sort((a, b) => a - b);
  });
}

/** Values of the integer columns for a slotted schedule (HiGHS completes the rest). */
function startValues(
  model: OasModel,
  schedule: readonly OasAssignment[],
  colIndex: ReadonlyMap<string, number>,
): { indices: Int32Array; values: Float64Array } {
  const inst = model.instance;
  const R = inst.resourceMachine.length;
  const T = model.theta;
  const idx: number[] = [];
  const val: number[] = [];
  const put = (name: string, v: number) => {
    const i = colIndex.get(name);
    if (i !== undefined) {
      idx.push(i);
      val.push(v);
    }
  };
  const resources = canonicalResources(inst, schedule);
  schedule.forEach((a, j) => {
    const used = new Uint8Array(R);
    for (const r of resources[j]!) used[r] = 1;
    const perCluster = new Int32Array(inst.clusterSize.length);
    for (let r = 0; r < R; r++) {
      put(`z_${j}_${r}`, used[r]!);
      if (used[r]) perCluster[inst.resourceCluster[r]!]! += 1;
    }
    for (let t = 1; t <= T; t++) {
      const runs = t > a.startSlot && t <= a.startSlot + a.slots ? 1 : 0;
      put(`y_${j}_${t}`, t === a.startSlot + 1 ? 1 : 0);
      put(`w_${j}_${t}`, runs);
    }
    put(`n_${j}`, a.slots);
    for (let k = 0; k < perCluster.length; k++) {
      for (let c = 0; c <= inst.clusterSize[k]!; c++)
        put(`u_${j}_${k}_${c}`, c === perCluster[k] ? 1 : 0);
    }
  });
  return { indices: Int32Array.from(idx), values: Float64Array.from(val) };
}
