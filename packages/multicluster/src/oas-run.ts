import { type Job, type Platform, type ScheduleTrace, simulate } from "@sched/core";
import { computeOnlyProfile } from "./cost.js";
import { oasExecutionModel } from "./execution.js";
import { type OasResult, oasSlotDefaults, type SolveOasOptions, solveOas } from "./mip.js";
import { OAS_RULES, type OasRule, oasHeuristic, oasPlanScheduler } from "./oas-heuristics.js";
import type { OasAssignment } from "./oas-instance.js";
import { slottedPlanFromTrace } from "./oas-slotted.js";

/** Options of {@link runOas}. */
export interface RunOasOptions extends SolveOasOptions {
  /**
   * Run the six heuristics first and offer their schedules, turned into slotted schedules by
   * `slottedPlanFromTrace`, to the solver as warm-start candidates (`incumbents`).
   * @defaultValue `true`
   */
  readonly heuristicIncumbents?: boolean;
}

/** What {@link runOas} returns. */
export interface OasRun {
  /** The solver's result (status, gap, slotted makespan, the warm start it was given). */
  readonly result: OasResult;
  /** The solver's schedule run by the core engine, each job at its slot; `null` without one. */
  readonly atSlots: ScheduleTrace | null;
  /** The solver's schedule run compacted (`oasPlanScheduler` with `compact`). */
  readonly compacted: ScheduleTrace | null;
  /** The warm start the solver was given, run compacted; `null` when none. */
  readonly warmStartCompacted: ScheduleTrace | null;
  /**
   * The schedule reported as OAS's: of the two feasible points of the MIP known at the end,
   * the solver's final schedule and the warm start it was handed, the one whose compacted run
   * has the smaller makespan (ties: the solver's).
   */
  readonly best: ScheduleTrace | null;
  readonly bestSource: "solver" | "warm start" | null;
  /**
   * Where the warm start came from: `"list <rule>"` (a slotted list schedule) or `"<rule> run"`
   * (a heuristic's engine run made slotted); `null` without a warm start.
   */
  readonly warmStartOrigin: string | null;
  /** The heuristics' runs (when `heuristicIncumbents`), by rule. */
  readonly heuristics: ReadonlyMap<OasRule, ScheduleTrace>;
}

function makespanOf(trace: ScheduleTrace): number {
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const r of trace.records) {
    first = Math.min(first, r.job.submit);
    if (r.end !== null) last = Math.max(last, r.end);
  }
  return last - first;
}

/**
 * The OAS pipeline of this package's experiments: runs the six heuristics in the core engine
 * with the contention-aware cost model, turns each run into a slotted schedule
 * (`slottedPlanFromTrace`), and solves the MIP with those and the six slotted list schedules
 * as warm-start candidates: the candidate whose compacted engine run ends first is HiGHS'
 * start (and sets the tightened horizon), the one with the fewest slots is offered during the
 * solve. Then it runs the solver's schedule and the start in the engine (at the slots and
 * compacted). See {@link OasRun.best} for what is reported as OAS's schedule.
 *
 * Complexity: the solve (up to `timeLimit`) plus seven short simulations.
 *
 * @example
 * ```ts
 * const run = await runOas(jobs, platform, { eta: 150, profile, timeLimit: 20 });
 * computeMetrics(run.best!).makespan;
 * ```
 */
export async function runOas(
  jobs: readonly Job[],
  platform: Platform,
  options: RunOasOptions = {},
): Promise<OasRun> {
  const profile = options.profile ?? computeOnlyProfile;
  const executionModel = oasExecutionModel({ profile });
  const heuristics = new Map<OasRule, ScheduleTrace>();
  const incumbents: (readonly OasAssignment[])[] = [...(options.incumbents ?? [])];
  const origins: string[] = incumbents.map((_, i) => `incumbent ${i}`);
  if (options.heuristicIncumbents ?? true) {
    const { eta: e, theta } = oasSlotDefaults(jobs, platform, options);
    for (const rule of OAS_RULES) {
      const trace = simulate(jobs, platform, oasHeuristic(rule, { profile }), { executionModel });
      heuristics.set(rule, trace);
      const plan = slottedPlanFromTrace(trace, jobs, { eta: e, theta, profile });
      if (plan !== null) {
        incumbents.push(plan);
        origins.push(`${rule} run`);
      }
    }
  }
  const { eta } = oasSlotDefaults(jobs, platform, options);
  const run = (schedule: readonly OasAssignment[], compact: boolean) =>
    simulate(jobs, platform, oasPlanScheduler(schedule, eta, { compact, profile }), {
      executionModel,
    });
  const result = await solveOas(jobs, platform, {
    ...options,
    incumbents,
    // the candidate whose compacted run ends first becomes HiGHS' start
    warmStartScore: (s) => makespanOf(run(s, true)),
  });
  const has = result.schedule.length > 0;
  const atSlots = has ? run(result.schedule, false) : null;
  const compacted = has ? run(result.schedule, true) : null;
  const warmStartCompacted = result.warmStart === null ? null : run(result.warmStart, true);
  let best = compacted;
  let bestSource: OasRun["bestSource"] = compacted === null ? null : "solver";
  if (
    warmStartCompacted !== null &&
    (best === null || makespanOf(warmStartCompacted) < makespanOf(best))
  ) {
    best = warmStartCompacted;
    bestSource = "warm start";
  }
  const source = result.warmStartSource;
  const warmStartOrigin =
    source === null
      ? null
      : source.startsWith("incumbent ")
        ? (origins[Number(source.slice("incumbent ".length))] ?? source)
        : source;
  return {
    result,
    atSlots,
    compacted,
    warmStartCompacted,
    best,
    bestSource,
    warmStartOrigin,
    heuristics,
  };
}
