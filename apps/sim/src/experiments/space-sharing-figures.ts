import { type Check, num, pointwise } from "./claims.js";
import type { ExperimentFigure } from "./experiment.js";

const LOAD = { param: "load", label: "offered load", short: "load" } as const;

/** The paired run that reports gainPct = 100 x (adaptive - dynamic) / adaptive mean response. */
const PAIRED = "dynamic-vs-adaptive";

/**
 * The paired gain's 95% interval at each load from `from` to `to`, tested by `ok` (its mean and
 * half-width, in percent).
 */
function gain(from: number, to: number, ok: (mean: number, ci95: number) => boolean): Check {
  return (r) =>
    pointwise(
      r,
      (x) => {
        const g = r.value(PAIRED, x, "gainPct");
        if (g === undefined || !Number.isFinite(g.mean)) return undefined;
        const ci = Number.isFinite(g.ci95) ? g.ci95 : 0;
        return ok(g.mean, ci)
          ? { ok: true }
          : { ok: false, why: `gain ${num(g.mean)} ± ${num(ci)}%` };
      },
      {
        where: (x) => (x as number) >= from && (x as number) <= to,
        empty: `no load in [${from}, ${to}] with a paired run (${PAIRED})`,
      },
    );
}

/**
 * MAP (adaptive) is more sensitive than the dynamic policy to what the figure's x changes: from
 * the first x value to each other one, its mean response grows by a larger factor.
 */
const adaptiveMoreSensitive: Check = (r) => {
  const first = r.xs[0];
  const ratio = (policy: string, x: (typeof r.xs)[number]) => {
    const base = first === undefined ? undefined : r.value(policy, first)?.mean;
    const at = r.value(policy, x)?.mean;
    return base === undefined || at === undefined ? undefined : at / base;
  };
  return pointwise(
    r,
    (x) => {
      const d = ratio("dynamic", x);
      const a = ratio("adaptive", x);
      if (d === undefined || a === undefined) return undefined;
      return a > d ? { ok: true } : { ok: false, why: `MAP x${num(a)} vs dynamic x${num(d)}` };
    },
    { where: (x) => x !== first, empty: "fewer than two values on x with results" },
  );
};

const BOTH = [
  { label: "dynamic", name: "dynamic" },
  { label: "adaptive", name: "adaptive (MAP)" },
] as const;

/**
 * The dynamic-space-sharing paper's results (Abawajy, ICCS 2004, §4). Its text describes figures
 * of mean response time against load that the extracted text does not contain, so these are
 * drawn as §4.1 and §4.2 describe them. The experiment's grid crosses the platform (`speeds`) and
 * the background load (`backgroundLoad`) with the load, so `report` draws a panel per platform and
 * background; the paper's §4.1 claims are about the homogeneous panel without background, and are
 * checked on every panel so that a reader sees where else they hold.
 */
export const SPACE_SHARING_FIGURES: readonly ExperimentFigure[] = [
  {
    id: "§4.1",
    caption:
      "Relative performance: mean response time against load, dynamic space sharing vs adaptive partitioning (MAP); the paper's setting is the homogeneous panel without background load",
    metric: "meanResponse",
    x: LOAD,
    y: { label: "mean response time (s)" },
    series: BOTH,
    claims: [
      {
        text: "at low load (up to 0.2) there is no significant difference between the two policies (read: the paired 95% interval of the gain contains 0)",
        source: "§4.1",
        check: gain(0, 0.2, (mean, ci) => mean - ci <= 0 && mean + ci >= 0),
      },
    ],
  },
  {
    id: "§4.2 (background load)",
    caption:
      "Sensitivity to background load: mean response time without and with background load on every processor, a panel per platform and offered load",
    metric: "meanResponse",
    x: { param: "backgroundLoad", label: "background load per processor", short: "background" },
    y: { label: "mean response time (s)" },
    series: BOTH,
    claims: [
      {
        text: "the MAP policy is more sensitive to background load than the dynamic policy (read: its mean response grows by a larger factor when background load is added)",
        source: "§4.2",
        check: adaptiveMoreSensitive,
      },
    ],
  },
  {
    id: "§4.2 (heterogeneity)",
    caption:
      "Sensitivity to heterogeneity: mean response time on the homogeneous and the heterogeneous platform, a panel per background load and offered load",
    metric: "meanResponse",
    x: {
      param: "speeds",
      label: "platform",
      short: "platform",
      ticks: { homogeneous: "homogeneous", heterogeneous: "heterogeneous" },
    },
    y: { label: "mean response time (s)" },
    series: BOTH,
    claims: [
      {
        text: "MAP is more sensitive than the dynamic policy to heterogeneity (read: its mean response grows by a larger factor from the homogeneous to the heterogeneous platform)",
        source: "§4.2",
        check: adaptiveMoreSensitive,
      },
    ],
  },
  {
    id: "§4.1-4.2 (paired gain)",
    caption:
      "The dynamic policy's gain over MAP (paired: same jobs and background) against load, a panel per platform and background load",
    metric: "gainPct",
    x: LOAD,
    y: { label: "dynamic better by (%)" },
    series: [{ label: PAIRED, name: "gain of dynamic over MAP" }],
    claims: [
      {
        text: "as the load increases (from 0.5 on), the dynamic policy performs better than the baseline, by about 20% to 30% (read: the paired interval of the gain meets [20, 30]%)",
        source: "§4.1",
        check: gain(
          0.5,
          Number.POSITIVE_INFINITY,
          (mean, ci) => mean + ci >= 20 && mean - ci <= 30,
        ),
      },
    ],
  },
];
