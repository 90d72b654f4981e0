import { experimentSeed, paperMetrics, paperWorkload } from "@sched/convergent";
import { findScheduler } from "../schedulers.js";
import type { Experiment } from "./experiment.js";

/** The policies the convergent-scheduling paper compares, in its order (registry names). */
export const CONVERGENT_SCHEDULERS: readonly string[] = [
  "cs-ip",
  "cs-inp",
  "cs-nip",
  "cs-ninp",
  "easy",
  "bf-rm",
  "bf-unrm",
  "edf",
];

/**
 * The options each policy runs with: the baselines are machine-exclusive (`exclusive: true`, one
 * job per machine at a time, on one machine), as the paper's model has it ("each machine m in M
 * is executing only a single job at a time", section 3) and as CS, a matching, does by
 * construction. Without it, EASY, BF-rm and BF-unrm pack several jobs onto one machine's CPUs
 * (and spread a job over machines) and get more capacity than the model gives them.
 */
export const CONVERGENT_SCHEDULER_OPTIONS: Readonly<
  Record<string, Readonly<Record<string, boolean>>>
> = {
  easy: { exclusive: true },
  "bf-rm": { exclusive: true },
  "bf-unrm": { exclusive: true },
  edf: { exclusive: true },
};

/** The paper's mean inter-arrival times (s), and the `--quick` grid. */
export const CONVERGENT_INTER_ARRIVALS: readonly number[] = [4, 6, 8, 10, 12, 16, 20];
export const CONVERGENT_QUICK_INTER_ARRIVALS: readonly number[] = [4, 16];

/** Jobs per run: the paper's 1500, and 150 with `--quick` (same 150-machine, 20-license farm). */
export const CONVERGENT_JOBS = 1500;
export const CONVERGENT_QUICK_JOBS = 150;

/**
 * The workload seed of run `seed` (1, 2, ...) at inter-arrival `ta`: @sched/convergent's
 * `experimentSeed(1, ta, seed - 1)`, so seed s here is run s-1 of the package's
 * `convergentExperiment` (master seed 1) and the numbers agree with it.
 */
export function convergentWorkloadSeed(ta: number, seed: number): number {
  return experimentSeed(1, ta, seed - 1);
}

/**
 * `convergent`: the convergent-scheduling paper's experiment (Capannini et al., SC'07, section
 * 6): the four CS variants against EASY, BF-rm, BF-unrm and EDF on @sched/convergent's
 * `paperWorkload`, swept over the mean inter-arrival time, with the paper's metrics measured by
 * `paperMetrics`. The scheduling time per plan is wall-clock, so it is not in the records: it is
 * `schedTimeMs` (`timing.schedulerMs / decisions` of each run file) in `timing.csv` and the
 * printed wall-clock table.
 */
export const convergentReproduction: Experiment = {
  name: "convergent",
  title: "Convergent scheduling vs backfilling and EDF: deadlines, slowdown, usage (150 machines)",
  description:
    "The convergent-scheduling paper's experiment (Capannini et al., SC'07, section 6, Figures " +
    "4-6): @sched/convergent's paperWorkload, 150 machines (1-8 CPUs, benchmark 200-600), 20 " +
    "floating licenses, 1500 jobs per run (150 with --quick, a smoke test) arriving with " +
    "negative-exponential inter-arrival times of mean interArrival s (4..20; 4 and 16 with " +
    "--quick), 70% with a deadline. Seed s is run s-1 of the package's convergentExperiment. " +
    `Policies: ${CONVERGENT_SCHEDULERS.join(", ")} (CS_ip, CS_inp, CS_nip, CS_ninp; BF-easy; ` +
    "BF-rm and BF-unrm ranked by convergentPriority; EDF); the baselines run with " +
    "exclusive=true: one job per machine at a time, as in the paper's model (section 3) and " +
    "as CS does. Metrics (paperMetrics): latePct " +
    "(% of deadline jobs late), slowdownNoDeadline ((Tw + Te)/Te of jobs without deadline), " +
    "machineUsage and licenseUsage (percent, the paper's definitions); mean and Student-t 95% " +
    "CI over seeds. Scheduling time per plan (schedTimeMs = timing.schedulerMs / decisions) is " +
    "wall-clock, so it is kept apart in timing.csv and the wall-clock table. One full-size " +
    "simulation takes 0.2-0.5 s (EASY, EDF) to 14 s of CPU (CS_nip at interArrival 4), the " +
    "grid is 56 simulations per seed, about 170 s of CPU per seed (20 seeds by default: about " +
    "30 minutes on 2 cores; --out resumes a killed run); --quick (16 small runs, one seed) " +
    "takes seconds.",
  param: "interArrival",
  values: (quick) => (quick ? CONVERGENT_QUICK_INTER_ARRIVALS : CONVERGENT_INTER_ARRIVALS),
  defaultSeeds: (quick) => (quick ? 1 : 20),
  schedulers: () =>
    CONVERGENT_SCHEDULERS.map((n) => ({
      entry: findScheduler(n, "reproduce"),
      options: CONVERGENT_SCHEDULER_OPTIONS[n] ?? {},
      label: n,
    })),
  metrics: [
    { key: "latePct", title: "late deadline jobs (%)", digits: 2 },
    { key: "slowdownNoDeadline", title: "slowdown, no deadline", digits: 3 },
    { key: "machineUsage", title: "machine usage (%)", digits: 2 },
    { key: "licenseUsage", title: "license usage (%)", digits: 2 },
  ],
  instance: (interArrival, seed, quick) =>
    paperWorkload({
      seed: convergentWorkloadSeed(interArrival, seed),
      interArrival,
      jobs: quick ? CONVERGENT_QUICK_JOBS : CONVERGENT_JOBS,
    }),
  measure: (trace) => {
    const m = paperMetrics(trace);
    return {
      latePct: m.latePct,
      slowdownNoDeadline: m.slowdownNoDeadline,
      machineUsage: m.machineUsage,
      licenseUsage: m.licenseUsage,
      meanWorkload: m.meanWorkload,
      lateJobs: m.late,
      deadlineJobs: m.deadlineJobs,
    };
  },
};
