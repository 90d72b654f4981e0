/** Summary statistics over seeds: mean and the half-width of a Student-t 95% confidence interval. */

/** Two-sided 95% Student t quantiles t(0.975, df) for df = 1..30. */
const T975 = [
  12.706205, 4.302653, 3.182446, 2.776445, 2.570582, 2.446912, 2.364624, 2.306004, 2.262157,
  2.228139, 2.200985, 2.178813, 2.160369, 2.144787, 2.13145, 2.119905, 2.109816, 2.100922, 2.093024,
  2.085963, 2.079614, 2.073873, 2.068658, 2.063899, 2.059539, 2.055529, 2.051831, 2.048407, 2.04523,
  2.042272,
];

/**
 * The 0.975 quantile of Student's t distribution with `df` degrees of freedom: a table for
 * df <= 30, beyond that the Cornish-Fisher expansion around the normal quantile (error < 1e-5).
 * @throws RangeError when `df` is not an integer >= 1.
 * @example tQuantile975(10) // 2.228139
 */
export function tQuantile975(df: number): number {
  if (!Number.isInteger(df) || df < 1)
    throw new RangeError(`df must be an integer >= 1, got ${df}`);
  if (df <= T975.length) return T975[df - 1] as number;
  const z = 1.959963984540054;
  const z3 = z ** 3;
  const z5 = z ** 5;
  const z7 = z ** 7;
  return (
    z +
    (z3 + z) / (4 * df) +
    (5 * z5 + 16 * z3 + 3 * z) / (96 * df ** 2) +
    (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * df ** 3)
  );
}

/** Mean, 95% CI half-width and count of a sample. */
export interface Summary {
  readonly mean: number;
  /** `t(0.975, n-1) * s / sqrt(n)` with `s` the sample standard deviation; NaN when n < 2. */
  readonly ci95: number;
  readonly runs: number;
}

/**
 * Mean and Student-t 95% confidence half-width of `values` (summed in the given order, so the
 * same values in the same order give the same bits). NaN values are kept, so a metric that is
 * undefined in one run makes the summary NaN rather than silently biased.
 * @example summarize([1, 2, 3]) // { mean: 2, ci95: 2.484..., runs: 3 }
 */
export function summarize(values: readonly number[]): Summary {
  const n = values.length;
  if (n === 0) return { mean: Number.NaN, ci95: Number.NaN, runs: 0 };
  let sum = 0;
  for (const v of values) sum += v;
  const mean = sum / n;
  if (n < 2) return { mean, ci95: Number.NaN, runs: n };
  let ss = 0;
  for (const v of values) ss += (v - mean) ** 2;
  const sd = Math.sqrt(ss / (n - 1));
  return { mean, ci95: (tQuantile975(n - 1) * sd) / Math.sqrt(n), runs: n };
}
