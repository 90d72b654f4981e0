import type { Scheduler } from "@sched/core";
import { suggest } from "./args.js";
import { hanging } from "./format.js";
import { ADVANCE_RESERVATION_ENTRIES } from "./registry/advance-reservation.js";
import { BACKFILL_ENTRIES } from "./registry/backfill.js";
import { CONVERGENT_ENTRIES } from "./registry/convergent.js";
import { ELO_ENTRIES } from "./registry/elo.js";
import { MULTICLUSTER_ENTRIES } from "./registry/multicluster.js";
import { notRunnableMessage, type SchedulerEntry } from "./scheduler-entry.js";
import {
  type OptionValue,
  type OptionValues,
  optionText,
  optionValue,
  type SchedulerOptionSpec,
} from "./scheduler-options.js";
import { UsageError } from "./usage-error.js";

/**
 * A fresh scheduler of `choice` for the run of seed `seed`: its options, plus the run's seed in
 * the entry's {@link SchedulerEntry.seedOption} when that is not set (so the policy's dice differ
 * from instance to instance and a run is reproduced by its seed alone).
 */
export function createScheduler(choice: SchedulerChoice, seed: number): Scheduler {
  if (!takesRunSeed(choice)) return choice.entry.create(choice.options);
  return choice.entry.create({ ...choice.options, [choice.entry.seedOption as string]: seed });
}

/**
 * Whether {@link createScheduler} hands the run's seed to a scheduler of `choice`: its entry rolls
 * dice ({@link SchedulerEntry.seedOption}) and that option is not set. When not, the scheduler is
 * the same for every seed.
 */
export function takesRunSeed(choice: SchedulerChoice): boolean {
  const key = choice.entry.seedOption;
  return key !== undefined && choice.options[key] === undefined;
}

/**
 * Every policy `sched-sim` knows, by name, in `--help` order. Packages' policies are added here
 * as they land (one entry each, options declared once, with their packages' defaults, so `--opt`
 * is checked and `--help` and the README's table say the same).
 */
export const SCHEDULERS: readonly SchedulerEntry[] = [
  ...BACKFILL_ENTRIES,
  ...ELO_ENTRIES,
  ...ADVANCE_RESERVATION_ENTRIES,
  ...CONVERGENT_ENTRIES,
  ...MULTICLUSTER_ENTRIES,
];

/**
 * The policies `demo` and the `fcfs-load` experiment compare: the backfilling family on a pool
 * of identical processors (EDF is left out: the synthetic jobs have no deadlines).
 */
export const COMPARED_SCHEDULERS: readonly string[] = ["fcfs", "easy", "conservative"];

/** The registry entries of {@link COMPARED_SCHEDULERS}, with default options. */
export function comparedSchedulers(): SchedulerChoice[] {
  return COMPARED_SCHEDULERS.map((name) => ({
    entry: findScheduler(name, "demo"),
    options: {},
    label: name,
  }));
}

/** A scheduler picked on the command line: the entry, its typed options and a display label. */
export interface SchedulerChoice {
  readonly entry: SchedulerEntry;
  readonly options: OptionValues;
  /** `name` or `name(key=value,...)`, keys sorted. */
  readonly label: string;
}

/**
 * The registry entry called `name`, or a {@link UsageError} naming `--scheduler`: listing the
 * known names, or saying where a policy that runs only inside its experiments runs.
 */
export function findScheduler(name: string, command: string): SchedulerEntry {
  const entry = SCHEDULERS.find((s) => s.name === name);
  if (entry === undefined) {
    const names = SCHEDULERS.map((s) => s.name);
    const hint = suggest(name, names);
    throw new UsageError(
      `${command}: option --scheduler: unknown scheduler '${name}'${hint ? ` (did you mean ${hint}?)` : ""}; known: ${names.join(", ")}`,
      command,
    );
  }
  if (entry.experimentOnly !== undefined) {
    throw new UsageError(
      `${command}: option --scheduler: ${notRunnableMessage(entry.name, entry.experimentOnly)}`,
      command,
    );
  }
  return entry;
}

/**
 * Resolve `--scheduler NAME` and its `--opt key=value` words: unknown names and keys, a missing
 * `=`, a repeated key and a value of the wrong type throw a {@link UsageError} naming them, and
 * so does a policy that runs only inside its experiments ({@link SchedulerEntry.experimentOnly}).
 */
export function chooseScheduler(
  name: string,
  optWords: readonly string[],
  command: string,
): SchedulerChoice {
  const entry = findScheduler(name, command);
  const options: Record<string, OptionValue> = {};
  for (const word of optWords) {
    const eq = word.indexOf("=");
    const key = eq === -1 ? word : word.slice(0, eq);
    const where = `${command}: option --opt ${word}`;
    if (eq <= 0) throw new UsageError(`${where}: expected key=value`, command);
    const spec = entry.options.find((o) => o.key === key);
    if (spec === undefined) {
      const known = entry.options.map((o) => o.key);
      throw new UsageError(
        `${where}: scheduler '${entry.name}' has no option '${key}'${known.length > 0 ? `; it has ${known.join(", ")}` : "; it takes no options"}`,
        command,
      );
    }
    if (key in options) throw new UsageError(`${where}: '${key}' given twice`, command);
    options[key] = optionValue(spec, word.slice(eq + 1), where, command);
  }
  const keys = Object.keys(options).sort();
  const label =
    keys.length === 0
      ? entry.name
      : `${entry.name}(${keys.map((k) => `${k}=${options[k]}`).join(",")})`;
  return { entry, options, label };
}

/** An option's value type as `--help` writes it: `integer|inf`, `fcfs|sjf`. */
function optionTypeText(o: SchedulerOptionSpec): string {
  return o.choices ? o.choices.join("|") : o.allowInfinity ? `${o.type}|inf` : o.type;
}

/** `--help` text listing the schedulers and their options. */
export function schedulersHelp(): string {
  const lines = ["Schedulers (--scheduler NAME; their options with --opt key=value):"];
  for (const s of SCHEDULERS) {
    const only = s.experimentOnly;
    const description =
      only === undefined
        ? s.description
        : `${s.description} Only in sched-sim reproduce ${only.experiments.join(" | ")}.`;
    lines.push(hanging(`  ${s.name}`, description, 16));
    for (const o of s.options) {
      lines.push(hanging(`${" ".repeat(16)}${o.key}=<${optionTypeText(o)}>`, o.description, 20));
    }
  }
  return lines.join("\n");
}

/** `|` escaped for a Markdown table cell. */
function cell(text: string): string {
  return text.replaceAll("|", "\\|");
}

/**
 * The README's scheduler table (Markdown), generated from {@link SCHEDULERS}: one row per
 * policy with its options (`key=type`, the package's default), what it is, and where it runs.
 * `test/schedulers.test.ts` fails when the table committed in the README differs.
 */
export function schedulersMarkdown(): string {
  const rows = [
    "| name | options (`--opt key=value`, default) | what | runs in |",
    "| --- | --- | --- | --- |",
  ];
  for (const s of SCHEDULERS) {
    const options =
      s.options.length === 0
        ? "none"
        : s.options
            .map(
              (o) =>
                `\`${o.key}=${optionTypeText(o)}\`${o.default === undefined ? "" : ` (${optionText(o.default)})`}`,
            )
            .join(", ");
    const where =
      s.experimentOnly === undefined
        ? "`run`, `sweep`"
        : `\`reproduce ${s.experimentOnly.experiments.join("`, `reproduce ")}\` only: ${s.experimentOnly.reason}`;
    rows.push(`| \`${s.name}\` | ${cell(options)} | ${cell(s.description)} | ${cell(where)} |`);
  }
  return `${rows.join("\n")}\n`;
}
