import type { WaitingJob } from "@sched/core";
import { backfill } from "../src/backfill.js";
import { edf } from "../src/edf.js";
import { fcfs } from "../src/fcfs.js";
import { conservative, easy, flexible } from "../src/presets.js";
import type { BenchPolicy } from "./lublin.js";

/** SJF-like priority by estimate for the flexible policies: the shortest estimate first. */
const shortestEstimate = (w: WaitingJob): number => -w.job.estimate;

/** Every policy of the package, as benchmarked on the Lublin workload. */
export const POLICIES: readonly BenchPolicy[] = [
  { label: "fcfs", make: () => fcfs(), deadlines: false },
  { label: "easy", make: () => easy(), deadlines: false },
  { label: "conservative", make: () => conservative(), deadlines: false },
  {
    label: "backfill, 4 reservations",
    make: () => backfill({ reservations: 4 }),
    deadlines: false,
  },
  {
    label: "flexible BF-rm, shortest estimate first",
    make: () => flexible({ priority: shortestEstimate, variant: "rm" }),
    deadlines: false,
  },
  {
    label: "flexible BF-unrm, shortest estimate first",
    make: () => flexible({ priority: shortestEstimate, variant: "unrm" }),
    deadlines: false,
  },
  // EDF orders by deadline: the Lublin model has none, so these jobs get one (see lublinJobs).
  { label: "edf (deadlines added), preemption", make: () => edf(), deadlines: true },
];
