import { OAS_RULES } from "@sched/multicluster";
import { beats, num, pointwise, trend, within } from "./claims.js";
import type { ExperimentFigure } from "./experiment.js";

const SLOT = {
  param: "slotFraction",
  label: "time-slot size (% of the mean base time)",
  short: "slot",
  ticks: {
    "0.15": "15%",
    "0.25": "25%",
    "0.5": "50%",
    "1": "100%",
    "1.5": "150%",
    "2": "200%",
    "2.5": "250%",
  },
} as const;

/** The OAS paper's Fig. 3 (Blanco et al., §4.1), for `oas-slots`. */
export const OAS_SLOTS_FIGURES: readonly ExperimentFigure[] = [
  {
    id: "Fig. 3 (makespan)",
    caption:
      "Comparison for the model slot size: makespan (the MIP's plan run with each job at its slot; also the MIP's slotted objective and the plan compacted)",
    metric: "makespan",
    x: SLOT,
    y: { label: "makespan (s)" },
    series: [
      { label: "oas", name: "OAS plan at its slots", metric: "makespan" },
      { label: "oas", name: "MIP objective (slots x eta)", metric: "mipMakespan" },
      { label: "oas(replay=compact)", name: "plan compacted", metric: "makespan" },
    ],
    claims: [
      {
        text: "when the slot size increases, the makespan increases",
        source: "§4.1",
        check: trend({ schedulers: ["oas"], direction: "up" }),
      },
      {
        text: "below 50% the makespan values become stable (read: within 5% of the smallest of them)",
        source: "§4.1",
        check: (r) => {
          const small = r.xs.filter((x) => (x as number) <= 0.5);
          const values = small.flatMap((x) => {
            const v = r.value("oas", x)?.mean;
            return v === undefined ? [] : [v];
          });
          const best = Math.min(...values);
          return pointwise(
            r,
            (x) => {
              const v = r.value("oas", x)?.mean;
              if (v === undefined) return undefined;
              return v <= best * 1.05
                ? { ok: true }
                : { ok: false, why: `${num(v)} vs ${num(best)} s` };
            },
            { where: (x) => (x as number) <= 0.5, empty: "no slot size at or below 50%" },
          );
        },
      },
    ],
  },
  {
    id: "Fig. 3 (solving time)",
    caption:
      "Comparison for the model slot size: the solver's CPU time (HiGHS within its node budget; CPLEX in the paper)",
    metric: "solveSeconds",
    x: SLOT,
    y: { label: "solving time (CPU s)", scale: "log" },
    series: [{ label: "oas", name: "OAS (MIP)" }],
    claims: [
      {
        text: "the shorter the time slot, the longer the solving time",
        source: "§4.1",
        check: trend({ schedulers: ["oas"], direction: "down" }),
      },
    ],
  },
];

/** The x axis of the per-batch figures: the workloads WL-1..WL-6. */
const WORKLOAD = {
  param: "workload",
  label: "workload",
  short: "workload",
  ticks: Object.fromEntries(["WL-1", "WL-2", "WL-3", "WL-4", "WL-5", "WL-6"].map((w) => [w, w])),
} as const;

/** The six heuristics the paper compares OAS with (§4.2), by their labels in `oas`. */
const OAS_HEURISTICS: readonly string[] = OAS_RULES.map((rule) => rule.toLowerCase());
/** Their series, under the paper's names. */
const HEURISTIC_SERIES = OAS_RULES.map((rule) => ({ label: rule.toLowerCase(), name: rule }));

/** The OAS paper's Fig. 4 (Blanco et al., §4.2), for `oas`. */
export const OAS_FIGURES: readonly ExperimentFigure[] = [
  {
    id: "Fig. 4",
    caption: "Comparison of six kinds of workloads (makespan)",
    metric: "makespan",
    kind: "bar",
    x: WORKLOAD,
    y: { label: "makespan (s)" },
    series: [{ label: "oas", name: "OAS" }, ...HEURISTIC_SERIES],
    claims: [
      {
        text: "OAS always obtains good results irrespective of the workload (read: a makespan no longer than any heuristic's)",
        source: "§4.2",
        // Against the six heuristics only: OAS's own variants (compacted replay, warm start) are
        // not "techniques present in the literature".
        check: beats({ better: ["oas"], than: OAS_HEURISTICS, sense: "lower", ties: true }),
      },
    ],
  },
];

/**
 * The co-allocation side of the OAS paper (§3: eq. 4-7, constraints 21-22) on links that bind,
 * for `oas-links`. The paper shows no figure of it; drawn as the makespan per batch.
 */
export const OAS_LINKS_FIGURES: readonly ExperimentFigure[] = [
  {
    id: "§3 (links)",
    caption:
      "Inter-cluster links that bind (heavy per-task bandwidths): makespan of OAS with and without constraints (21)-(22), and of the six heuristics link-aware and link-blind",
    metric: "makespan",
    kind: "bar",
    x: WORKLOAD,
    y: { label: "makespan (s)" },
    series: [
      { label: "oas", name: "OAS" },
      { label: "oas(links=false)", name: "OAS without (21)-(22)" },
      ...HEURISTIC_SERIES,
      ...OAS_RULES.map((rule) => ({
        label: `${rule.toLowerCase()}(links=false)`,
        name: `${rule} (link-blind)`,
      })),
    ],
    claims: [
      {
        text: "OAS avoids the saturation of the inter-cluster links (read: no job slowed by link contention)",
        source: "§3 (constraints 21-22)",
        check: within({ schedulers: ["oas"], metric: "contentionSlowed", max: 0 }),
      },
      {
        text: "contention for the inter-cluster links can significantly reduce performance (read: OAS with constraints (21)-(22) has a makespan no longer than without them)",
        source: "§3",
        check: beats({
          better: ["oas"],
          than: ["oas(links=false)"],
          sense: "lower",
          ties: true,
        }),
      },
    ],
  },
];
