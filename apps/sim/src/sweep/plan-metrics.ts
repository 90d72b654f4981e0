import type { Experiment } from "../experiments/experiment.js";
import { EXPERIMENTS } from "../experiments/registry.js";
import { type MetricInfo, metricInfo } from "./metrics.js";
import type { SweepPlan } from "./plan.js";

// Apart from metrics.ts, which run's table uses: this one loads the experiment registry.

/** The registry experiment a plan runs (undefined for an experiment file's own workload). */
export function planExperiment(plan: SweepPlan): Experiment | undefined {
  const source = plan.source;
  return source.kind === "registry"
    ? EXPERIMENTS.find((e) => e.name === source.experiment)
    : undefined;
}

/** The {@link MetricInfo} of each of the plan's metrics, as its experiment declares them. */
export function planMetricInfos(plan: SweepPlan): MetricInfo[] {
  const experiment = planExperiment(plan);
  return plan.metrics.map((m) => metricInfo(m, experiment));
}
