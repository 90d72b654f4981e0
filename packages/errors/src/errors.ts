/**
 * The error types of every @sched package. Each message starts with where it came from, in the
 * form `@sched/<package>/<function>: what was wrong`, e.g.
 * `@sched/knapsack/mkpExact: weights[1][3] is NaN, expected a finite number >= 0`.
 *
 * "No solution" is never an error: functions return it as a value.
 */

/** Options common to every {@link SchedError}. */
export interface SchedErrorOptions {
  /** The error that caused this one, kept for debugging. */
  readonly cause?: unknown;
}

/**
 * The key, shared by every copy of this package in a process (`Symbol.for`), of the hidden
 * property that lists the @sched/errors classes an error was constructed as.
 */
const CLASSES = Symbol.for("@sched/errors/classes");

/** This copy's classes, each with the name under which every copy recognises it. */
const BRANDS = new WeakMap<object, string>();

/** The names of this package's classes in `ctor`'s chain, most derived first. */
function brandsOf(ctor: object): string[] {
  const names: string[] = [];
  for (let c: object | null = ctor; c !== null; c = Object.getPrototypeOf(c)) {
    const name = BRANDS.get(c);
    if (name !== undefined) names.push(name);
  }
  return names;
}

/** `value instanceof ctor`, by the prototype chain or, for this package's classes, by brand. */
function isInstance(ctor: object, value: unknown): boolean {
  if (Function.prototype[Symbol.hasInstance].call(ctor, value)) return true;
  const own = BRANDS.get(ctor);
  if (own === undefined || typeof value !== "object" || value === null) return false;
  const names: unknown = (value as { [CLASSES]?: unknown })[CLASSES];
  return Array.isArray(names) && names.includes(own);
}

/**
 * The base class of every error thrown on purpose by an @sched package. Catch this to handle any
 * of them; read {@link SchedError.code} to tell them apart.
 *
 * `instanceof` works across copies of this package: an error thrown by the CommonJS build (through
 * `require`) is `instanceof` the class imported from the ES module build, and the other way round
 * (the dual package hazard), as is one from another installed copy. Each error carries the names
 * of its @sched/errors classes under a `Symbol.for` key, and each class's `Symbol.hasInstance`
 * accepts a value that names it. A class you derive yourself keeps the ordinary `instanceof`.
 */
export class SchedError extends Error {
  /** A stable, machine-readable code: `"INVALID_INPUT"`, `"PARSE"`, `"CONSTRAINT_VIOLATION"`, … */
  readonly code: string;
  /** Where the error came from: `@sched/<package>/<function>`. */
  readonly where: string;

  constructor(code: string, where: string, detail: string, options: SchedErrorOptions = {}) {
    super(
      `${where}: ${detail}`,
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.name = new.target.name;
    this.code = code;
    this.where = where;
    Object.defineProperty(this, CLASSES, { value: Object.freeze(brandsOf(new.target)) });
  }

  /**
   * `value instanceof C`: true when `C`'s prototype is in `value`'s chain (the ordinary rule), or
   * when `C` is one of this package's classes and `value` was constructed as that class by any
   * copy of this package (its CommonJS or ES module build, or another installed copy).
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: the class on the right of instanceof, maybe a subclass
    return isInstance(this, value);
  }
}

/**
 * An argument or option is invalid: wrong type, wrong length, NaN, out of range.
 * `field` names the offending argument path, e.g. `"weights[3]"` or `"options.reservations"`.
 */
export class InvalidInputError extends SchedError {
  /** The offending argument path, e.g. `"jobs[12].cores"`. */
  readonly field: string;

  constructor(where: string, field: string, detail: string, options: SchedErrorOptions = {}) {
    super("INVALID_INPUT", where, `${field} ${detail}`, options);
    this.field = field;
  }
}

/**
 * A text input (a trace, an experiment file) could not be read. Names the source, the 1-based
 * line (and column, for a syntax error found at a character: `w.json:4:25: …`, as compilers and
 * editors write it) and the field when known.
 */
export class ParseError extends SchedError {
  /** The file or source name, e.g. `"KTH-SP2.swf"`. */
  readonly source: string;
  /** The 1-based line number, when the error is on one line. */
  readonly line: number | undefined;
  /** The 1-based column (in UTF-16 code units) on `line`, when the error is at one character. */
  readonly column: number | undefined;
  /** The field that could not be read, e.g. `"run time (field 4)"`. */
  readonly field: string | undefined;

  constructor(
    where: string,
    location: { source: string; line?: number; column?: number; field?: string },
    detail: string,
    options: SchedErrorOptions = {},
  ) {
    const column = location.line === undefined ? undefined : location.column;
    const at =
      location.source +
      (location.line === undefined ? "" : `:${location.line}`) +
      (column === undefined ? "" : `:${column}`) +
      (location.field === undefined ? "" : ` ${location.field}`);
    super("PARSE", where, `${at}: ${detail}`, options);
    this.source = location.source;
    this.line = location.line;
    this.column = column;
    this.field = location.field;
  }
}

/**
 * A scheduling policy asked for something the platform cannot give: cores that are busy,
 * license copies that are taken, a job that is not waiting. Names the job and the resource.
 */
export class ConstraintViolationError extends SchedError {
  /** The job the policy acted on. */
  readonly jobId: number;
  /** The resource that was violated, e.g. `"machine 3 cores"` or `"license matlab"`. */
  readonly resource: string;

  constructor(
    where: string,
    jobId: number,
    resource: string,
    detail: string,
    options: SchedErrorOptions = {},
  ) {
    super("CONSTRAINT_VIOLATION", where, `job ${jobId}: ${resource}: ${detail}`, options);
    this.jobId = jobId;
    this.resource = resource;
  }
}

/** Options of {@link LimitExceededError}. */
export interface LimitExceededErrorOptions extends SchedErrorOptions {
  /**
   * The option that sets the limit, as the message names it (e.g. `"options.maxStalledEvents"`),
   * so that a front end can say it in its own words (a CLI flag). @defaultValue none
   */
  readonly limit?: string;
}

/** A computation hit a limit it was given (nodes, time, events) before it could finish. */
export class LimitExceededError extends SchedError {
  /** The option that sets the limit, as the message names it, when one does. */
  readonly limit: string | undefined;

  constructor(where: string, detail: string, options: LimitExceededErrorOptions = {}) {
    super("LIMIT_EXCEEDED", where, detail, options);
    this.limit = options.limit;
  }
}

/** Where and when a scheduling policy failed: the policy's name, the time and the jobs involved. */
export interface PolicyErrorContext {
  /** The policy's `name`. */
  readonly policy: string;
  /** Simulated time of the failure. */
  readonly time: number;
  /** The jobs involved: the one the policy last acted on, then the batch's arrivals and completions. */
  readonly jobIds: readonly number[];
}

/**
 * A scheduling policy threw an exception of its own (a bug, not a typed error of ours) while the
 * engine called it. The message names the policy, the simulated time and the jobs involved; the
 * original exception is the `cause`.
 */
export class PolicyError extends SchedError {
  /** The policy's `name`. */
  readonly policy: string;
  /** Simulated time of the failure. */
  readonly time: number;
  /** The jobs involved (possibly none). */
  readonly jobIds: readonly number[];

  constructor(
    where: string,
    context: PolicyErrorContext,
    detail: string,
    options: SchedErrorOptions = {},
  ) {
    super("POLICY", where, detail, options);
    this.policy = context.policy;
    this.time = context.time;
    this.jobIds = context.jobIds;
  }
}

BRANDS.set(SchedError, "SchedError");
BRANDS.set(InvalidInputError, "InvalidInputError");
BRANDS.set(ParseError, "ParseError");
BRANDS.set(ConstraintViolationError, "ConstraintViolationError");
BRANDS.set(LimitExceededError, "LimitExceededError");
BRANDS.set(PolicyError, "PolicyError");
