import { InvalidInputError, type Job, type Platform } from "@sched/core";
import {
  describeValue,
  optionKeys,
  requireArray,
  requireBoolean,
  requireKnownKeys,
  requireObject,
  requireOneOf,
} from "@sched/errors";
import { computeOnlyProfile, type ProfileOf } from "./cost.js";
import {
  buildConfigurationModel,
  type ConfigurationModel,
  configurationStartValues,
  readConfigurationSchedule,
} from "./mip-configurations.js";
import { buildResourceModel, readResourceSchedule, resourceStartValues } from "./mip-resources.js";
import { oasScheduleViolations } from "./oas-check.js";
import { OAS_RULES, ruleOrder } from "./oas-heuristics.js";
import { type OasAssignment, type OasInstance, oasInstance, slotsNeeded } from "./oas-instance.js";
import {
  type AllocationCandidates,
  checkAllocationCandidates,
  DEFAULT_ALLOCATION_CANDIDATES,
  slottedListSchedule,
} from "./oas-slotted.js";
import { loadSolver } from "./solver.js";

/**
 * How the MIP is written for the solver (both have the same feasible schedules and optimum):
 * `"configurations"`, a time-indexed form on classes of interchangeable resources (a binary per
 * job, tasks-per-class vector and start slot), whose LP bound is tight enough to prove the
 * paper-sized instances optimal; `"resources"`, the paper's per-resource variables (Fig. 2),
 * whose bound stays one or two slots short from 6 jobs on. See the README's Interpretation.
 */
export type OasFormulation = "configurations" | "resources";

/** Options of {@link buildOasModel} and {@link solveOas}. */
export interface OasModelOptions {
  /** Slot size `eta`, seconds (> 0). @defaultValue half the mean base time (the paper finds makespans stable below 50%) */
  readonly eta?: number;
  /**
   * Horizon `theta`, slots: the deadline the scheduling system gives the set of jobs (the
   * paper's theta). @defaultValue the smallest makespan of the six slotted list schedules
   * ({@link slottedListSchedule} in the six heuristics' orders), a deadline the system can meet;
   * when none fits, the sum over jobs of the slots each needs on the slowest resources
   */
  readonly theta?: number;
  /** Each job's `sigma` and per-task bandwidth. @defaultValue {@link computeOnlyProfile} */
  readonly profile?: ProfileOf;
  /** The formulation handed to the solver. @defaultValue `"configurations"` */
  readonly formulation?: OasFormulation;
  /**
   * Constraints (21)-(22): no link carries more than its bandwidth in any slot. `false` drops
   * them (a link-blind MIP, to measure what they change). @defaultValue `true`
   */
  readonly links?: boolean;
  /**
   * Resource form only: symmetry-breaking rows for identical resources (same cluster, same
   * speed): resource `r'`, the next identical one after `r`, may serve job `j` only if `r`
   * serves some job `j' <= j`. Every schedule has a relabelling that satisfies them, so the
   * optimum is unchanged. @defaultValue `true`
   */
  readonly symmetryBreaking?: boolean;
  /**
   * Resource form only: per-resource load rows `cmax >= sum_j nAt_j_r z_j_r`, `nAt_j_r` the
   * slots job `j` needs when its slowest resource is `r` (valid: they cut no schedule).
   * @defaultValue `true`
   */
  readonly loadCuts?: boolean;
  /**
   * Configuration form only: the most configurations (ways to spread a job's tasks over the
   * classes of interchangeable resources) a job may have before the build stops with a
   * `LimitExceededError` (use the resource form for such platforms). @defaultValue `100_000`
   */
  readonly maxConfigurations?: number;
  /**
   * The allocations the six slotted list schedules try ({@link AllocationCandidates}: the
   * heuristics' rule), for the default `theta` and the warm start. @defaultValue `"exhaustive"`
   */
  readonly allocationCandidates?: AllocationCandidates;
}

/** The keys of {@link OasModelOptions}, all of them (checked by the compiler). */
const MODEL_KEYS = optionKeys<OasModelOptions>({
  eta: true,
  theta: true,
  profile: true,
  formulation: true,
  links: true,
  symmetryBreaking: true,
  loadCuts: true,
  maxConfigurations: true,
  allocationCandidates: true,
});

/** Options of {@link solveOas}. */
export interface SolveOasOptions extends OasModelOptions {
  /**
   * The solver's deterministic budget: branch-and-bound nodes HiGHS may process. A solve stopped
   * by it keeps its incumbent (status `feasible`) or has none (`unsolved`); the same inputs give
   * the same answer on any machine, whatever its load. @defaultValue `100_000`
   */
  readonly maxNodes?: number;
  /**
   * Wall-clock limit, seconds. Not deterministic (what a solve reaches in a given time depends on
   * the machine and its load): prefer `maxNodes`. @defaultValue `Infinity` (none)
   */
  readonly timeLimit?: number;
  /** Relative MIP gap at which HiGHS stops. @defaultValue `1e-6` */
  readonly relativeGap?: number;
  /**
   * Hand HiGHS a feasible schedule as its start: the best of the six slotted list schedules and
   * `incumbents` (by `warmStartScore`). The solve is then never worse than them. Off by
   * default, so that the schedule is the solver's own. @defaultValue `false`
   */
  readonly warmStart?: boolean;
  /**
   * More feasible slotted schedules (one assignment per job, in the order of `jobs`) to
   * consider as the warm start, e.g. {@link slottedPlanFromTrace} of the heuristics' runs. Each
   * is checked with `checkOasSchedule` first. Ignored without `warmStart`. @defaultValue `[]`
   */
  readonly incumbents?: readonly (readonly OasAssignment[])[];
  /**
   * With a warm start, shrink the horizon to its makespan: `theta = min(theta, start's slots)`.
   * No schedule at least as good as the start is cut off. @defaultValue `true`
   */
  readonly tightenHorizon?: boolean;
  /**
   * How to pick the warm start among the candidates (list schedules and `incumbents`): the one
   * with the smallest score, ties by fewer slots. When another candidate has fewer slots, it is
   * offered too, at HiGHS' first user-solution checkpoint. @defaultValue the makespan in slots
   */
  readonly warmStartScore?: (schedule: readonly OasAssignment[]) => number;
}

/** The keys of {@link SolveOasOptions}, all of them (checked by the compiler). */
const SOLVE_KEYS = optionKeys<SolveOasOptions>({
  maxNodes: true,
  timeLimit: true,
  relativeGap: true,
  warmStart: true,
  incumbents: true,
  tightenHorizon: true,
  warmStartScore: true,
  ...MODEL_KEYS.record,
});

/** A built model: the LP-format text and its dimensions. */
export interface OasModel {
  /** CPLEX LP format, as HiGHS reads it. */
  readonly lp: string;
  readonly formulation: OasFormulation;
  readonly eta: number;
  readonly theta: number;
  readonly variables: number;
  readonly binaries: number;
  readonly constraints: number;
  readonly instance: OasInstance;
}

/** How a solve ended. */
export type OasStatus = "optimal" | "feasible" | "infeasible" | "unsolved" | "error";

/** The outcome of {@link solveOas}. */
export interface OasResult {
  /**
   * `optimal`: proven optimal (HiGHS' bound, rounded up to whole slots, meets the incumbent);
   * `feasible`: the budget (or `relativeGap`) stopped the solver with a schedule whose gap is
   * `gap`; `infeasible`: no schedule within `theta` slots, or a job that no allocation can run
   * (see `message`); `unsolved`: the budget ran out before any schedule was found; `error`:
   * HiGHS failed.
   */
  readonly status: OasStatus;
  readonly message: string;
  /** Makespan in slots (`max f_j`), `null` without a schedule. */
  readonly makespanSlots: number | null;
  /** `makespanSlots * eta`: the slotted makespan, seconds. */
  readonly makespan: number | null;
  /** Best lower bound on `makespanSlots` that HiGHS proved (whole slots). */
  readonly bound: number | null;
  /** Relative gap `(makespanSlots - bound) / makespanSlots`, 0 when optimal. */
  readonly gap: number | null;
  /** One assignment per job, in the order of `jobs`; empty without a schedule. */
  readonly schedule: readonly OasAssignment[];
  readonly formulation: OasFormulation;
  readonly eta: number;
  readonly theta: number;
  /** Building the model (and the warm-start candidates), wall-clock ms. */
  readonly buildTimeMs: number;
  /** HiGHS' run, wall-clock ms. */
  readonly solveTimeMs: number;
  /**
   * HiGHS' run, CPU ms of this process (user + system; the solver runs on the calling thread, so
   * this is its CPU time when nothing else runs in the process); `null` where the runtime cannot
   * tell (a browser).
   */
  readonly solveCpuMs: number | null;
  /** Branch-and-bound nodes HiGHS processed. */
  readonly nodes: number;
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

/**
 * The defaults of {@link SolveOasOptions} that are constants (`eta`, `theta` and the horizon
 * depend on the jobs: {@link oasSlotDefaults}). Frozen.
 *
 * @example OAS_SOLVE_DEFAULTS.maxNodes // 100000
 */
export const OAS_SOLVE_DEFAULTS: Readonly<{
  formulation: OasFormulation;
  links: boolean;
  warmStart: boolean;
  maxNodes: number;
}> = Object.freeze({
  formulation: "configurations",
  links: true,
  warmStart: false,
  maxNodes: 100_000,
});

/** A model's options with defaults filled and checked (internal). */
interface ResolvedModelOptions {
  readonly eta: number;
  readonly theta: number;
  readonly formulation: OasFormulation;
  readonly links: boolean;
  readonly symmetryBreaking: boolean;
  readonly loadCuts: boolean;
  readonly maxConfigurations: number;
  readonly allocationCandidates: AllocationCandidates;
}

/** The serial horizon: every job after the other on the slowest resources. */
function serialTheta(inst: OasInstance, eta: number): number {
  const R = inst.resourceMachine.length;
  let theta = 0;
  for (let j = 0; j < inst.jobs.length; j++) {
    let sp = 0;
    for (let r = 0; r < R; r++) sp = Math.max(sp, inst.slowdown[j * R + r]!);
    theta += slotsNeeded({
      baseTime: inst.baseTime[j]!,
      ct: inst.sigma[j]! * sp + 1 - inst.sigma[j]!,
      eta,
    });
  }
  return Math.max(1, theta);
}

/** The best slotted list schedule of the six heuristic orders within `theta`, with its rule. */
function bestListSchedule(
  inst: OasInstance,
  profile: ProfileOf,
  eta: number,
  theta: number,
  allocationCandidates: AllocationCandidates,
): { schedule: OasAssignment[]; slots: number; rule: string }[] {
  const out: { schedule: OasAssignment[]; slots: number; rule: string }[] = [];
  if (inst.jobs.length === 0) return out;
  for (const rule of OAS_RULES) {
    const s = slottedListSchedule(inst.jobs, inst.platform, ruleOrder(rule, inst.jobs), {
      eta,
      theta,
      profile,
      allocationCandidates,
    });
    if (s !== null) {
      out.push({
        schedule: s,
        slots: s.reduce((m, a) => Math.max(m, a.startSlot + a.slots), 0),
        rule,
      });
    }
  }
  return out;
}

function resolveModelOptions(
  inst: OasInstance,
  options: OasModelOptions,
  profile: ProfileOf,
): ResolvedModelOptions {
  const J = inst.jobs.length;
  const meanBase = J === 0 ? 1 : inst.baseTime.reduce((s, x) => s + x, 0) / J;
  const eta = options.eta ?? meanBase / 2;
  if (typeof eta !== "number" || !(eta > 0) || !Number.isFinite(eta)) {
    throw new InvalidInputError(
      WHERE,
      "options.eta",
      `is ${describeValue(eta)}, expected a number > 0`,
    );
  }
  const formulation = options.formulation ?? OAS_SOLVE_DEFAULTS.formulation;
  requireOneOf(WHERE, "options.formulation", formulation, ["configurations", "resources"]);
  const maxConfigurations = options.maxConfigurations ?? 100_000;
  if (
    typeof maxConfigurations !== "number" ||
    !(Number.isInteger(maxConfigurations) || maxConfigurations === Number.POSITIVE_INFINITY) ||
    maxConfigurations < 1
  ) {
    throw new InvalidInputError(
      WHERE,
      "options.maxConfigurations",
      `is ${describeValue(maxConfigurations)}, expected an integer >= 1 or Infinity`,
    );
  }
  const links = requireBoolean(WHERE, "options.links", options.links ?? OAS_SOLVE_DEFAULTS.links);
  const symmetryBreaking = requireBoolean(
    WHERE,
    "options.symmetryBreaking",
    options.symmetryBreaking ?? true,
  );
  const loadCuts = requireBoolean(WHERE, "options.loadCuts", options.loadCuts ?? true);
  const allocationCandidates = checkAllocationCandidates(
    WHERE,
    "options.allocationCandidates",
    options.allocationCandidates ?? DEFAULT_ALLOCATION_CANDIDATES,
  );
  let theta = options.theta;
  if (theta === undefined) {
    const serial = serialTheta(inst, eta);
    const lists = bestListSchedule(inst, profile, eta, serial, allocationCandidates);
    theta = lists.length === 0 ? serial : Math.min(...lists.map((l) => l.slots));
  }
  if (!Number.isInteger(theta) || theta < 1) {
    throw new InvalidInputError(
      WHERE,
      "options.theta",
      `is ${describeValue(theta)}, expected an integer >= 1`,
    );
  }
  return {
    eta,
    theta,
    formulation,
    links,
    symmetryBreaking,
    loadCuts,
    maxConfigurations,
    allocationCandidates,
  };
}

/**
 * The slot size and horizon {@link buildOasModel} and {@link solveOas} use for these options
 * (`eta` default half the mean base time; `theta` default the best slotted list schedule's
 * makespan), checked; `solveOas` may then shrink `theta` to its warm start.
 *
 * Complexity: O(jobs * resources) plus six list schedules when `theta` is not given.
 *
 * @throws InvalidInputError for a non-positive `eta` or `theta`.
 */
export function oasSlotDefaults(
  jobs: readonly Job[],
  platform: Platform,
  options: OasModelOptions = {},
): { eta: number; theta: number } {
  requireObject("@sched/multicluster/oasSlotDefaults", "options", options);
  requireKnownKeys("@sched/multicluster/oasSlotDefaults", "options", options, MODEL_KEYS);
  const profile = options.profile ?? computeOnlyProfile;
  const r = resolveModelOptions(oasInstance(jobs, platform, profile, WHERE), options, profile);
  return { eta: r.eta, theta: r.theta };
}

/** The built model of either formulation (internal: keeps the configuration form's tables). */
function build(
  inst: OasInstance,
  o: ResolvedModelOptions,
): { model: OasModel; configurations: ConfigurationModel | null } {
  if (o.formulation === "resources") {
    const m = buildResourceModel(inst, o);
    return {
      model: { ...m, formulation: o.formulation, eta: o.eta, theta: o.theta, instance: inst },
      configurations: null,
    };
  }
  const c = buildConfigurationModel(inst, { ...o, where: WHERE });
  return {
    model: {
      lp: c.lp,
      formulation: o.formulation,
      eta: o.eta,
      theta: o.theta,
      variables: c.variables,
      binaries: c.binaries,
      constraints: c.constraints,
      instance: inst,
    },
    configurations: c,
  };
}

/**
 * Builds the OAS MIP (second paper, Fig. 2, eq. 9-23) in LP format, in the chosen formulation
 * (see {@link OasFormulation} and the README's Interpretation).
 *
 * Complexity: configurations: O(jobs * configurations * theta) columns; resources: O(jobs *
 * resources * theta) columns and rows.
 *
 * @throws InvalidInputError for a non-positive `eta` or `theta`, bad profiles, or a job with more
 * cores than the platform; LimitExceededError when a job has more than `maxConfigurations`.
 *
 * @example
 * ```ts
 * const model = buildOasModel(jobs, platform, { eta: 50, theta: 12 });
 * model.lp.startsWith("Minimize"); // true
 * ```
 */
export function buildOasModel(
  jobs: readonly Job[],
  platform: Platform,
  options: OasModelOptions = {},
): OasModel {
  requireObject("@sched/multicluster/buildOasModel", "options", options);
  requireKnownKeys("@sched/multicluster/buildOasModel", "options", options, MODEL_KEYS);
  const profile = options.profile ?? computeOnlyProfile;
  const inst = oasInstance(jobs, platform, profile, WHERE);
  return build(inst, resolveModelOptions(inst, options, profile)).model;
}

/** This thread's CPU clock (µs of user + system) where the runtime has one. */
function cpuClock(): (() => number) | null {
  const p = (globalThis as { process?: { cpuUsage?: () => { user: number; system: number } } })
    .process;
  if (typeof p?.cpuUsage !== "function") return null;
  return () => {
    const u = p.cpuUsage!();
    return u.user + u.system;
  };
}

function checkBudget(options: SolveOasOptions): {
  maxNodes: number;
  timeLimit: number;
  relativeGap: number;
} {
  const maxNodes = options.maxNodes ?? OAS_SOLVE_DEFAULTS.maxNodes;
  // HiGHS counts nodes in a 32-bit integer: a larger budget failed inside it
  if (
    typeof maxNodes !== "number" ||
    !(
      maxNodes === Number.POSITIVE_INFINITY ||
      (Number.isInteger(maxNodes) && maxNodes >= 1 && maxNodes <= 2 ** 31 - 1)
    )
  ) {
    throw new InvalidInputError(
      WHERE,
      "options.maxNodes",
      `is ${describeValue(maxNodes)}, expected an integer in [1, 2147483647] or Infinity`,
    );
  }
  const timeLimit = options.timeLimit ?? Number.POSITIVE_INFINITY;
  if (typeof timeLimit !== "number" || !(timeLimit > 0)) {
    throw new InvalidInputError(
      WHERE,
      "options.timeLimit",
      `is ${describeValue(timeLimit)}, expected a number > 0 (seconds) or Infinity`,
    );
  }
  const relativeGap = options.relativeGap ?? 1e-6;
  if (typeof relativeGap !== "number" || !(relativeGap >= 0) || !Number.isFinite(relativeGap)) {
    throw new InvalidInputError(
      WHERE,
      "options.relativeGap",
      `is ${describeValue(relativeGap)}, expected a finite number >= 0`,
    );
  }
  return { maxNodes, timeLimit, relativeGap };
}

/**
 * Builds the OAS MIP and solves it with HiGHS (WebAssembly, loaded once per process; the model
 * is disposed after the solve), within a deterministic budget of branch-and-bound nodes (and an
 * optional wall-clock limit). The schedule read from the solution passes `checkOasSchedule`;
 * replay it with `oasPlanScheduler`.
 *
 * Complexity: exponential in the worst case (a MIP); see the README's solver limits.
 *
 * @throws InvalidInputError for bad options (a solver failure is a result with status `error`).
 *
 * @example
 * ```ts
 * const r = await solveOas(jobs, platform, { eta: 50 });
 * r.status; // "optimal"
 * r.makespan; // 350
 * ```
 */
export async function solveOas(
  jobs: readonly Job[],
  platform: Platform,
  options: SolveOasOptions = {},
): Promise<OasResult> {
  requireObject(WHERE, "options", options);
  requireKnownKeys(WHERE, "options", options, SOLVE_KEYS);
  const { maxNodes, timeLimit, relativeGap } = checkBudget(options);
  const warmStart = requireBoolean(
    WHERE,
    "options.warmStart",
    options.warmStart ?? OAS_SOLVE_DEFAULTS.warmStart,
  );
  const tightenHorizon = requireBoolean(
    WHERE,
    "options.tightenHorizon",
    options.tightenHorizon ?? true,
  );
  const incumbents =
    options.incumbents === undefined
      ? []
      : requireArray(WHERE, "options.incumbents", options.incumbents);
  const score = options.warmStartScore;
  if (score !== undefined && typeof score !== "function") {
    throw new InvalidInputError(
      WHERE,
      "options.warmStartScore",
      `is ${describeValue(score)}, expected a function (schedule) => number`,
    );
  }
  const highs = await loadSolver();
  const t0 = performance.now();
  const profile = options.profile ?? computeOnlyProfile;
  const inst = oasInstance(jobs, platform, profile, WHERE);
  const resolved = resolveModelOptions(inst, options, profile);
  const { eta, theta: theta0 } = resolved;
  // The warm start: the best of the list schedules and the given incumbents.
  let start: readonly OasAssignment[] | null = null;
  let startSource: string | null = null;
  let startSlots = Number.POSITIVE_INFINITY;
  let startScore = Number.POSITIVE_INFINITY;
  // the candidate with the fewest slots, offered during the solve when it is not the start
  let fewest: readonly OasAssignment[] | null = null;
  let fewestSlots = Number.POSITIVE_INFINITY;
  const consider = (s: readonly OasAssignment[], source: string) => {
    const span = s.reduce((mx, a) => Math.max(mx, a.startSlot + a.slots), 0);
    if (span > theta0) return;
    const value = score === undefined ? span : score(s);
    if (typeof value !== "number" || Number.isNaN(value)) {
      throw new InvalidInputError(
        WHERE,
        "options.warmStartScore",
        `returned ${describeValue(value)} for the ${source} schedule, expected a number`,
      );
    }
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
  if (warmStart && jobs.length > 0) {
    for (const l of bestListSchedule(inst, profile, eta, theta0, resolved.allocationCandidates))
      consider(l.schedule, `list ${l.rule}`);
    incumbents.forEach((raw, i) => {
      const inc = raw as readonly OasAssignment[];
      const bad = oasScheduleViolations(
        jobs,
        platform,
        inc,
        { eta, profile },
        WHERE,
        `options.incumbents[${i}]`,
      );
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
  const theta = start !== null && tightenHorizon ? Math.min(theta0, startSlots) : theta0;
  const { model, configurations } = build(inst, { ...resolved, theta });
  const buildTimeMs = performance.now() - t0;
  const base = {
    formulation: model.formulation,
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
  const idle = { solveTimeMs: 0, solveCpuMs: 0, nodes: 0 };
  if (jobs.length === 0) {
    return {
      ...base,
      ...idle,
      status: "optimal",
      message: "no jobs",
      makespanSlots: 0,
      makespan: 0,
      bound: 0,
      gap: 0,
      schedule: [],
    };
  }
  const unplaceable = configurations?.unplaceable ?? [];
  if (unplaceable.length > 0) {
    const id = jobs[unplaceable[0]!]!.id;
    return {
      ...base,
      ...none,
      ...idle,
      status: "infeasible",
      message: `job ${id} has no allocation that fits theta = ${model.theta} slots of eta = ${model.eta} s${resolved.links ? " without saturating a link by itself" : ""}; raise options.theta`,
    };
  }
  const cpu = cpuClock();
  const t1 = performance.now();
  const c1 = cpu?.() ?? 0;
  const m = highs.createModel({ format: "lp", data: model.lp });
  try {
    m.options.set({
      output_flag: false,
      mip_rel_gap: relativeGap,
      random_seed: 0,
      ...(Number.isFinite(timeLimit) ? { time_limit: timeLimit } : {}),
      ...(Number.isFinite(maxNodes) ? { mip_max_nodes: maxNodes } : {}),
    });
    const dims = m.getDimensions();
    const colIndex = new Map<string, number>();
    for (let i = 0; i < dims.numCols; i++) colIndex.set(m.raw.getColName(i).value ?? "", i);
    const startOf = (s: readonly OasAssignment[]) =>
      configurations === null
        ? resourceStartValues(inst, model.theta, s, colIndex)
        : configurationStartValues(inst, configurations, model.theta, s, colIndex);
    if (base.warmStart !== null) m.setSolution(startOf(base.warmStart));
    let offer = fewest !== null && fewest !== base.warmStart ? startOf(fewest) : null;
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
    const solveCpuMs = cpu === null ? null : (cpu() - c1) / 1000;
    const nodes = Number(m.info.get("mip_node_count") ?? 0);
    const spent = { solveTimeMs, solveCpuMs, nodes };
    const codes = highs.constants.modelStatus;
    const hasSolution = Number(m.info.get("primal_solution_status")) === 2;
    const status = run.modelStatus;
    if (status === codes.infeasible || status === codes.unboundedOrInfeasible) {
      return {
        ...base,
        ...none,
        ...spent,
        status: "infeasible",
        message: `no schedule fits in theta = ${model.theta} slots of eta = ${model.eta} s${resolved.links ? " without saturating a link" : ""}; raise options.theta`,
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
        ...spent,
        status: "error",
        message: `HiGHS ended with model status ${status}`,
      };
    }
    const budget = `${Number.isFinite(maxNodes) ? `${maxNodes} nodes` : ""}${Number.isFinite(maxNodes) && Number.isFinite(timeLimit) ? " or " : ""}${Number.isFinite(timeLimit) ? `${timeLimit} s` : ""}`;
    if (!hasSolution) {
      return {
        ...base,
        ...none,
        ...spent,
        status: "unsolved",
        message: `no schedule found within the budget (${budget})`,
      };
    }
    const col = m.getSolution().colValue;
    const value = (name: string) => {
      const i = colIndex.get(name);
      return i === undefined ? 0 : col[i]!;
    };
    const schedule =
      configurations === null
        ? readResourceSchedule(inst, model.eta, value)
        : readConfigurationSchedule(inst, configurations, model.theta, value);
    if (schedule === null) {
      return {
        ...base,
        ...none,
        ...spent,
        status: "error",
        message:
          "HiGHS returned a solution that places a job nowhere or overloads a resource class",
      };
    }
    const makespanSlots = schedule.reduce((mx, a) => Math.max(mx, a.startSlot + a.slots), 0);
    const dual = Number(m.info.get("mip_dual_bound"));
    // The objective is an integer number of slots: a bound of 8.2 proves 9. HiGHS' own
    // "optimal" only means within options.relativeGap, so its bound decides in every case.
    const bound = Math.min(makespanSlots, Math.max(0, Math.ceil(dual - 1e-6)));
    const optimal = bound >= makespanSlots;
    const gap = makespanSlots === 0 ? 0 : (makespanSlots - bound) / makespanSlots;
    const stop =
      status === codes.optimal
        ? `within options.relativeGap (${relativeGap})`
        : `by the budget (${budget})`;
    return {
      ...base,
      ...spent,
      status: optimal ? "optimal" : "feasible",
      message: optimal ? "optimal" : `stopped ${stop} with a gap of ${(gap * 100).toFixed(1)}%`,
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
