import { parseArgs } from "node:util";
import { editDistance } from "@sched/errors";
import { hanging } from "./format.js";
import { UsageError } from "./usage-error.js";

/** One option of a command. */
export interface OptionSpec {
  /** Long name without dashes, e.g. `"procs"` for `--procs`. */
  readonly name: string;
  /** `"boolean"`: a flag with no value; `"string"`: takes one value. */
  readonly type: "boolean" | "string";
  /** One-letter alias without the dash, e.g. `"o"` for `-o`. */
  readonly short?: string;
  /** The option may be given several times; its values are collected in order. */
  readonly multiple?: boolean;
  /** Placeholder of the value in help, e.g. `"N"`. */
  readonly arg?: string;
  /** One line of help. */
  readonly description: string;
}

/** A positional argument of a command. */
export interface PositionalSpec {
  readonly name: string;
  readonly description: string;
  readonly required: boolean;
}

/** A command's syntax, used both to parse its arguments and to print its `--help`. */
export interface CommandSpec {
  readonly name: string;
  /** One line, shown in `sched-sim --help`. */
  readonly summary: string;
  /** Paragraphs shown in `sched-sim <command> --help`. */
  readonly description: string;
  readonly options: readonly OptionSpec[];
  readonly positionals: readonly PositionalSpec[];
  readonly examples: readonly string[];
  /**
   * Short flags this command no longer takes, each with the reason said in its error (a letter
   * that meant one option here and another in other commands is refused rather than reused, so
   * that an old command line cannot silently mean something else).
   */
  readonly retiredShorts?: Readonly<Record<string, string>>;
  /**
   * The command as messages name it, from the arguments given (`gen lublin`, when the first
   * argument picks a model): the command the user typed. @defaultValue `name`
   */
  readonly messagePrefix?: (positionals: readonly string[]) => string;
}

/** Parsed arguments: option values by long name, then positionals in order. */
export interface ParsedArgs {
  readonly values: Readonly<Record<string, string | boolean | readonly string[] | undefined>>;
  readonly positionals: readonly string[];
}

/** Options every command accepts. */
export const commonOptions: readonly OptionSpec[] = [
  { name: "help", short: "h", type: "boolean", description: "Show this help and exit." },
  {
    name: "debug",
    type: "boolean",
    description: "On an unexpected error, print its stack trace too.",
  },
];

/** A value that reads as a number (`-5`, `-0.5`, `-.5`, `-1e3`), so not as an option. */
const NUMBER_LIKE = /^-(\d|\.\d)/;

/**
 * Parse `argv` (the words after the command name) strictly against `spec`, with Node's own
 * parser (`node:util` `parseArgs`, tokens mode; the checks below give the messages): an unknown
 * option (with "did you mean"), a missing value, a value given to a flag, a repeated
 * single-valued option or an extra positional throws a {@link UsageError} naming it. `--` ends
 * the options. A value that reads as a number is a value even when negative (`--procs -5` gives
 * `"-5"`, for the option's own check to refuse); any other value starting with a dash must be
 * attached (`--out=-dir`), so a forgotten value (`--out --quiet`) is reported as missing. A
 * positional that is missing is not checked here (so `--help` works without it); see
 * {@link requirePositionals}.
 */
export function parseCommandArgs(spec: CommandSpec, argv: readonly string[]): ParsedArgs {
  const options = [...spec.options, ...commonOptions];
  const byLong = new Map(options.map((o) => [o.name, o]));
  const { tokens } = parseArgs({
    args: [...argv],
    options: Object.fromEntries(
      options.map((o) => [
        o.name,
        { type: o.type, multiple: o.multiple === true, ...(o.short ? { short: o.short } : {}) },
      ]),
    ),
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const values: Record<string, string | boolean | string[] | undefined> = {};
  const positionals: string[] = [];
  // `gen lublin --bogus`: the messages name the command as typed, arguments before or after
  const where =
    spec.messagePrefix === undefined
      ? spec.name
      : spec.messagePrefix(tokens.flatMap((t) => (t.kind === "positional" ? [t.value] : [])));
  for (const token of tokens) {
    if (token.kind === "positional") {
      positionals.push(token.value);
      continue;
    }
    if (token.kind === "option-terminator") continue;
    const shown = token.rawName;
    const option = byLong.get(token.name);
    if (option === undefined) {
      const retired = shown.startsWith("--") ? undefined : spec.retiredShorts?.[token.name];
      if (retired !== undefined) {
        throw new UsageError(
          `${where}: option ${shown} is not taken: ${retired}; see 'sched-sim ${spec.name} --help'`,
          spec.name,
        );
      }
      const hint = shown.startsWith("--") ? suggest(token.name, [...byLong.keys()]) : undefined;
      // `inspect --workload x`: run's spelling, on a command that takes its file as an argument
      const positional =
        hint === undefined && (token.name === "workload" || token.name === "w")
          ? spec.positionals[0]
          : undefined;
      const aside =
        hint !== undefined
          ? ` (did you mean --${hint}?)`
          : positional !== undefined
            ? ` (${spec.name} takes the file as an argument: sched-sim ${spec.name} <${positional.name}>)`
            : "";
      throw new UsageError(
        `${where}: unknown option ${shown}${aside}; see 'sched-sim ${spec.name} --help'`,
        spec.name,
      );
    }
    let value: string | boolean;
    if (option.type === "boolean") {
      if (token.value !== undefined) {
        throw new UsageError(`${where}: option ${shown} takes no value`, spec.name);
      }
      value = true;
    } else {
      const v = token.value;
      if (
        v === undefined ||
        (!token.inlineValue && v.startsWith("-") && v.length > 1 && !NUMBER_LIKE.test(v))
      ) {
        throw new UsageError(
          `${where}: option ${shown} needs a value${option.arg ? ` (${option.arg})` : ""}${v === undefined ? "" : `; a value starting with a dash is given as --${option.name}=${v}`}`,
          spec.name,
        );
      }
      value = v;
    }
    if (option.multiple) {
      const list = (values[option.name] as string[] | undefined) ?? [];
      list.push(value as string);
      values[option.name] = list;
    } else if (values[option.name] !== undefined) {
      throw new UsageError(`${where}: option ${shown} was given more than once`, spec.name);
    } else {
      values[option.name] = value;
    }
  }
  if (positionals.length > spec.positionals.length) {
    const extra = positionals[spec.positionals.length] as string;
    // `run trace.swf`: the command takes its file through an option
    const files = spec.positionals.length === 0 ? spec.options.filter((o) => o.arg === "FILE") : [];
    const hint =
      files.length === 0
        ? ""
        : ` (${spec.name} takes no arguments; a file goes with ${files.map((o) => `--${o.name} FILE`).join(" or ")})`;
    throw new UsageError(`${where}: unexpected argument '${extra}'${hint}`, spec.name);
  }
  return { values, positionals };
}

/** Throw a {@link UsageError} naming the first required positional that is missing. */
export function requirePositionals(spec: CommandSpec, parsed: ParsedArgs): void {
  spec.positionals.forEach((p, i) => {
    if (p.required && parsed.positionals[i] === undefined) {
      throw new UsageError(
        `${spec.name}: missing argument <${p.name}>; see 'sched-sim ${spec.name} --help'`,
        spec.name,
      );
    }
  });
}

/** The value of a single-valued string option, or `undefined`. */
export function stringOption(parsed: ParsedArgs, name: string): string | undefined {
  const v = parsed.values[name];
  return typeof v === "string" ? v : undefined;
}

/** The values of a repeatable string option (empty when absent). */
export function listOption(parsed: ParsedArgs, name: string): readonly string[] {
  const v = parsed.values[name];
  return Array.isArray(v) ? v : [];
}

/** Whether a boolean flag was given. */
export function flag(parsed: ParsedArgs, name: string): boolean {
  return parsed.values[name] === true;
}

/**
 * The form of an integer flag's value: decimal digits, with an optional sign (`12`, `+12`,
 * `-3`). Exponent notation (`1e3`), a fraction (`1.0`), hex (`0x10`), separators (`1_000`)
 * and spaces are refused, on every command: `--opt` and `--set` integers read the same form.
 */
export const INTEGER_TEXT = /^[+-]?\d+$/;

/**
 * The form of a real flag's value: a decimal number with an optional sign, fraction and
 * exponent (`0.5`, `.5`, `5e-1`, `-2.5E3`), what JSON writes plus a leading `+` or `.`. Hex,
 * `Infinity`, `NaN`, separators and spaces are refused.
 */
export const REAL_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** `text` as an integer when it has the form {@link INTEGER_TEXT} and is safe, else NaN. */
export function integerText(text: string): number {
  const value = INTEGER_TEXT.test(text) ? Number(text) : Number.NaN;
  return Number.isSafeInteger(value) ? value : Number.NaN;
}

/** `text` as a finite number when it has the form {@link REAL_TEXT}, else NaN. */
export function realText(text: string): number {
  const value = REAL_TEXT.test(text) ? Number(text) : Number.NaN;
  return Number.isFinite(value) ? value : Number.NaN;
}

/**
 * Parse the value of integer flag `--option` of `command`: decimal digits ({@link INTEGER_TEXT})
 * in `[min, max]`; otherwise a {@link UsageError} naming the flag, its accepted form and bounds,
 * and the value, e.g. `run: option --procs must be a whole number from 1 to 1000000 (digits
 * only), got '1e2'`. Every integer flag of every command goes through it.
 */
export function integerValue(
  command: string,
  option: string,
  text: string,
  min: number = Number.MIN_SAFE_INTEGER,
  max: number = Number.MAX_SAFE_INTEGER,
): number {
  const value = integerText(text);
  if (Number.isNaN(value) || value < min || value > max) {
    const range =
      max < Number.MAX_SAFE_INTEGER
        ? ` from ${min} to ${max}`
        : min > Number.MIN_SAFE_INTEGER
          ? ` of at least ${min}`
          : "";
    throw new UsageError(
      `${command}: option --${option} must be a whole number${range} (digits only), got '${text}'`,
      command,
    );
  }
  return value;
}

/** Bounds of a real flag ({@link realValue}). */
export interface RealBounds {
  /** Smallest value. @defaultValue no bound */
  readonly min?: number;
  /** Whether `min` itself is refused. @defaultValue false */
  readonly minExclusive?: boolean;
  /** Largest value. @defaultValue no bound */
  readonly max?: number;
}

/**
 * Parse the value of real flag `--option` of `command`: a decimal number ({@link REAL_TEXT})
 * within `bounds`; otherwise a {@link UsageError} naming the flag, its accepted form and bounds,
 * and the value, e.g. `demo: option --load must be a decimal number greater than 0 and at most
 * 10, got 'abc'`. Every real flag of every command goes through it.
 */
export function realValue(
  command: string,
  option: string,
  text: string,
  bounds: RealBounds = {},
): number {
  const { min, max, minExclusive = false } = bounds;
  const value = realText(text);
  const below = min !== undefined && (minExclusive ? value <= min : value < min);
  if (Number.isNaN(value) || below || (max !== undefined && value > max)) {
    const parts: string[] = [];
    if (min !== undefined) parts.push(`${minExclusive ? "greater than" : "at least"} ${min}`);
    if (max !== undefined) parts.push(`at most ${max}`);
    throw new UsageError(
      `${command}: option --${option} must be a decimal number${parts.length === 0 ? "" : ` ${parts.join(" and ")}`} (e.g. 0.5 or 5e-1), got '${text}'`,
      command,
    );
  }
  return value;
}

/** Parse one of `choices`; throws a {@link UsageError} listing them otherwise. */
export function choiceValue<T extends string>(
  command: string,
  option: string,
  text: string,
  choices: readonly T[],
): T {
  if ((choices as readonly string[]).includes(text)) return text as T;
  throw new UsageError(
    `${command}: option --${option} must be one of ${choices.join(", ")}, got '${text}'`,
    command,
  );
}

/** The candidate closest to `word` by edit distance, when it is close (at most 2 edits). */
export function suggest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  for (const c of candidates) {
    const d = editDistance(word, c);
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}

/** Render `sched-sim <command> --help`. */
export function commandHelp(spec: CommandSpec): string {
  const lines: string[] = [];
  const pos = spec.positionals.map((p) => (p.required ? `<${p.name}>` : `[${p.name}]`)).join(" ");
  lines.push(`Usage: sched-sim ${spec.name}${pos ? ` ${pos}` : ""} [options]`, "");
  lines.push(spec.summary, "");
  if (spec.description) lines.push(spec.description, "");
  if (spec.positionals.length > 0) {
    lines.push("Arguments:");
    for (const p of spec.positionals) lines.push(hanging(`  ${p.name}`, p.description, 28));
    lines.push("");
  }
  lines.push("Options:");
  for (const o of [...spec.options, ...commonOptions]) {
    const names = `  ${o.short ? `-${o.short}, ` : "    "}--${o.name}${o.arg ? ` ${o.arg}` : ""}`;
    lines.push(hanging(names, `${o.description}${o.multiple ? " (repeatable)" : ""}`, 28));
  }
  if (spec.examples.length > 0) {
    lines.push("", "Examples:");
    for (const e of spec.examples) lines.push(`  ${e}`);
  }
  return `${lines.join("\n")}\n`;
}
