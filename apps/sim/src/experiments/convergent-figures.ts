import { beats, closePairs, pairwise, trend, within } from "./claims.js";
import type { ExperimentFigure, FigureSeries } from "./experiment.js";

/** The paper's names of the eight policies (section 6), in its order. */
const SERIES: readonly FigureSeries[] = [
  { label: "cs-ip", name: "CS_i_p" },
  { label: "cs-inp", name: "CS_i_np" },
  { label: "cs-nip", name: "CS_ni_p" },
  { label: "cs-ninp", name: "CS_ni_np" },
  { label: "easy", name: "BF-easy" },
  { label: "bf-rm", name: "BF-rm" },
  { label: "bf-unrm", name: "BF-unrm" },
  { label: "edf", name: "EDF" },
];
const CS = ["cs-ip", "cs-inp", "cs-nip", "cs-ninp"];
const BASELINES = ["easy", "bf-rm", "bf-unrm", "edf"];
const TA = {
  param: "interArrival",
  label: "T_a: mean job inter-arrival time (s)",
  short: "T_a",
} as const;

/**
 * The convergent-scheduling paper's Figures 3-7 (Capannini et al., SC'07, section 6), with the
 * claims its text makes about them.
 */
export const CONVERGENT_FIGURES: readonly ExperimentFigure[] = [
  {
    id: "Fig. 3",
    caption:
      "System workload through simulations (the paper plots it over each run's time; here its time average per run: jobs ready or running)",
    metric: "meanWorkload",
    x: TA,
    y: { label: "system workload (jobs, time average)" },
    series: SERIES,
    claims: [
      {
        text: "the shorter the inter-arrival time, the higher the contention: the workload falls as T_a grows",
        source: "§6",
        check: trend({ direction: "down" }),
      },
    ],
  },
  {
    id: "Fig. 4",
    caption: "Percentage of jobs executed do not respecting their deadline",
    metric: "latePct",
    x: TA,
    y: { label: "late jobs (% of jobs with a deadline)", max: 100 },
    series: SERIES,
    claims: [
      {
        text: "the three backfilling algorithms and EDF miss more deadlines than all the CS schedulers",
        source: "§6",
        check: beats({ better: CS, than: BASELINES, sense: "lower" }),
      },
      {
        text: "the incremental CS versions obtain results equal or very close to the non-incremental ones: CS_i_p and CS_ni_p, CS_i_np and CS_ni_np (95% intervals overlap)",
        source: "§6",
        check: closePairs({
          pairs: [
            ["cs-ip", "cs-nip"],
            ["cs-inp", "cs-ninp"],
          ],
        }),
      },
    ],
  },
  {
    id: "Fig. 5",
    caption: "Slowdown of jobs submitted without deadline",
    metric: "slowdownNoDeadline",
    x: TA,
    y: { label: "slowdown (Tw + Te) / Te", scale: "log" },
    series: SERIES,
    claims: [
      {
        text: "for T_a >= 10 the CS schedulers' slowdown is equal or very close to 1 (read: at most 1.1)",
        source: "§6",
        check: within({ schedulers: CS, max: 1.1, where: (x) => (x as number) >= 10 }),
      },
    ],
  },
  {
    id: "Fig. 6",
    caption: "Percentage of machine usage",
    metric: "machineUsage",
    x: TA,
    y: { label: "machine usage (%)", max: 100 },
    series: SERIES,
    claims: [
      {
        text: "the CS algorithms keep all the machines always busy (read: usage at least 95%)",
        source: "§6",
        check: within({ schedulers: CS, min: 95 }),
      },
    ],
  },
  {
    id: "Fig. 7",
    caption: "Average scheduling times (here: wall-clock ms per scheduling plan)",
    metric: "schedTimeMs",
    timing: true,
    x: TA,
    y: { label: "scheduling time per plan (ms)", scale: "log" },
    series: SERIES,
    claims: [
      {
        text: "the CS versions with preemption need more time than those without (CS_i_p > CS_i_np, CS_ni_p > CS_ni_np)",
        source: "§6",
        check: pairwise({
          pairs: [
            ["cs-inp", "cs-ip"],
            ["cs-ninp", "cs-nip"],
          ],
          sense: "lower",
        }),
      },
      {
        text: "the incremental versions need less time than the others (CS_i_p < CS_ni_p, CS_i_np < CS_ni_np)",
        source: "§6",
        check: pairwise({
          pairs: [
            ["cs-ip", "cs-nip"],
            ["cs-inp", "cs-ninp"],
          ],
          sense: "lower",
        }),
      },
    ],
  },
];
