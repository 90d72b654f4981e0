import { beats, trend } from "./claims.js";
import type { ExperimentFigure, FigureAxis, FigureSeries } from "./experiment.js";

/** The seven policies under the paper's names, in its order. */
const POLICIES = ["FF", "PE_B", "PE_W", "Du_B", "Du_W", "PEDu_B", "PEDu_W"];
const SERIES: readonly FigureSeries[] = POLICIES.map((p) => ({
  label: `ar(policy=${p})`,
  name: p,
}));
const label = (p: string): string => `ar(policy=${p})`;
const ACCEPTANCE: FigureAxis = { label: "acceptance rate", max: 1 };
const SLOWDOWN: FigureAxis = { label: "average slowdown", min: 1 };

/** Claims shared by the three studies (§6.2: "the relative performance ... is similar"). */
const FF_LOWEST_SLOWDOWN = {
  text: "FF has the lowest average slowdown",
  source: "§6.2",
  check: beats({ better: [label("FF")], sense: "lower" }),
};
const PEW_DUB_BEST = {
  text: "PE_W and Du_B accept the most requests (better than the five others)",
  source: "§6.2",
  check: beats({ better: [label("PE_W"), label("Du_B")], sense: "higher" }),
};

/**
 * The advance-reservation paper's Figures 2-7 (Li et al., section 6.2), by study: `ar-size`
 * (UMed), `ar-load` (arrival factor), `ar-flex` ({artime factor, deadline factor}).
 */
export const AR_FIGURES: Readonly<Record<string, readonly ExperimentFigure[]>> = {
  "ar-size": [
    {
      id: "Figure 2",
      caption: "Acceptance rate vs job size control parameter UMed",
      metric: "acceptanceRate",
      x: { param: "uMed", label: "UMed", short: "UMed" },
      y: ACCEPTANCE,
      series: SERIES,
      claims: [
        {
          text: "the acceptance rates of all strategies decrease as UMed increases",
          source: "§6.2",
          check: trend({ direction: "down" }),
        },
        {
          text: "PE_W and Du_B perform much better than FF (read: their 95% intervals lie wholly above FF's)",
          source: "§6.2",
          check: beats({
            better: [label("PE_W"), label("Du_B")],
            than: [label("FF")],
            sense: "higher",
            by: "intervals",
          }),
        },
        {
          text: "PE_W and Du_B clearly become the best strategies for all UMed values (read: their 95% intervals lie wholly above the five others')",
          source: "§6.2",
          check: beats({
            better: [label("PE_W"), label("Du_B")],
            sense: "higher",
            by: "intervals",
          }),
        },
        {
          text: "except PE_B and Du_W, all strategies outperform FF",
          source: "§6.2",
          check: beats({
            better: ["PE_W", "Du_B", "PEDu_B", "PEDu_W"].map(label),
            than: [label("FF")],
            sense: "higher",
          }),
        },
      ],
    },
    {
      id: "Figure 3",
      caption: "Slowdown vs job size control parameter UMed",
      metric: "meanSlowdown",
      x: { param: "uMed", label: "UMed", short: "UMed" },
      y: SLOWDOWN,
      series: SERIES,
      claims: [
        {
          text: "the average slowdown of all strategies increases as UMed increases",
          source: "§6.2",
          check: trend({ direction: "up" }),
        },
        FF_LOWEST_SLOWDOWN,
      ],
    },
  ],
  "ar-load": [
    {
      id: "Figure 4",
      caption: "Acceptance rate vs arrival factor with UMed=7",
      metric: "acceptanceRate",
      x: { param: "arrivalFactor", label: "arrival factor", short: "arrival factor" },
      y: ACCEPTANCE,
      series: SERIES,
      claims: [
        {
          text: "as the arrival factor increases, the acceptance rates of all strategies degrade",
          source: "§6.2",
          check: trend({ direction: "down" }),
        },
        PEW_DUB_BEST,
      ],
    },
    {
      id: "Figure 5",
      caption: "Slowdown vs arrival factor with UMed=7",
      metric: "meanSlowdown",
      x: { param: "arrivalFactor", label: "arrival factor", short: "arrival factor" },
      y: SLOWDOWN,
      series: SERIES,
      claims: [
        {
          text: "as the arrival factor increases, the slowdowns of all strategies degrade (grow)",
          source: "§6.2",
          check: trend({ direction: "up" }),
        },
        FF_LOWEST_SLOWDOWN,
      ],
    },
  ],
  "ar-flex": [
    {
      id: "Figure 6",
      caption: "Acceptance rate vs {artimefactor,deadlinefactor} with UMed=7",
      metric: "acceptanceRate",
      x: {
        param: "factors",
        label: "{artime factor, deadline factor}",
        short: "factors",
        ticks: { "1": "{1,1}", "2": "{2,2}", "3": "{3,3}", "4": "{4,4}", "5": "{5,5}" },
      },
      y: ACCEPTANCE,
      series: SERIES,
      claims: [
        {
          text: "the acceptance rates of PE_W, Du_B and PEDu_B increase (almost linearly) with the flexibility",
          source: "§6.2",
          check: trend({ schedulers: ["PE_W", "Du_B", "PEDu_B"].map(label), direction: "up" }),
        },
        {
          text: "PE_W becomes the best algorithm again, with the highest acceptance rate",
          source: "§6.2",
          check: beats({ better: [label("PE_W")], sense: "higher" }),
        },
      ],
    },
    {
      id: "Figure 7",
      caption: "Slowdown vs {artimefactor,deadlinefactor} with UMed=7",
      metric: "meanSlowdown",
      x: {
        param: "factors",
        label: "{artime factor, deadline factor}",
        short: "factors",
        ticks: { "1": "{1,1}", "2": "{2,2}", "3": "{3,3}", "4": "{4,4}", "5": "{5,5}" },
      },
      y: SLOWDOWN,
      series: SERIES,
      claims: [
        {
          text: "as the scheduling flexibility increases, the average slowdowns of all strategies increase",
          source: "§6.2",
          check: trend({ direction: "up" }),
        },
        { ...FF_LOWEST_SLOWDOWN, text: "FF is always the one with the smallest slowdown" },
      ],
    },
  ],
};
