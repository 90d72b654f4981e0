import { InvalidInputError } from "@sched/core";

/** 32-bit FNV-1a hash of a string. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** One step of SplitMix32: a well-mixed 32-bit value from a counter. */
function splitmix32(state: { s: number }): number {
  state.s = (state.s + 0x9e3779b9) | 0;
  let z = state.s;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

/**
 * A seeded pseudo-random number generator (xoshiro128**, period 2^128 - 1), the only source of
 * randomness of the generators. Same seed and stream, same numbers, on every platform.
 *
 * Each independent random quantity of a model (arrivals, sizes, run times, ...) draws from its
 * own stream, named by a string, so that changing how one is drawn never shifts the others.
 *
 * @example
 * ```ts
 * const rng = new Rng(42, "sizes");
 * rng.next(); // a number in [0, 1), the same every run
 * ```
 */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  /**
   * @param seed - any safe integer.
   * @param stream - the stream's name; different names give independent sequences.
   * @throws InvalidInputError when `seed` is not a safe integer.
   */
  constructor(seed: number, stream = "") {
    if (!Number.isSafeInteger(seed)) {
      throw new InvalidInputError(
        "@sched/workload/Rng",
        "seed",
        `is ${seed}, expected a safe integer`,
      );
    }
    const lo = seed >>> 0;
    const hi = Math.floor(seed / 4294967296) >>> 0;
    const state = { s: (lo ^ Math.imul(hi, 0x27d4eb2d) ^ fnv1a(stream)) | 0 };
    this.a = splitmix32(state);
    this.b = splitmix32(state);
    this.c = splitmix32(state);
    this.d = splitmix32(state);
    if ((this.a | this.b | this.c | this.d) === 0) this.a = 1;
  }

  /** The next 32-bit unsigned integer. */
  uint32(): number {
    const result = Math.imul(rotl(Math.imul(this.b, 5), 7), 9) >>> 0;
    const t = this.b << 9;
    this.c ^= this.a;
    this.d ^= this.b;
    this.b ^= this.c;
    this.a ^= this.d;
    this.c ^= t;
    this.d = rotl(this.d, 11);
    return result;
  }

  /** A uniform number in [0, 1) with 53 random bits. */
  next(): number {
    const hi = this.uint32() >>> 5; // 27 bits
    const lo = this.uint32() >>> 6; // 26 bits
    return (hi * 67108864 + lo) / 9007199254740992;
  }

  /** A uniform number in [lo, hi). */
  uniform(lo: number, hi: number): number {
    return lo + (hi - lo) * this.next();
  }

  /** A uniform integer in [lo, hi] (both inclusive). */
  integer(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  /** A standard normal variate (Box-Muller, one of the pair). */
  normal(): number {
    const u = 1 - this.next(); // (0, 1]
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /** An exponential variate of the given mean. */
  exponential(mean: number): number {
    return -mean * Math.log(1 - this.next());
  }

  /**
   * A variate of mean `mean` and coefficient of variation `cv` >= 1: a two-phase
   * hyper-exponential with balanced means (each phase carries half the mean), the usual choice
   * for service demands with CV > 1; exponential when cv = 1.
   */
  hyperExponential(mean: number, cv: number): number {
    const c2 = cv * cv;
    const p = 0.5 * (1 + Math.sqrt((c2 - 1) / (c2 + 1)));
    return this.next() < p
      ? this.exponential(mean / (2 * p))
      : this.exponential(mean / (2 * (1 - p)));
  }

  /**
   * A gamma variate of shape `shape` (> 0) and scale `scale` (> 0): mean shape * scale,
   * variance shape * scale^2. Marsaglia and Tsang's method (ACM TOMS 2000); for shape < 1,
   * gamma(shape + 1) * U^(1/shape).
   */
  gamma(shape: number, scale: number): number {
    if (shape < 1) {
      const u = 1 - this.next();
      return this.gamma(shape + 1, scale) * u ** (1 / shape);
    }
    const d = shape - 1 / 3;
    const c = 1 / Math.sqrt(9 * d);
    for (;;) {
      let x: number;
      let v: number;
      do {
        x = this.normal();
        v = 1 + c * x;
      } while (v <= 0);
      v = v * v * v;
      const u = this.next();
      const x2 = x * x;
      if (u < 1 - 0.0331 * x2 * x2) return d * v * scale;
      if (Math.log(u) < 0.5 * x2 + d * (1 - v + Math.log(v))) return d * v * scale;
    }
  }
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}
