import { InvalidInputError, LimitExceededError, ParseError } from "@sched/core";

/**
 * Whose words a hint must use: a command line (the options the command has), or an experiment
 * file (the keys of its `workload`).
 */
export type HintAudience =
  | { readonly command: string; readonly options: readonly string[] }
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
  return new LimitExceededError(error.where, detail, { cause: error, limit: `--${limit.option}` });
}

/**
 * `error` with its library hint said in the caller's words: on a command line the options it
 * has (`--clean`, `--estimate runtime`; a hint for an option the command does not have is left
 * out), in an experiment file the keys (`"clean": true`). The engine's guards
 * (LimitExceededError naming `options.maxStalledEvents` or `options.maxEvents`) name the
 * command's flag instead, when it has one. Anything else is returned unchanged.
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
  const { source, line, column, field } = error;
  return new ParseError(
    error.where,
    {
      source,
      ...(line === undefined ? {} : { line }),
      ...(column === undefined ? {} : { column }),
      ...(field === undefined ? {} : { field }),
    },
    hinted,
    { cause: error },
  );
}

/** What an error's message says between its `where: ` and its detail. */
function locationOf(error: InvalidInputError | ParseError): string {
  if (error instanceof InvalidInputError) return `${error.field} `;
  return `${error.source}${error.line === undefined ? "" : `:${error.line}`}${error.column === undefined ? "" : `:${error.column}`}${error.field === undefined ? "" : ` ${error.field}`}: `;
}
