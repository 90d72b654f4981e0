import { InvalidInputError, LimitExceededError, ParseError, PolicyError } from "@sched/core";

/**
 * Whose words a hint must use: a command line (the options the command has), or an experiment
 * file (the keys of its `workload`).
 */
export type HintAudience =
  | {
      readonly command: string;
      readonly options: readonly string[];
      /**
       * The library's `options.NAME` fields that are this command's `--NAME` flags (`gen`'s model
       * options), by shape: an error about one is said as the flag, `options.NAME[i]` as the low or
       * high end of a `range` (`lo,hi`) or item i + 1 of a `list`. @defaultValue none
       */
      readonly flagFields?: ReadonlyMap<string, "value" | "range" | "list">;
    }
  | { readonly experimentFile: string };

/**
 * The library's hints (see `swfToJobs`): each is a clause of a last parenthesis
 * `(or set options.clean to …, or set options.estimate to "runtime" to …)`, in its API's words.
 */
const API_HINT = / \(or set options\.[^()]*\)$/;

const CLAUSES = [
  {
    api: "set options.clean to drop such jobs",
    option: "clean",
    cli: "give --clean to drop such jobs",
    file: 'set "clean": true in "workload" to drop such jobs',
  },
  {
    api: 'set options.estimate to "runtime" to use the run time as the estimate',
    option: "estimate",
    cli: "give --estimate runtime to use the run time as the estimate",
    file: 'set "estimate": "runtime" in "workload" to use the run time as the estimate',
  },
] as const;

/** How the SWF readers end the error of a line over their limit, in their API's words. */
const LINE_LIMIT_API = " (options.maxLineLength)";
/** The same, for a command line or an experiment file, where the limit is not an option. */
const LINE_LIMIT_SAID = " (a trace line is a few hundred at most)";

/** The engine's guards (see `simulate`), by the option that sets each, and the flag that does on a command line. */
const LIMITS = [
  { api: "options.maxStalledEvents", option: "max-stalled-events" },
  { api: "options.maxEvents", option: "max-events" },
] as const;

function limitInCallersWords(error: LimitExceededError, audience: HintAudience): unknown {
  const limit = LIMITS.find((l) => l.api === error.limit);
  if (limit === undefined || !("options" in audience) || !audience.options.includes(limit.option))
    return error;
  const prefix = `${error.where}: `;
  const detail = error.message.slice(prefix.length).split(limit.api).join(`--${limit.option}`);
  // Said by the command (`sched-sim: run: policy "x" did not finish within --max-events …`),
  // not by the engine's function.
  return new LimitExceededError(audience.command, detail, {
    cause: error,
    limit: `--${limit.option}`,
  });
}

/**
 * The engine's report of a policy that failed (it threw, or decided what it may not), said by
 * the command that ran it: `run: policy "x" threw at t=40, …` rather than by
 * `@sched/core/createSimulation`. Errors of other functions are returned unchanged.
 */
function policyInCallersWords(error: PolicyError, audience: HintAudience): unknown {
  if (!("command" in audience) || !error.where.startsWith("@sched/core/")) return error;
  const prefix = `${error.where}: `;
  if (!error.message.startsWith(prefix)) return error;
  const { policy, time, jobIds } = error;
  return new PolicyError(
    audience.command,
    { policy, time, jobIds },
    error.message.slice(prefix.length),
    { cause: error },
  );
}

/**
 * `error` with its library hint said in the caller's words: on a command line the options it
 * has (`--clean`, `--estimate runtime`; a hint for an option the command does not have is left
 * out), in an experiment file the keys (`"clean": true`). The engine's guards
 * (LimitExceededError naming `options.maxStalledEvents` or `options.maxEvents`) name the
 * command's flag instead, when it has one. With `flagFields` (`gen`'s model options), an
 * InvalidInputError about `options.X` or `options.X[i]` is said as `--X` (the low or high end of
 * a range, item i + 1 of a list; `[8,1]` written `8,1`, "an integer" a whole number), its where
 * the command. Anything else is returned unchanged.
 * The result is an error of the same type (an InvalidInputError stays one, a ParseError naming
 * the file and line of a record that failed the conversion stays one, with the same location),
 * with the original as its `cause`.
 *
 * @example
 * ```ts
 * inCallersWords(e, { command: "run", options: ["clean", "estimate"] }).message;
 * // "… kth.swf:12 (job 9) requested time (field 9): is -1, expected > 0 (or give --clean to drop such jobs, or give --estimate runtime …)"
 * ```
 */
export function inCallersWords(error: unknown, audience: HintAudience): unknown {
  if (error instanceof LimitExceededError) return limitInCallersWords(error, audience);
  if (error instanceof PolicyError) return policyInCallersWords(error, audience);
  if (error instanceof InvalidInputError && "command" in audience && audience.flagFields) {
    const said = fieldInCallersWords(error, audience.command, audience.flagFields);
    if (said !== undefined) return said;
  }
  if (!(error instanceof InvalidInputError || error instanceof ParseError)) return error;
  const prefix = `${error.where}: ${locationOf(error)}`;
  let hinted: string;
  if (error instanceof ParseError && error.message.endsWith(LINE_LIMIT_API)) {
    // The reader's line limit is an option of the library only: neither a command nor an
    // experiment file sets it, so say what the limit is for instead.
    hinted = `${error.message.slice(prefix.length, -LINE_LIMIT_API.length)}${LINE_LIMIT_SAID}`;
  } else {
    const match = API_HINT.exec(error.message);
    if (match === null) return error;
    const said: string[] = [];
    for (const c of CLAUSES) {
      if (!match[0].includes(c.api)) continue;
      if ("experimentFile" in audience) said.push(c.file);
      else if (audience.options.includes(c.option)) said.push(c.cli);
    }
    const detail = error.message.slice(prefix.length, match.index);
    hinted = said.length === 0 ? detail : `${detail} (or ${said.join(", or ")})`;
  }
  if (error instanceof InvalidInputError) {
    return new InvalidInputError(error.where, error.field, hinted, { cause: error });
  }
  return reworded(error, error.where, hinted);
}

/**
 * `error` said again: the same location (file, line, column, field), `where` and `detail` in
 * place of its own, `error` as the cause.
 */
export function reworded(error: ParseError, where: string, detail: string): ParseError {
  const { source, line, column, field } = error;
  return new ParseError(
    where,
    {
      source,
      ...(line === undefined ? {} : { line }),
      ...(column === undefined ? {} : { column }),
      ...(field === undefined ? {} : { field }),
    },
    detail,
    { cause: error },
  );
}

/** checkRange's refusal (`@sched/workload`): `is [lo,hi], expected [lo, hi] with finite [min <= ]lo <= hi`. */
const RANGE_DETAIL =
  /^is \[([^,\]]+),([^\]]+)\], expected \[lo, hi\] with finite (?:(\S+) <= )?lo <= hi$/;

/** `options.NAME`, or `options.NAME[i]` for one number of a range or list. */
const OPTION_FIELD = /^options\.([\w.]+?)(?:\[(\d+)\])?$/;

/**
 * A library error about `options.NAME` (or `options.a.NAME`, a nested option passed down) said
 * as the flag: `gen convergent: option --cpus: the low end is 1.5, expected a whole number >= 1
 * (digits only)`; the where is the command. Undefined when the field is no flag of `fields`.
 */
function fieldInCallersWords(
  error: InvalidInputError,
  command: string,
  fields: ReadonlyMap<string, "value" | "range" | "list">,
): InvalidInputError | undefined {
  const match = OPTION_FIELD.exec(error.field);
  if (match === null) return undefined;
  const path = match[1]!;
  const name = [path, path.slice(path.lastIndexOf(".") + 1)].find((n) => fields.has(n));
  if (name === undefined) return undefined;
  const shape = fields.get(name)!;
  let detail = error.message.slice(`${error.where}: ${error.field} `.length);
  for (const other of fields.keys()) detail = detail.split(`options.${other}`).join(`--${other}`);
  let index = match[2];
  let lowEnd = "the low end";
  const range = shape === "range" ? RANGE_DETAIL.exec(detail) : null;
  if (range !== null) {
    // checkRange's refusal, said of the end that is wrong.
    const [, lo, hi, min] = range as unknown as [string, string, string, string | undefined];
    if (Number(lo) > Number(hi)) {
      index = "0";
      lowEnd = `the low end (${lo})`;
      detail = `is above the high end (${hi}), expected lo <= hi`;
    } else if (min !== undefined && Number(lo) < Number(min)) {
      index = "0";
      detail = `is ${lo}, expected ${Number(min) === Number.MIN_VALUE ? "a number > 0" : `a number >= ${min}`}`;
    }
  }
  detail = detail
    // A range as the command line writes it: `[8,1]` -> `8,1`.
    .replace(/^is \[([^\]]*)\]/, "is $1")
    .replace(/\[lo, hi\] with finite 5e-324 <= lo <= hi/, "lo,hi with 0 < lo <= hi")
    .replace(/\[lo, hi\] with finite /, "lo,hi with ")
    .replace(/\ban integer\b(.*)$/, "a whole number$1 (digits only)");
  const element =
    index === undefined
      ? ""
      : shape !== "range"
        ? `item ${Number(index) + 1}`
        : index === "0"
          ? lowEnd
          : "the high end";
  const field = element === "" ? `option --${name}` : `option --${name}: ${element}`;
  return new InvalidInputError(command, field, detail, { cause: error });
}

/** What an error's message says between its `where: ` and its detail. */
export function locationOf(error: InvalidInputError | ParseError): string {
  if (error instanceof InvalidInputError) return `${error.field} `;
  return `${error.source}${error.line === undefined ? "" : `:${error.line}`}${error.column === undefined ? "" : `:${error.column}`}${error.field === undefined ? "" : ` ${error.field}`}: `;
}
