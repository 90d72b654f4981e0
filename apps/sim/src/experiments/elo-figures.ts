import { beats, pointwise, trend, within } from "./claims.js";
import type { ExperimentFigure, FigureSeries } from "./experiment.js";

const PAPER_SERIES: readonly FigureSeries[] = [
  { label: "competitive", name: "competitive" },
  { label: "min-min", name: "Min-Min" },
  { label: "random", name: "random" },
];

/**
 * The competitive-matchmaking paper's Fig. 3 (Mendez Lopez and Garcia Nocetti, §4), for `elo`
 * (30 machines) and `elo-60` (60), and the claims of its §5 about it: "comparable to other
 * heuristic based scheduling algorithms", read as within 5% of Min-Min's total execution time,
 * and better than random assignment (the packages/elo README's readings).
 */
export const ELO_BATCH_FIGURES: readonly ExperimentFigure[] = [
  {
    id: "Fig. 3",
    caption:
      "Comparison on total job execution time between our competitive algorithm, the Min-Min heuristic algorithm and random assignment",
    metric: "totalExecution",
    x: { param: "jobs", label: "jobs in the set", short: "jobs" },
    y: { label: "total job execution time (s)" },
    kind: "bar",
    series: PAPER_SERIES,
    claims: [
      {
        text: "the competitive algorithm is comparable to Min-Min (read: its total execution time within 5% of Min-Min's on the same jobs)",
        source: "§5",
        check: within({ schedulers: ["competitive"], metric: "ratioToMinMin", max: 1.05 }),
      },
      {
        text: "the competitive algorithm does better than random assignment (a lower total execution time on the same jobs)",
        source: "§4, Fig. 3",
        check: beats({ better: ["competitive"], than: ["random"], sense: "lower" }),
      },
    ],
  },
];

/**
 * `elo-stream`: the paper's expectation (§5) that the algorithm "works better the longer it is
 * running", and that the ratings must converge before the tier list is precise, over the windows
 * of one long stream (a setting the paper did not run).
 */
export const ELO_STREAM_FIGURES: readonly ExperimentFigure[] = [
  {
    id: "§5 (over time)",
    caption:
      "Total execution time of each window's jobs over Min-Min's on the same jobs (1 = as good as Min-Min)",
    metric: "ratioToMinMin",
    x: { param: "window", label: "window of the stream (by submission order)", short: "window" },
    y: { label: "total execution / Min-Min's", min: 0.8 },
    series: [
      { label: "competitive", name: "competitive" },
      { label: "random", name: "random" },
      { label: "max-min", name: "Max-Min" },
      { label: "mct", name: "MCT" },
    ],
    claims: [
      {
        text: "the competitive algorithm works better the longer it is running: its ratio to Min-Min falls window after window",
        source: "§5",
        check: trend({ schedulers: ["competitive"], direction: "down" }),
      },
      {
        text: "it ends better than it starts: the last window's ratio is below the first's",
        source: "§5",
        check: (r) => {
          const xs = [...r.xs].sort((a, b) => (a as number) - (b as number));
          const first = xs[0];
          const last = xs[xs.length - 1];
          return pointwise(
            r,
            (x) => {
              const a = r.value("competitive", first as number)?.mean;
              const b = r.value("competitive", x)?.mean;
              if (a === undefined || b === undefined) return undefined;
              return b < a
                ? { ok: true }
                : { ok: false, why: `${b.toFixed(3)} vs ${a.toFixed(3)}` };
            },
            { where: (x) => x === last && last !== first },
          );
        },
      },
    ],
  },
  {
    id: "§5 (ratings)",
    caption:
      "Spearman rank correlation of the competitive ratings with the machines' true speeds, at the end of each window (1 = the tier list orders the machines exactly)",
    metric: "rankCorrelation",
    x: { param: "window", label: "window of the stream (by submission order)", short: "window" },
    y: { label: "rank correlation", min: -1, max: 1 },
    series: [{ label: "competitive", name: "competitive" }],
    claims: [
      {
        text: "the ratings converge to a value that gives a precise tier list: the rank correlation rises window after window",
        source: "§5",
        check: trend({ schedulers: ["competitive"], direction: "up" }),
      },
    ],
  },
];
