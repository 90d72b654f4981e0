import { beats } from "./claims.js";
import type { ExperimentFigure } from "./experiment.js";

/** Where the claims of `fcfs-load` come from: the reason backfilling exists, not one paper's figure. */
const BACKFILLING = "the motivation of backfilling (Lifka 1995, EASY)";

/**
 * The figures of `fcfs-load` (not a paper's experiment: the classic picture that motivates
 * backfilling, on the CLI's synthetic workload).
 */
export const FCFS_LOAD_FIGURES: readonly ExperimentFigure[] = [
  {
    id: "Wait vs load",
    caption: "Mean wait time against offered load, FCFS and backfilling (128 processors)",
    metric: "meanWait",
    x: { param: "load", label: "offered load", short: "load" },
    y: { label: "mean wait (s)", scale: "log" },
    series: [
      { label: "fcfs", name: "FCFS" },
      { label: "easy", name: "EASY backfilling" },
      { label: "conservative", name: "conservative backfilling" },
    ],
    claims: [
      {
        text: "EASY and conservative backfilling wait less than FCFS at every load",
        source: BACKFILLING,
        check: beats({ better: ["easy", "conservative"], than: ["fcfs"], sense: "lower" }),
      },
    ],
  },
  {
    id: "Slowdown vs load",
    caption: "Mean bounded slowdown (tau = 10 s) against offered load",
    metric: "meanBoundedSlowdown",
    x: { param: "load", label: "offered load", short: "load" },
    y: { label: "mean bounded slowdown", scale: "log" },
    series: [
      { label: "fcfs", name: "FCFS" },
      { label: "easy", name: "EASY backfilling" },
      { label: "conservative", name: "conservative backfilling" },
    ],
    claims: [
      {
        text: "EASY and conservative backfilling have a lower mean bounded slowdown than FCFS at every load",
        source: BACKFILLING,
        check: beats({ better: ["easy", "conservative"], than: ["fcfs"], sense: "lower" }),
      },
    ],
  },
];
