import { integerText, realText } from "./args.js";
import { UsageError } from "./usage-error.js";

/** A value of a scheduler option given with `--opt key=value`. */
export type OptionValue = string | number | boolean;

/** A scheduler's options as `--opt` (or an experiment file) gave them, each already typed. */
export type OptionValues = Readonly<Record<string, OptionValue>>;

/**
 * One option a scheduler accepts through `--opt key=value`, declared once with the type of its
 * value (`T`) and the package's default. Make one with {@link integerOption},
 * {@link numberOption}, {@link booleanOption} or {@link choiceOption}.
 */
export interface SchedulerOptionSpec<
  K extends string = string,
  T extends OptionValue = OptionValue,
> {
  readonly key: K;
  /** How the text after `=` is read. */
  readonly type: "integer" | "number" | "boolean" | "string";
  /** One line of help, the package's default already written in. */
  readonly description: string;
  /** For `string` options: the accepted values. */
  readonly choices?: readonly string[];
  /** For `integer` options: the smallest accepted value. */
  readonly min?: number;
  /** For `integer` options: also accept `inf` (read as `Infinity`). */
  readonly allowInfinity?: boolean;
  /**
   * The value the policy takes when the option is not given, as its package exports it.
   * @defaultValue none: the package derives it (from the platform, another option, …)
   */
  readonly default?: T;
  /** This option's value among `options`, typed; `undefined` when not given. */
  readonly read: (options: OptionValues) => T | undefined;
}

/** What every option constructor takes. */
interface OptionInit<K extends string, T extends OptionValue> {
  readonly key: K;
  /** One line of help; `{default}` is replaced by {@link SchedulerOptionSpec.default} (as `--opt` writes it). */
  readonly description: string;
  readonly default?: T;
}

/** `description` with `{default}` written out; it must have a default when it says so. */
function describe<T extends OptionValue>(init: OptionInit<string, T>): string {
  if (init.default === undefined) return init.description;
  return init.description.replaceAll("{default}", optionText(init.default));
}

/** The parts every spec shares: key, description (default written in), default. */
function common<K extends string, T extends OptionValue>(init: OptionInit<K, T>) {
  return {
    key: init.key,
    description: describe(init),
    ...(init.default === undefined ? {} : { default: init.default }),
  };
}

const numberIn =
  (key: string) =>
  (options: OptionValues): number | undefined => {
    const v = options[key];
    return typeof v === "number" ? v : undefined;
  };

/** An integer option (`--opt key=12`; `inf` too with `allowInfinity`). */
export function integerOption<K extends string>(
  init: OptionInit<K, number> & { readonly min?: number; readonly allowInfinity?: boolean },
): SchedulerOptionSpec<K, number> {
  return {
    ...common(init),
    type: "integer",
    ...(init.min === undefined ? {} : { min: init.min }),
    ...(init.allowInfinity === undefined ? {} : { allowInfinity: init.allowInfinity }),
    read: numberIn(init.key),
  };
}

/** A finite number option (`--opt key=0.5`). */
export function numberOption<K extends string>(
  init: OptionInit<K, number>,
): SchedulerOptionSpec<K, number> {
  return { ...common(init), type: "number", read: numberIn(init.key) };
}

/** A boolean option (`--opt key=true|false`). */
export function booleanOption<K extends string>(
  init: OptionInit<K, boolean>,
): SchedulerOptionSpec<K, boolean> {
  return {
    ...common(init),
    type: "boolean",
    read: (options) => {
      const v = options[init.key];
      return typeof v === "boolean" ? v : undefined;
    },
  };
}

/** An option whose value is one of `choices` (`--opt key=a`). */
export function choiceOption<K extends string, const C extends string>(
  init: OptionInit<K, C> & { readonly choices: readonly C[] },
): SchedulerOptionSpec<K, C> {
  return {
    ...common(init),
    type: "string",
    choices: init.choices,
    read: (options) => init.choices.find((c) => c === options[init.key]),
  };
}

/**
 * `{ [spec.key]: value }` when `options` gives the option, else `{}`: spread it into a package's
 * options object, which then keeps the package's own default for what was not given.
 *
 * @example easy({ ...given(QUEUE_ORDER, { order: "sjf" }) }) // easy({ order: "sjf" })
 */
export function given<K extends string, T extends OptionValue>(
  spec: SchedulerOptionSpec<K, T>,
  options: OptionValues,
): { [P in K]?: T } {
  const out: { [P in K]?: T } = {};
  const value = spec.read(options);
  if (value !== undefined) out[spec.key] = value;
  return out;
}

/** An option value as the command line writes it (`inf` for Infinity). */
export function optionText(value: OptionValue): string {
  return value === Number.POSITIVE_INFINITY ? "inf" : String(value);
}

/** Options for a report: each value as a JSON-safe value (`"inf"` for Infinity). */
export function optionsForReport(options: OptionValues): Record<string, OptionValue> {
  const out: Record<string, OptionValue> = {};
  for (const [k, v] of Object.entries(options)) {
    out[k] = typeof v === "number" && !Number.isFinite(v) ? optionText(v) : v;
  }
  return out;
}

/** The text after `=` of `--opt key=text` as a value of `spec`, or a {@link UsageError} at `where`. */
export function optionValue(
  spec: SchedulerOptionSpec,
  text: string,
  where: string,
  command: string,
): OptionValue {
  switch (spec.type) {
    case "integer": {
      if (spec.allowInfinity && text === "inf") return Number.POSITIVE_INFINITY;
      const n = integerText(text);
      const min = spec.min ?? Number.MIN_SAFE_INTEGER;
      if (!Number.isSafeInteger(n) || n < min) {
        const expected = `an integer${spec.min === undefined ? "" : ` >= ${spec.min}`}${spec.allowInfinity ? " or inf" : ""}`;
        throw new UsageError(`${where}: expected ${expected}`, command);
      }
      return n;
    }
    case "number": {
      const n = realText(text);
      if (!Number.isFinite(n)) throw new UsageError(`${where}: expected a finite number`, command);
      return n;
    }
    case "boolean":
      if (text === "true") return true;
      if (text === "false") return false;
      throw new UsageError(`${where}: expected true or false`, command);
    case "string":
      if (spec.choices !== undefined && !spec.choices.includes(text)) {
        throw new UsageError(`${where}: expected one of ${spec.choices.join(", ")}`, command);
      }
      return text;
  }
}

/** What a value of `spec` must be, in words: `an integer >= 1 or "inf"`, `one of a, b`. */
export function expectedOptionValue(spec: SchedulerOptionSpec): string {
  switch (spec.type) {
    case "integer":
      return `an integer${spec.min === undefined ? "" : ` >= ${spec.min}`}${spec.allowInfinity ? ' or "inf"' : ""}`;
    case "number":
      return "a finite number";
    case "boolean":
      return "true or false";
    case "string":
      return spec.choices === undefined
        ? "a string"
        : `one of ${spec.choices.map((c) => JSON.stringify(c)).join(", ")}`;
  }
}

/**
 * A JSON value (of an experiment file) as a value of option `spec`, or `undefined` when it is
 * not one: the JSON type must be the option's (a number for `integer`, never the string `"5"`;
 * `"inf"` for an integer that allows it), and the value in range, as `--opt` text is checked.
 */
export function jsonOptionValue(
  spec: SchedulerOptionSpec,
  value: unknown,
): OptionValue | undefined {
  switch (spec.type) {
    case "integer":
      if (spec.allowInfinity && value === "inf") return Number.POSITIVE_INFINITY;
      return typeof value === "number" &&
        Number.isSafeInteger(value) &&
        value >= (spec.min ?? Number.MIN_SAFE_INTEGER)
        ? value
        : undefined;
    case "number":
      return typeof value === "number" && Number.isFinite(value) ? value : undefined;
    case "boolean":
      return typeof value === "boolean" ? value : undefined;
    case "string":
      return typeof value === "string" &&
        (spec.choices === undefined || spec.choices.includes(value))
        ? value
        : undefined;
  }
}
