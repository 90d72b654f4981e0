import {
  type Allocation,
  defaultExecutionModel,
  type ExecutionModel,
  type Job,
  type Platform,
  type Scheduler,
  type SchedulingContext,
} from "@sched/core";

/**
 * What resuming a preempted job costs (core's engine keeps a preempted job's progress and
 * resumes it for free, wherever it resumes).
 */
export interface PreemptionCost {
  /** Seconds added to every resumed execution interval (a restart: checkpoint, input moved). */
  readonly restartSeconds: number;
  /** Whether a preempted job loses its progress: it resumes from the start of its work. */
  readonly losesProgress: boolean;
}

/** No cost: core's engine as it is. */
export const FREE_PREEMPTION: PreemptionCost = Object.freeze({
  restartSeconds: 0,
  losesProgress: false,
});

/** Per job id: the factor on the duration of the interval that starts at each resume time. */
type Factors = Map<number, Map<number, number>>;

/**
 * The factor tables of the execution models built by {@link preemptionCostModel}, by platform:
 * how a scheduler wrapped by {@link withPreemptionCost} finds the model its run uses (the sweep
 * runner builds the instance, its platform and its model, apart from the scheduler). Private:
 * a run's scheduler clears its table at `reset`, and runs of one worker are sequential.
 */
const tables = new WeakMap<Platform, Factors>();

/**
 * An execution model for `platform`: core's default (`runtime × benchmark / speed`), times the
 * factor that a {@link withPreemptionCost} scheduler recorded for the interval that starts at
 * `now` (1 for every first start). Deterministic given the run (the same scheduler decisions,
 * the same factors), and consistent for `checkSchedule`, which asks for each interval at its
 * start.
 */
export function preemptionCostModel(platform: Platform): ExecutionModel {
  const factors: Factors = new Map();
  tables.set(platform, factors);
  return {
    name: "benchmark-ratio+preemption-cost",
    duration(job, allocation, p, seconds, now) {
      const base = defaultExecutionModel.duration(job, allocation, p, seconds, now);
      if (now === undefined) return base;
      return base * (factors.get(job.id)?.get(now) ?? 1);
    },
  };
}

/**
 * `inner` with `cost` charged at every resume of a job it preempted earlier: the resumed
 * interval lasts `(1 - p) × d + restartSeconds` instead of `(1 - p) × d` (`p` the progress kept,
 * `d` the job's duration on its new allocation), or `d + restartSeconds` when progress is lost.
 * The engine spreads the cost over the interval (it still counts progress from `p`: a policy sees
 * a resumed job's progress rise more slowly, and its `estimatedEnd` includes the cost). The run's
 * execution model must be {@link preemptionCostModel} of the run's platform; a free `cost`
 * returns `inner` itself.
 *
 * @throws Error at `reset` when the platform has no such model and the cost is not free.
 */
export function withPreemptionCost(inner: Scheduler, cost: PreemptionCost): Scheduler {
  if (cost.restartSeconds === 0 && !cost.losesProgress) return inner;
  let factors: Factors | undefined;
  /** Each preempted job not resumed yet, with the progress the engine kept. */
  const kept = new Map<number, { readonly job: Job; readonly progress: number }>();
  return {
    name: inner.name,
    reset(platform: Platform) {
      factors = tables.get(platform);
      if (factors === undefined) {
        throw new Error(
          `${inner.name}: a preemption cost needs the experiment's execution model (preemptionCostModel) for this platform`,
        );
      }
      factors.clear();
      kept.clear();
      inner.reset?.(platform);
    },
    schedule(ctx: SchedulingContext) {
      const { view } = ctx;
      const table = factors as Factors;
      const wrapped: SchedulingContext = {
        view,
        arrived: ctx.arrived,
        completed: ctx.completed,
        woken: ctx.woken,
        ready: ctx.ready,
        start(jobId: number, allocation: Allocation) {
          const k = kept.get(jobId);
          if (k !== undefined) {
            kept.delete(jobId);
            const d = defaultExecutionModel.duration(
              k.job,
              allocation,
              view.platform,
              k.job.runtime,
            );
            const left = (1 - k.progress) * d;
            if (left > 0) {
              const factor = ((cost.losesProgress ? d : left) + cost.restartSeconds) / left;
              let at = table.get(jobId);
              if (at === undefined) {
                at = new Map();
                table.set(jobId, at);
              }
              at.set(view.now, factor);
            }
          }
          ctx.start(jobId, allocation);
        },
        preempt(jobId: number) {
          const r = view.running.find((x) => x.job.id === jobId);
          if (r !== undefined) kept.set(jobId, { job: r.job, progress: r.progress });
          ctx.preempt(jobId);
        },
        reject: (jobId, reason) => ctx.reject(jobId, reason),
        wakeAt: (t) => ctx.wakeAt(t),
      };
      inner.schedule(wrapped);
    },
  };
}
