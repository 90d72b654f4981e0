/** Small statistics helpers for the generator tests. */

/** The two-sample Kolmogorov-Smirnov statistic: the largest gap between the empirical CDFs. */
export function ks2(a: readonly number[], b: readonly number[]): number {
  const x = Float64Array.from(a).sort();
  const y = Float64Array.from(b).sort();
  let i = 0;
  let j = 0;
  let d = 0;
  while (i < x.length && j < y.length) {
    const v = Math.min(x[i]!, y[j]!);
    while (i < x.length && x[i]! <= v) i++;
    while (j < y.length && y[j]! <= v) j++;
    d = Math.max(d, Math.abs(i / x.length - j / y.length));
  }
  return d;
}

export function mean(xs: readonly number[]): number {
  let s = 0;
  for (const x of xs) s += x;
  return s / xs.length;
}

export function variance(xs: readonly number[]): number {
  const m = mean(xs);
  let s = 0;
  for (const x of xs) s += (x - m) * (x - m);
  return s / (xs.length - 1);
}

/** Consecutive differences. */
export function diffs(xs: readonly number[]): number[] {
  const out: number[] = [];
  for (let i = 1; i < xs.length; i++) out.push(xs[i]! - xs[i - 1]!);
  return out;
}

/** ln Gamma(x), Lanczos approximation (g = 7, 9 terms), x > 0. */
export function lnGamma(x: number): number {
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
    -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
    1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - lnGamma(1 - x);
  const z = x - 1;
  let a = c[0]!;
  const t = z + 7.5;
  for (let i = 1; i < 9; i++) a += c[i]! / (z + i);
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

/** The regularized lower incomplete gamma function P(a, x): series, or Lentz's continued fraction. */
export function gammaP(a: number, x: number): number {
  if (x <= 0) return 0;
  const lnPre = a * Math.log(x) - x - lnGamma(a);
  if (x < a + 1) {
    let term = 1 / a;
    let sum = term;
    for (let n = 1; n < 100000; n++) {
      term *= x / (a + n);
      sum += term;
      if (Math.abs(term) < Math.abs(sum) * 1e-15) break;
    }
    return sum * Math.exp(lnPre);
  }
  const tiny = 1e-300;
  let b = x + 1 - a;
  let c = 1 / tiny;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < 100000; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < tiny) d = tiny;
    c = b + an / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < 1e-15) break;
  }
  return 1 - Math.exp(lnPre) * h;
}

/** CDF of the gamma distribution of shape `a` and scale `b`. */
export function gammaCdf(a: number, b: number, x: number): number {
  return gammaP(a, x / b);
}

/** The one-sample Kolmogorov-Smirnov statistic of `xs` against the CDF `cdf`. */
export function ks1(xs: readonly number[], cdf: (x: number) => number): number {
  const s = Float64Array.from(xs).sort();
  const n = s.length;
  let d = 0;
  for (let i = 0; i < n; i++) {
    const f = cdf(s[i]!);
    d = Math.max(d, (i + 1) / n - f, f - i / n);
  }
  return d;
}

/** The 1%-level critical value of the two-sample KS statistic (asymptotic, c = 1.628). */
export function ks2Critical(n: number, m: number): number {
  return 1.628 * Math.sqrt((n + m) / (n * m));
}

/** Upper quantile of the chi-square distribution (Wilson-Hilferty), z the normal quantile. */
export function chiSquareQuantile(df: number, z: number): number {
  const k = 2 / (9 * df);
  return df * (1 - k + z * Math.sqrt(k)) ** 3;
}
