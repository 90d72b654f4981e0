import { beats } from "./claims.js";
import type { ExperimentFigure } from "./experiment.js";

/** Where the claims of `fcfs-load` come from: the reason backfilling exists, not one paper's figure. */
const BACKFILLING = "the motivation of backfilling (Lifka 1995, EASY)";

const LOAD = { param: "load", label: "offered load", short: "load" } as const;

const SERIES = [
  { label: "fcfs", name: "FCFS" },
  { label: "easy", name: "EASY backfilling" },
  { label: "conservative", name: "conservative backfilling" },
] as const;

/** Both backfilling policies below FCFS at every load (the figure's metric, lower is better). */
const BACKFILLING_BEATS_FCFS = beats({
  better: ["easy", "conservative"],
  than: ["fcfs"],
  sense: "lower",
});

/**
 * The figures of `fcfs-load` (not a paper's experiment: the classic picture that motivates
 * backfilling, on the CLI's synthetic workload).
 */
export const FCFS_LOAD_FIGURES: readonly ExperimentFigure[] = [
  {
    id: "Wait vs load",
    caption: "Mean wait time against offered load, FCFS and backfilling (128 processors)",
    metric: "meanWait",
    x: LOAD,
    y: { label: "mean wait (s)", scale: "log" },
    series: SERIES,
    claims: [
      {
        text: "EASY and conservative backfilling wait less than FCFS at every load",
        source: BACKFILLING,
        check: BACKFILLING_BEATS_FCFS,
      },
    ],
  },
  {
    id: "Slowdown vs load",
    caption: "Mean bounded slowdown (tau = 10 s) against offered load",
    metric: "meanBoundedSlowdown",
    x: LOAD,
    y: { label: "mean bounded slowdown", scale: "log" },
    series: SERIES,
    claims: [
      {
        text: "EASY and conservative backfilling have a lower mean bounded slowdown than FCFS at every load",
        source: BACKFILLING,
        check: BACKFILLING_BEATS_FCFS,
      },
    ],
  },
];
