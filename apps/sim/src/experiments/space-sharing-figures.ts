import { type Check, num, pointwise } from "./claims.js";
import type { ExperimentFigure } from "./experiment.js";

const label = (policy: string, platform: string, background: boolean): string =>
  `${policy}(background=${background},platform=${platform})`;
const LOAD = { param: "load", label: "offered load", short: "load" } as const;

/** Dynamic's mean response below adaptive's in one setting, with the reduction at each load. */
function dynamicBelow(platform: string, background: boolean, from: number): Check {
  const d = label("dynamic", platform, background);
  const a = label("adaptive", platform, background);
  return (r) =>
    pointwise(
      r,
      (x) => {
        const dv = r.value(d, x)?.mean;
        const av = r.value(a, x)?.mean;
        if (dv === undefined || av === undefined) return undefined;
        return dv < av ? { ok: true } : { ok: false, why: `${num(dv)} vs ${num(av)} s` };
      },
      {
        where: (x) => (x as number) >= from,
        notes: (xs) => {
          const cuts = xs.flatMap((x) => {
            const dv = r.value(d, x)?.mean;
            const av = r.value(a, x)?.mean;
            return dv === undefined || av === undefined
              ? []
              : [`${num(100 * (1 - dv / av))}% at ${num(x as number)}`];
          });
          return cuts.length === 0 ? undefined : `dynamic's reduction: ${cuts.join(", ")}`;
        },
      },
    );
}

/**
 * Adaptive partitioning suffers more than dynamic space sharing from going from the plain
 * setting (homogeneous, no background) to `platform` with background load: its mean response
 * grows by a larger factor, at each load from `from` on.
 */
function adaptiveMoreSensitive(platform: string, from: number): Check {
  return (r) =>
    pointwise(
      r,
      (x) => {
        const ratio = (policy: string) => {
          const loaded = r.value(label(policy, platform, true), x)?.mean;
          const plain = r.value(label(policy, "homogeneous", false), x)?.mean;
          return loaded === undefined || plain === undefined ? undefined : loaded / plain;
        };
        const d = ratio("dynamic");
        const a = ratio("adaptive");
        if (d === undefined || a === undefined) return undefined;
        return a > d
          ? { ok: true }
          : { ok: false, why: `adaptive x${num(a)} vs dynamic x${num(d)}` };
      },
      { where: (x) => (x as number) >= from },
    );
}

/**
 * The dynamic-space-sharing paper's results (Abawajy, ICCS 2004, §4): its text describes
 * figures of mean response time against load that the extracted text does not contain, so
 * these are drawn as its §4.1 and §4.2 describe them.
 */
export const SPACE_SHARING_FIGURES: readonly ExperimentFigure[] = [
  {
    id: "§4.1",
    caption:
      "Relative performance: mean response time against load, dynamic space sharing vs adaptive partitioning (MAP), homogeneous clusters, no background load",
    metric: "meanResponse",
    x: LOAD,
    y: { label: "mean response time (s)" },
    series: [
      { label: label("dynamic", "homogeneous", false), name: "dynamic" },
      { label: label("adaptive", "homogeneous", false), name: "adaptive (MAP)" },
    ],
    claims: [
      {
        text: "as the load increases (from 0.5 on), the dynamic policy performs better than the baseline, by about 20% to 30%",
        source: "§4.1",
        check: dynamicBelow("homogeneous", false, 0.5),
      },
    ],
  },
  {
    id: "§4.2",
    caption:
      "Sensitivity: mean response time against load with background load, homogeneous and heterogeneous clusters",
    metric: "meanResponse",
    x: LOAD,
    y: { label: "mean response time (s)" },
    series: [
      { label: label("dynamic", "homogeneous", true), name: "dynamic, background" },
      { label: label("adaptive", "homogeneous", true), name: "MAP, background" },
      {
        label: label("dynamic", "heterogeneous", true),
        name: "dynamic, heterogeneous + background",
      },
      { label: label("adaptive", "heterogeneous", true), name: "MAP, heterogeneous + background" },
    ],
    claims: [
      {
        text: "the MAP policy is more sensitive to background load than the dynamic policy (its response grows by a larger factor)",
        source: "§4.2",
        check: adaptiveMoreSensitive("homogeneous", 0),
      },
      {
        text: "at medium to high loads (0.4 on), MAP is more sensitive than dynamic to background load and heterogeneity combined",
        source: "§4.2",
        check: adaptiveMoreSensitive("heterogeneous", 0.4),
      },
    ],
  },
];
