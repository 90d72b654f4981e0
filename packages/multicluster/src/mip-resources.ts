import { linkDemand } from "./cost.js";
import { fmt, lpText, type SparseValues, sparseValues, term } from "./lp-text.js";
import {
  costOfAllocation,
  groupResources,
  type OasAssignment,
  type OasInstance,
  slotsNeeded,
} from "./oas-instance.js";

/** Options of {@link buildResourceModel}. */
export interface ResourceModelOptions {
  readonly eta: number;
  readonly theta: number;
  /** Constraints (4), (21), (22) on link bandwidth. */
  readonly links: boolean;
  /** Symmetry-breaking rows for identical resources (see `OasModelOptions.symmetryBreaking`). */
  readonly symmetryBreaking: boolean;
  /** Per-resource load rows (see `OasModelOptions.loadCuts`). */
  readonly loadCuts: boolean;
}

/** The resource form's LP text and size. */
export interface ResourceModel {
  readonly lp: string;
  readonly variables: number;
  readonly binaries: number;
  readonly constraints: number;
}

/**
 * The OAS MIP (Fig. 2, eq. 9-23) in its resource form, close to the paper's variables: binaries
 * `z_j_r` (job j on resource r), `y_j_t` (j starts in slot t), `w_j_t` (j runs in slot t),
 * continuous `x_j_r_t` (= z AND w), `s_j`, `f_j`, `sp_j`, `a_j_t`, `bw_j_l_t`, `abw_l_t`,
 * binaries `u_j_k_c` (j has exactly c tasks in cluster k, making eq. 4 linear), the integer slot
 * count `n_j` and the integer makespan `cmax`. Slots are numbered 1..theta; see the README's
 * Interpretation for each reformulation of the printed constraints.
 *
 * Complexity: O(jobs * resources * theta) variables and rows.
 */
export function buildResourceModel(
  inst: OasInstance,
  options: ResourceModelOptions,
): ResourceModel {
  const platform = inst.platform;
  const J = inst.jobs.length;
  const R = inst.resourceMachine.length;
  const { eta, theta: T } = options;
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
      slotsNeeded({
        baseTime: inst.baseTime[j]!,
        ct: inst.sigma[j]! * spMin + 1 - inst.sigma[j]!,
        eta,
      }),
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
    if (options.loadCuts) {
      for (let r = 0; r < R; r++) {
        const slow = inst.slowdown[j * R + r]!;
        const nAt = Math.min(
          T,
          slotsNeeded({
            baseTime: inst.baseTime[j]!,
            ct: inst.sigma[j]! * slow + 1 - inst.sigma[j]!,
            eta,
          }),
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
  for (let j = 0; j < J && options.links; j++) {
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
        const g = linkDemand({ tasksInCluster: c, tasks: tau, ptbw: inst.ptbw[j]! }) / scale;
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
  if (J > 0 && options.loadCuts) {
    for (let r = 0; r < R; r++) row(`load_${r}`, ` cmax${nAtLoad[r]}`, ">=", 0);
  }
  // makespan within the horizon (implied by the rows above; explicit for the LP relaxation)
  bounds.push(` cmax <= ${T}`);
  if (options.symmetryBreaking) {
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
  const lp = lpText({ rows, bounds: [" cmax >= 0", ...bounds], binaries, generals });
  return { lp, variables: nVars, binaries: binaries.length, constraints: nRows };
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

/** Values of the integer columns for a slotted schedule in the resource form (HiGHS completes the rest). */
export function resourceStartValues(
  inst: OasInstance,
  theta: number,
  schedule: readonly OasAssignment[],
  colIndex: ReadonlyMap<string, number>,
): SparseValues {
  const R = inst.resourceMachine.length;
  const T = theta;
  const pairs: [string, number][] = [];
  const put = (name: string, v: number) => {
    pairs.push([name, v]);
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
  let cmax = 0;
  for (const a of schedule) cmax = Math.max(cmax, a.startSlot + a.slots);
  put("cmax", cmax);
  return sparseValues(colIndex, pairs);
}

/**
 * The schedule of a solution of the resource form: job j on the resources with `z_j_r` = 1 from
 * slot `s_j`, for `ceil(Tb * ct / eta)` slots of its allocation (`n_j` and `sp_j` are only
 * bounded below in the model, so a job off the critical path may hold more slots than it needs;
 * its schedule keeps the exact count, README Interpretation).
 */
export function readResourceSchedule(
  inst: OasInstance,
  eta: number,
  value: (name: string) => number,
): OasAssignment[] {
  const R = inst.resourceMachine.length;
  return inst.jobs.map((job, j) => {
    const resources: number[] = [];
    for (let r = 0; r < R; r++) if (value(`z_${j}_${r}`) > 0.5) resources.push(r);
    const allocation = groupResources(inst, resources);
    const ct = costOfAllocation(inst, j, allocation).ct;
    return {
      jobId: job.id,
      startSlot: Math.max(0, Math.round(value(`s_${j}`))), // never -0
      slots: slotsNeeded({ baseTime: inst.baseTime[j]!, ct, eta }),
      allocation,
    };
  });
}
