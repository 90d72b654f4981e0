// Shared by the reproduction scripts (tables.mjs, sensitivity.mjs, paired.mjs, table1.mjs):
// command-line flags and the mean with its Student-t 95% half-width.

/** Two-sided 97.5% quantiles of Student's t for 1..30 degrees of freedom. */
const T975 = [
  12.706205, 4.302653, 3.182446, 2.776445, 2.570582, 2.446912, 2.364624, 2.306004, 2.262157,
  2.228139, 2.200985, 2.178813, 2.160369, 2.144787, 2.13145, 2.119905, 2.109816, 2.100922, 2.093024,
  2.085963, 2.079614, 2.073873, 2.068658, 2.063899, 2.059539, 2.055529, 2.051831, 2.048407, 2.04523,
  2.042272,
];

/**
 * The command line's arguments and a reader of its `--name value` flags: `flag(name, fallback)`
 * returns the value (or `fallback`) and removes the pair from `args`.
 */
export function commandLine() {
  const args = process.argv.slice(2);
  const flag = (name, fallback) => {
    const i = args.indexOf(`--${name}`);
    if (i < 0) return fallback;
    const v = args[i + 1];
    args.splice(i, 2);
    return v;
  };
  return { args, flag };
}

/** Mean of `xs` and the half-width of its Student-t 95% interval (NaN for fewer than 2). */
export function meanCi(xs) {
  const n = xs.length;
  const mean = xs.reduce((s, x) => s + x, 0) / n;
  if (n < 2) return { mean, ci: Number.NaN, n };
  const sd = Math.sqrt(xs.reduce((s, x) => s + (x - mean) ** 2, 0) / (n - 1));
  const t = n - 1 <= T975.length ? T975[n - 2] : 1.96;
  return { mean, ci: (t * sd) / Math.sqrt(n), n };
}
