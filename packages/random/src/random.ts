import { describeValue, InvalidInputError } from "@sched/errors";
import { seedState } from "./seed-hash.js";

const WHERE = "@sched/random/Random";

/** The error of a sampler's parameter outside its domain (kept out of the samplers' code). */
function refuse(method: string, field: string, value: unknown, domain: string): never {
  throw new InvalidInputError(
    `${WHERE}.${method}`,
    field,
    `is ${describeValue(value)}, expected a finite number ${domain}`,
  );
}

/**
 * A seeded pseudo-random number generator: the only source of randomness of every @sched
 * package, the CLI and the benchmarks. Library code never calls `Math.random`.
 *
 * **Algorithm.** xoshiro128** (Blackman and Vigna, 2018; period 2^128 - 1) on a 128-bit state
 * hashed from `(seed, name)` (see {@link Random.constructor}). Only 32-bit integer operations and
 * IEEE-754 doubles are used, so the same seed and name give the same numbers on every platform
 * and JavaScript engine.
 *
 * **Streams.** Each independent random quantity of a model (arrivals, sizes, run times, the
 * machines' speeds, ...) draws from its own stream, named by a string: `new Random(seed,
 * "arrivals")`, or `random.stream("arrivals")` from a parent stream. Adding, removing or
 * changing the way one stream is drawn never shifts the numbers of another; two different
 * (seed, name) pairs give statistically independent sequences (their starting states are a
 * 128-bit hash of the pair; a collision is as unlikely as one of a 128-bit hash).
 *
 * **Guarantees.** Same (seed, name), same sequence, forever: a change of algorithm, hash or of
 * the way a method consumes numbers is a breaking change of this package and is announced in its
 * changelog, because it moves every published result built on it. Not for cryptography.
 *
 * Complexity: O(1) per draw (the gamma variate: O(1) expected).
 *
 * @example
 * ```ts
 * const sizes = new Random(42, "sizes");
 * sizes.integer(1, 8); // an integer in [1, 8], the same on every run with seed 42
 * sizes.stream("small").next(); // a child stream: seed 42, name "sizes/small"
 * ```
 */
export class Random {
  /** The seed this stream was derived from. */
  readonly seed: number;
  /** The stream's name (`parent/child` for a stream made by {@link Random.stream}). */
  readonly name: string;
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  /**
   * @param seed - any safe integer (negative ones included).
   * @param name - the stream's name; different names give independent sequences.
   * @defaultValue name: `""`
   * @throws InvalidInputError when `seed` is not a safe integer or `name` is not a string.
   */
  constructor(seed: number, name = "") {
    const [a, b, c, d] = seedState(WHERE, seed, name);
    this.seed = seed;
    this.name = name;
    this.a = a;
    this.b = b;
    this.c = c;
    // xoshiro's only forbidden state is all zeros.
    this.d = (a | b | c | d) === 0 ? 1 : d;
  }

  /**
   * An independent child stream: same seed, name `${this.name}/${name}` (or `name` when this
   * stream has none). It does not consume numbers of this stream.
   */
  stream(name: string): Random {
    if (typeof name !== "string") {
      throw new InvalidInputError(
        `${WHERE}/stream`,
        "name",
        `is ${describeValue(name)}, expected a string`,
      );
    }
    return new Random(this.seed, this.name === "" ? name : `${this.name}/${name}`);
  }

  /** The next 32-bit unsigned integer. */
  uint32(): number {
    const b = this.b;
    const result = Math.imul(rotl(Math.imul(b, 5), 7), 9) >>> 0;
    const t = b << 9;
    this.c ^= this.a;
    this.d ^= b;
    this.b ^= this.c;
    this.a ^= this.d;
    this.c ^= t;
    this.d = rotl(this.d, 11);
    return result;
  }

  /** A uniform number in [0, 1) with 53 random bits (two 32-bit draws). */
  next(): number {
    const hi = this.uint32() >>> 5; // 27 bits
    const lo = this.uint32() >>> 6; // 26 bits
    return (hi * 67108864 + lo) / 9007199254740992;
  }

  /**
   * A uniform number in [lo, hi).
   *
   * @throws InvalidInputError when `lo` or `hi` is not finite or `hi < lo`.
   */
  uniform(lo: number, hi: number): number {
    if (!(Number.isFinite(lo) && Number.isFinite(hi) && lo <= hi)) {
      throw new InvalidInputError(
        `${WHERE}.uniform`,
        "lo, hi",
        `are ${describeValue(lo)}, ${describeValue(hi)}, expected finite numbers with lo <= hi`,
      );
    }
    return lo + (hi - lo) * this.next();
  }

  /**
   * A uniform integer in [lo, hi], both inclusive. A range of at most 2^53 integers takes
   * `lo + floor(next() * (hi - lo + 1))` (two draws; its bias is below 2^-53 * (hi - lo + 1)). A
   * wider one (safe integers span almost 2^54) cannot be reached by 53 random bits: each try
   * takes 54 (`next()` and the top bit of one more draw, three draws) and is kept when it falls
   * in the range (at least every other try), so every integer of the range can come out.
   *
   * @throws InvalidInputError when `lo` or `hi` is not a safe integer or `hi < lo`.
   */
  integer(lo: number, hi: number): number {
    if (!Number.isSafeInteger(lo) || !Number.isSafeInteger(hi) || hi < lo) {
      throw new InvalidInputError(
        `${WHERE}.integer`,
        "lo, hi",
        `are ${lo}, ${hi}, expected safe integers with lo <= hi`,
      );
    }
    // hi - lo is exact up to 2^53 and rounds to 2^53 or more beyond, so this holds exactly for
    // ranges of at most 2^53 integers.
    if (hi - lo < 9007199254740992) return lo + Math.floor(this.next() * (hi - lo + 1));
    for (;;) {
      // k = 2 * half + bit, uniform in [0, 2^54); lo + 2 * half is exact whenever it is at most
      // hi (a safe integer), and rounds to more than hi otherwise (rounding is monotone).
      const half = this.next() * 9007199254740992;
      const candidate = lo + 2 * half + (this.uint32() >>> 31);
      if (candidate <= hi) return candidate;
    }
  }

  /**
   * True with probability `p` (one draw).
   *
   * @throws InvalidInputError when `p` is not a number in [0, 1].
   */
  chance(p: number): boolean {
    if (!(typeof p === "number" && p >= 0 && p <= 1)) {
      throw new InvalidInputError(
        `${WHERE}.chance`,
        "p",
        `is ${describeValue(p)}, expected a number in [0, 1]`,
      );
    }
    return this.next() < p;
  }

  /** A standard normal variate (Box-Muller, one of the pair: two draws). */
  normal(): number {
    const u = 1 - this.next(); // (0, 1]
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /**
   * An exponential variate of mean `mean` (inversion: one draw).
   *
   * @throws InvalidInputError when `mean` is not a finite number >= 0.
   */
  exponential(mean: number): number {
    // NaN fails both comparisons, +Infinity the second (a string the typeof); the message is
    // built only then.
    if (!(typeof mean === "number" && mean >= 0 && mean <= Number.MAX_VALUE))
      refuse("exponential", "mean", mean, ">= 0");
    // 0 - x, not -x: the same number for every x but 0, where it gives 0, not -0 (at mean 0, or
    // when next() is 0).
    return 0 - mean * Math.log(1 - this.next());
  }

  /**
   * A variate of mean `mean` and coefficient of variation `cv` >= 1: a two-phase
   * hyper-exponential with balanced means (each phase carries half the mean), the usual choice
   * for service demands with CV > 1; exponential when cv = 1.
   *
   * @throws InvalidInputError when `mean` is not a finite number >= 0 or `cv` not one >= 1.
   */
  hyperExponential(mean: number, cv: number): number {
    if (!(typeof mean === "number" && mean >= 0 && mean <= Number.MAX_VALUE))
      refuse("hyperExponential", "mean", mean, ">= 0");
    if (!(typeof cv === "number" && cv >= 1 && cv <= Number.MAX_VALUE))
      refuse("hyperExponential", "cv", cv, ">= 1");
    const c2 = cv * cv;
    const p = 0.5 * (1 + Math.sqrt((c2 - 1) / (c2 + 1)));
    const phaseMean = this.next() < p ? mean / (2 * p) : mean / (2 * (1 - p));
    return 0 - phaseMean * Math.log(1 - this.next()); // 0, not -0, as in exponential
  }

  /**
   * A gamma variate of shape `shape` (> 0) and scale `scale` (> 0): mean shape * scale,
   * variance shape * scale^2. Marsaglia and Tsang's method (ACM TOMS 2000); for shape < 1,
   * gamma(shape + 1) * U^(1/shape).
   *
   * @throws InvalidInputError when `shape` or `scale` is not a finite number > 0.
   */
  gamma(shape: number, scale: number): number {
    if (!(typeof shape === "number" && shape > 0 && shape <= Number.MAX_VALUE))
      refuse("gamma", "shape", shape, "> 0");
    if (!(typeof scale === "number" && scale > 0 && scale <= Number.MAX_VALUE))
      refuse("gamma", "scale", scale, "> 0");
    return this.gammaDraw(shape, scale);
  }

  /** {@link Random.gamma} on checked parameters. */
  private gammaDraw(shape: number, scale: number): number {
    if (shape < 1) {
      const u = 1 - this.next();
      return this.gammaDraw(shape + 1, scale) * u ** (1 / shape);
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

  /**
   * Shuffles `items` **in place** (Fisher-Yates, from the end: `items.length - 1` draws) and
   * returns it.
   *
   * @throws InvalidInputError when `items` is not an array.
   */
  shuffle<T>(items: T[]): T[] {
    if (!Array.isArray(items) && !ArrayBuffer.isView(items)) {
      throw new InvalidInputError(
        `${WHERE}.shuffle`,
        "items",
        `is ${describeValue(items)}, expected an array`,
      );
    }
    for (let i = items.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      const t = items[i] as T;
      items[i] = items[j] as T;
      items[j] = t;
    }
    return items;
  }
}

/**
 * A seed for another component derived from `(seed, name)`: a safe integer in [0, 2^53), the
 * same hash as the streams use. For APIs that take a seed number rather than a {@link Random}
 * (a scheduler option, one workload per grid point).
 *
 * @example
 * ```ts
 * deriveSeed(1, "workload/interArrival=4"); // a fixed integer in [0, 2^53)
 * ```
 * @throws InvalidInputError when `seed` is not a safe integer or `name` is not a string.
 */
export function deriveSeed(seed: number, name: string): number {
  const [a, b] = seedState("@sched/random/deriveSeed", seed, name);
  return (a >>> 11) * 4294967296 + b;
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}
