import type { ClaimCheck, FigureResults } from "./experiment.js";
import type { ParamValue } from "./parameters.js";

/**
 * The checks of the papers' claims (`ExperimentFigure.claims`), as functions of a figure's
 * results. Each compares means (the figure shows their 95% intervals beside them) and counts the
 * units where the claim holds; its detail names where it fails, with the numbers. A unit whose
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
}

/**
 * At each x, every `better` policy's mean is better than every `than` policy's (strictly, unless
 * `ties`). A failing point names the pair that breaks it by the most.
 * @example beats({ better: ["cs-ip"], than: ["edf"], sense: "lower" })
 */
export function beats(o: BeatsOptions): Check {
  return (r) => {
    const than = o.than ?? r.schedulers.filter((s) => !o.better.includes(s));
    return pointwise(
      r,
      (x) => {
        const mean = (s: string) => r.value(s, x, o.metric)?.mean;
        const a = o.better.map((s) => [s, mean(s)] as const);
        const b = than.map((s) => [s, mean(s)] as const);
        if ([...a, ...b].some(([, v]) => v === undefined || !Number.isFinite(v))) return undefined;
        if (a.length === 0 || b.length === 0) return undefined;
        // The worst of the better ones against the best of the others.
        const sign = o.sense === "lower" ? 1 : -1;
        const [worst, wv] = a.reduce((p, q) =>
          sign * (q[1] as number) > sign * (p[1] as number) ? q : p,
        );
        const [best, bv] = b.reduce((p, q) =>
          sign * (q[1] as number) < sign * (p[1] as number) ? q : p,
        );
        const d = sign * ((bv as number) - (wv as number));
        const ok = o.ties ? d >= 0 : d > 0;
        return ok
          ? { ok }
          : {
              ok,
              why: `${r.name(best)} ${num(bv as number)} vs ${r.name(worst)} ${num(wv as number)}`,
            };
      },
      o.where === undefined ? {} : { where: o.where },
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
  };
}
