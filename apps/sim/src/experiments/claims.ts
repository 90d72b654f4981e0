import type { Summary } from "../stats.js";
import type { ClaimCheck, FigureResults } from "./experiment.js";
import type { ParamValue } from "./parameters.js";

/**
 * The checks of the papers' claims (`ExperimentFigure.claims`), as functions of a figure's
 * results. Each compares means (the figure shows their 95% intervals beside them), or the
 * intervals themselves where the paper's words ask for more than an order ("equal or very
 * close", "much better"), and counts the units where the claim holds; its detail names where it fails, with the numbers. A unit whose
 * values are missing (no finished run) is not counted.
 */

/** Which way is better. */
export type Sense = "lower" | "higher";

/** A claim check, ready for `FigureClaim.check`. */
export type Check = (results: FigureResults) => ClaimCheck;

/** A number for a detail: 3 significant digits. */
export function num(v: number): string {
  return Number.isFinite(v) ? String(Number(v.toPrecision(3))) : "-";
}

/** The x values, numbers ascending (grid order otherwise), kept by `where`. */
function xsOf(r: FigureResults, where?: (x: ParamValue) => boolean): ParamValue[] {
  const xs = r.xs.filter((x) => where === undefined || where(x));
  return xs.every((x) => typeof x === "number")
    ? [...xs].sort((a, b) => (a as number) - (b as number))
    : xs;
}

/** A detail line listing at most three failures. */
function failures(list: readonly string[]): string | undefined {
  if (list.length === 0) return undefined;
  const shown = list.slice(0, 3).join("; ");
  return `fails at ${shown}${list.length > 3 ? `; and ${list.length - 3} more` : ""}`;
}

/** Options of {@link pointwise}. */
export interface PointwiseOptions {
  /** Only the x values it keeps. @defaultValue every x */
  readonly where?: (x: ParamValue) => boolean;
  /** A note added to the detail (the numbers behind the claim), from the points checked. */
  readonly notes?: (xs: readonly ParamValue[]) => string | undefined;
  /** Why no point could be judged. @defaultValue "no point has results for every policy the claim names" */
  readonly empty?: string;
}

/**
 * Count the points where `test` holds: `test(x)` returns undefined when the point cannot be
 * judged (missing values), else whether it holds and, if not, a few words for the detail.
 */
export function pointwise(
  r: FigureResults,
  test: (x: ParamValue) => { readonly ok: boolean; readonly why?: string } | undefined,
  options: PointwiseOptions = {},
): ClaimCheck {
  const { where, notes } = options;
  let held = 0;
  let of = 0;
  const failed: string[] = [];
  const xs = xsOf(r, where);
  for (const x of xs) {
    const t = test(x);
    if (t === undefined) continue;
    of++;
    if (t.ok) held++;
    else failed.push(`${r.at(x)}${t.why === undefined ? "" : ` (${t.why})`}`);
  }
  const parts = [failures(failed), notes?.(xs)].filter((p) => p !== undefined);
  return {
    held,
    of,
    unit: "points",
    ...(parts.length > 0 ? { detail: parts.join("; ") } : {}),
    ...(of === 0
      ? { detail: options.empty ?? "no point has results for every policy the claim names" }
      : {}),
  };
}

/** Options of {@link beats}. */
export interface BeatsOptions {
  /** The labels that should do better. */
  readonly better: readonly string[];
  /** The labels they should beat. @defaultValue every other scheduler with results */
  readonly than?: readonly string[];
  readonly sense: Sense;
  /** @defaultValue the figure's metric */
  readonly metric?: string;
  /** Equal means count as beating. @defaultValue false */
  readonly ties?: boolean;
  /** Only the x values it keeps. @defaultValue every x */
  readonly where?: (x: ParamValue) => boolean;
  /**
   * `"means"`: the means are compared. `"intervals"`: "much better", "clearly": each `better`
   * policy's 95% interval lies wholly on the better side of each other's (the two do not
   * overlap, the negation of {@link close}'s "equal or very close"); needs two seeds or more.
   * @defaultValue "means"
   */
  readonly by?: "means" | "intervals";
}

/**
 * At each x, every `better` policy's mean is better than every `than` policy's (strictly, unless
 * `ties`); with `by: "intervals"`, its 95% interval lies beyond theirs. A failing point names the
 * pair that breaks it by the most.
 * @example beats({ better: ["cs-ip"], than: ["edf"], sense: "lower" })
 */
export function beats(o: BeatsOptions): Check {
  return (r) => {
    const than = o.than ?? r.schedulers.filter((s) => !o.better.includes(s));
    const sign = o.sense === "lower" ? 1 : -1;
    const intervals = o.by === "intervals";
    return pointwise(
      r,
      (x) => {
        // A policy's edge: its mean, or with intervals the end of its 95% interval facing the
        // other side (the worse end for the better ones, the better end for the others).
        const edge = (s: string, towards: 1 | -1) => {
          const v = r.value(s, x, o.metric);
          if (v === undefined) return undefined;
          return intervals ? v.mean + towards * sign * v.ci95 : v.mean;
        };
        const a = o.better.map((s) => [s, edge(s, 1)] as const);
        const b = than.map((s) => [s, edge(s, -1)] as const);
        if ([...a, ...b].some(([, v]) => v === undefined || !Number.isFinite(v))) return undefined;
        if (a.length === 0 || b.length === 0) return undefined;
        // The worst of the better ones against the best of the others.
        const [worst, wv] = a.reduce((p, q) =>
          sign * (q[1] as number) > sign * (p[1] as number) ? q : p,
        );
        const [best, bv] = b.reduce((p, q) =>
          sign * (q[1] as number) < sign * (p[1] as number) ? q : p,
        );
        const d = sign * ((bv as number) - (wv as number));
        const ok = o.ties ? d >= 0 : d > 0;
        if (ok) return { ok };
        if (!intervals) {
          return {
            ok,
            why: `${r.name(best)} ${num(bv as number)} vs ${r.name(worst)} ${num(wv as number)}`,
          };
        }
        const show = (s: string) => {
          const v = r.value(s, x, o.metric) as Summary;
          return `${r.name(s)} ${num(v.mean)} ± ${num(v.ci95)}`;
        };
        const means = (s: string) => (r.value(s, x, o.metric) as Summary).mean;
        const ordered = sign * (means(best) - means(worst)) > 0;
        return {
          ok,
          why: `${show(best)} vs ${show(worst)}${ordered ? ": the intervals overlap" : ""}`,
        };
      },
      {
        ...(o.where === undefined ? {} : { where: o.where }),
        ...(intervals ? { empty: "needs two seeds or more (95% intervals)" } : {}),
      },
    );
  };
}

/** Options of {@link trend}. */
export interface TrendOptions {
  /** The policies whose means must move. @defaultValue every scheduler with results */
  readonly schedulers?: readonly string[];
  /** `"up"`: each step to a larger x raises the mean; `"down"`: lowers it. */
  readonly direction: "up" | "down";
  /** @defaultValue the figure's metric */
  readonly metric?: string;
}

/**
 * Each step between consecutive x values (ascending) moves each policy's mean the said way
 * (strictly); the units are steps x policies.
 */
export function trend(o: TrendOptions): Check {
  return (r) => {
    const xs = xsOf(r);
    const labels = o.schedulers ?? r.schedulers;
    let held = 0;
    let of = 0;
    const failed: string[] = [];
    for (const s of labels) {
      for (let i = 1; i < xs.length; i++) {
        const a = r.value(s, xs[i - 1] as ParamValue, o.metric)?.mean;
        const b = r.value(s, xs[i] as ParamValue, o.metric)?.mean;
        if (a === undefined || b === undefined || !Number.isFinite(a) || !Number.isFinite(b)) {
          continue;
        }
        of++;
        if (o.direction === "up" ? b > a : b < a) held++;
        else {
          failed.push(
            `${r.name(s)} ${r.at(xs[i - 1] as ParamValue)} → ${r.at(xs[i] as ParamValue)} (${num(a)} → ${num(b)})`,
          );
        }
      }
    }
    const detail = failures(failed);
    return {
      held,
      of,
      unit: "steps",
      ...(detail === undefined ? {} : { detail }),
      ...(of === 0 ? { detail: "fewer than two x values with results" } : {}),
    };
  };
}

/** Options of {@link within}. */
export interface WithinOptions {
  readonly schedulers: readonly string[];
  /** @defaultValue the figure's metric */
  readonly metric?: string;
  /** Largest mean allowed. @defaultValue no bound */
  readonly max?: number;
  /** Smallest mean allowed. @defaultValue no bound */
  readonly min?: number;
  /** Only the x values it keeps. @defaultValue every x */
  readonly where?: (x: ParamValue) => boolean;
}

/** At each x, every named policy's mean lies within [min, max]. */
export function within(o: WithinOptions): Check {
  return (r) =>
    pointwise(
      r,
      (x) => {
        const out: string[] = [];
        for (const s of o.schedulers) {
          const v = r.value(s, x, o.metric)?.mean;
          if (v === undefined || !Number.isFinite(v)) return undefined;
          if ((o.max !== undefined && v > o.max) || (o.min !== undefined && v < o.min)) {
            out.push(`${r.name(s)}${o.metric === undefined ? "" : ` ${o.metric}`} ${num(v)}`);
          }
        }
        return out.length === 0 ? { ok: true } : { ok: false, why: out.join(", ") };
      },
      o.where === undefined ? {} : { where: o.where },
    );
}

/**
 * At each x, the 95% confidence intervals of policies `a` and `b` overlap (their means differ by
 * at most the sum of the half-widths): "equal or very close", with no threshold of our own.
 * Needs two seeds or more (a point without intervals is not counted).
 */
export function close(o: {
  readonly a: string;
  readonly b: string;
  readonly metric?: string;
}): Check {
  return (r) =>
    pointwise(
      r,
      (x) => {
        const a = r.value(o.a, x, o.metric);
        const b = r.value(o.b, x, o.metric);
        if (a === undefined || b === undefined) return undefined;
        if (![a.mean, b.mean, a.ci95, b.ci95].every(Number.isFinite)) return undefined;
        const ok = Math.abs(a.mean - b.mean) <= a.ci95 + b.ci95;
        return ok
          ? { ok }
          : {
              ok,
              why: `${r.name(o.a)} ${num(a.mean)} ± ${num(a.ci95)} vs ${r.name(o.b)} ${num(b.mean)} ± ${num(b.ci95)}`,
            };
      },
      { empty: "needs two seeds or more (95% intervals)" },
    );
}

/**
 * Each pair's first policy beats its second (as {@link beats} with one policy each side), at
 * every x; the units are pairs x points.
 * @example pairwise({ pairs: [["cs-inp", "cs-ip"]], sense: "lower" }) // CS_inp faster than CS_ip
 */
export function pairwise(o: {
  readonly pairs: readonly (readonly [string, string])[];
  readonly sense: Sense;
  readonly metric?: string;
}): Check {
  return (r) => {
    const checks = o.pairs.map(([a, b]) =>
      beats({ better: [a], than: [b], sense: o.sense, ...(o.metric ? { metric: o.metric } : {}) })(
        r,
      ),
    );
    return pairsTotal(checks);
  };
}

/** The checks of several pairs as one: their counts summed, the details of those judged joined. */
function pairsTotal(checks: readonly ClaimCheck[]): ClaimCheck {
  const detail = checks
    .filter((c) => c.of > 0 && c.detail !== undefined)
    .map((c) => c.detail)
    .join("; ");
  return {
    held: checks.reduce((s, c) => s + c.held, 0),
    of: checks.reduce((s, c) => s + c.of, 0),
    unit: "comparisons",
    ...(detail === "" ? {} : { detail }),
  };
}

/**
 * Each pair's policies obtain "equal or very close" results, by {@link close}'s rule (their 95%
 * intervals overlap), at every x; the units are pairs x points.
 * @example closePairs({ pairs: [["cs-ip", "cs-nip"], ["cs-inp", "cs-ninp"]] })
 */
export function closePairs(o: {
  readonly pairs: readonly (readonly [string, string])[];
  readonly metric?: string;
}): Check {
  return (r) => {
    const checks = o.pairs.map(([a, b]) =>
      close({ a, b, ...(o.metric === undefined ? {} : { metric: o.metric }) })(r),
    );
    const total = pairsTotal(checks);
    return checks.some((c) => c.of > 0)
      ? total
      : { ...total, detail: "needs two seeds or more (95% intervals)" };
  };
}

/** Options of the checks of a quantity through a run ({@link steady}, {@link orderedAcross}). */
export interface SpanOptions {
  /**
   * The end of the span of x judged (x from 0 to it; the figure's last x if that comes first),
   * from the panel's parameters; a string says why it cannot be known.
   */
  readonly end: (r: FigureResults) => number | string;
  /** @defaultValue the figure's metric */
  readonly metric?: string;
}

/** The span [0, end] of a panel, cut at its last x; a string says why there is none. */
function spanOf(r: FigureResults, o: SpanOptions): number | string {
  const end = o.end(r);
  if (typeof end === "string") return end;
  let last = Number.NEGATIVE_INFINITY;
  for (const x of r.xs) if (typeof x === "number" && x > last) last = x;
  if (last === Number.NEGATIVE_INFINITY) return "x is not a number";
  return Math.min(end, last);
}

/**
 * The mean of `s`'s means at the x values in [from, to]: a time average when x is a time on an
 * even grid. Undefined when no x lies there or a value there is missing.
 */
function spanMean(
  r: FigureResults,
  s: string,
  from: number,
  to: number,
  metric?: string,
): number | undefined {
  const xs = r.xs.filter((x): x is number => typeof x === "number" && x >= from && x <= to);
  if (xs.length === 0) return undefined;
  let sum = 0;
  for (const x of xs) {
    const v = r.value(s, x, metric)?.mean;
    if (v === undefined || !Number.isFinite(v)) return undefined;
    sum += v;
  }
  return sum / xs.length;
}

/** A relative change in percent, signed, for details. */
function pct(g: number): string {
  return Number.isFinite(g) ? `${g >= 0 ? "+" : ""}${Math.round(100 * g)}%` : "+∞";
}

/** Options of {@link steady}. */
export interface SteadyOptions extends SpanOptions {
  /**
   * Whether the panel's quantity should grow through the span (true) or stay almost constant
   * (false); a string says why the panel cannot be judged.
   */
  readonly grows: (r: FigureResults) => boolean | string;
  /**
   * The largest relative change of the last quarter's mean over the second quarter's that is
   * "almost constant" (0.25: within ±25%); a larger rise is growth.
   */
  readonly tolerance: number;
  /** @defaultValue every scheduler with results */
  readonly schedulers?: readonly string[];
}

/**
 * Through the span [0, E] of x (a run's time), whether each policy's mean grows or stays almost
 * constant as the panel should: the mean over the last quarter [3E/4, E] against the mean over
 * the second [E/4, E/2] (the first holds the start from an empty system). "Almost constant":
 * the relative change is within ±`tolerance`; "grows": it rises by more than `tolerance`. The
 * units are the panel's policies; the detail gives each one's two means and their change.
 */
export function steady(o: SteadyOptions): Check {
  return (r) => {
    const span = spanOf(r, o);
    const grows = o.grows(r);
    const cannot = typeof span === "string" ? span : typeof grows === "string" ? grows : undefined;
    if (cannot !== undefined) return { held: 0, of: 0, unit: "series", detail: cannot };
    const e = span as number;
    let held = 0;
    let of = 0;
    const failed: string[] = [];
    const seen: string[] = [];
    for (const s of o.schedulers ?? r.schedulers) {
      const q2 = spanMean(r, s, e / 4, e / 2, o.metric);
      const q4 = spanMean(r, s, (3 * e) / 4, e, o.metric);
      if (q2 === undefined || q4 === undefined) continue;
      of++;
      const g = q2 === 0 ? (q4 === 0 ? 0 : Number.POSITIVE_INFINITY) : q4 / q2 - 1;
      const ok = grows ? g > o.tolerance : Math.abs(g) <= o.tolerance;
      const says = `${r.name(s)} ${num(q2)} → ${num(q4)} (${pct(g)})`;
      seen.push(says);
      if (ok) held++;
      else failed.push(says);
    }
    const band = pct(o.tolerance).replace("+", "");
    const expected = grows
      ? `growth expected (a rise of more than ${band})`
      : `almost constant expected (within ±${band})`;
    const numbers = `second-quarter → last-quarter means over [0, ${num(e)}]: ${seen.join(", ")}`;
    return {
      held,
      of,
      unit: "series",
      detail:
        of === 0
          ? `no policy has results in both quarters of [0, ${num(e)}]`
          : `${numbers}; ${expected}`,
    };
  };
}

/** Options of {@link orderedAcross}. */
export interface OrderedAcrossOptions extends SpanOptions {
  /** The grid axis whose panels are compared (the figure's other parameter, e.g. interArrival). */
  readonly axis: string;
  /** The axis's short name in details. @defaultValue `axis` */
  readonly short?: string;
  /** `"down"`: each step to a larger axis value lowers the mean over the span; `"up"`: raises it. */
  readonly direction: "up" | "down";
  /** @defaultValue every scheduler with results */
  readonly schedulers?: readonly string[];
}

/**
 * Across the panels of another grid axis (Figure 3: a panel per T_a), each policy's mean over
 * each panel's own span [0, E] moves the said way at each step to a larger axis value (strictly);
 * every panel judges the same steps (steps x policies), as the paper's single plot does.
 */
export function orderedAcross(o: OrderedAcrossOptions): Check {
  return (r) => {
    const panels = r.across(o.axis);
    if (panels.length < 2) {
      return { held: 0, of: 0, unit: "steps", detail: `needs two values of ${o.axis} or more` };
    }
    const name = o.short ?? o.axis;
    const at = (p: FigureResults) => `${name} = ${String(p.param(o.axis))}`;
    let held = 0;
    let of = 0;
    const failed: string[] = [];
    const lines: string[] = [];
    for (const s of o.schedulers ?? r.schedulers) {
      const means = panels.map((p) => {
        const span = spanOf(p, o);
        return typeof span === "string" ? undefined : spanMean(p, s, 0, span, o.metric);
      });
      lines.push(`${r.name(s)} ${means.map((m) => (m === undefined ? "-" : num(m))).join(", ")}`);
      for (let i = 1; i < panels.length; i++) {
        const a = means[i - 1];
        const b = means[i];
        if (a === undefined || b === undefined) continue;
        of++;
        if (o.direction === "down" ? b < a : b > a) held++;
        else {
          failed.push(
            `${r.name(s)} ${at(panels[i - 1] as FigureResults)} → ${at(panels[i] as FigureResults)} (${num(a)} → ${num(b)})`,
          );
        }
      }
    }
    const values = panels.map((p) => String(p.param(o.axis))).join(", ");
    const parts = [
      failures(failed),
      `means over each run's span at ${name} = ${values}: ${lines.join("; ")}`,
    ].filter((p) => p !== undefined);
    return {
      held,
      of,
      unit: "steps",
      detail: of === 0 ? "no two panels with results for the same policy" : parts.join("; "),
    };
  };
}
