import { InvalidInputError, ParseError } from "@sched/core";
import {
  describeValue,
  optionKeys,
  requireArray,
  requireBoolean,
  requireKnownKeys,
  requireObject,
} from "@sched/errors";
import { parseSwfNumber, SWF_NUMBER_LIMIT, swfNumberProblem } from "./swf-number.js";

/** A header directive kept as text: `; Key: value`. */
export interface SwfDirective {
  /** The key as written, e.g. `"Acknowledge"`. */
  readonly key: string;
  /** The value, trimmed; continuation lines are joined with `"\n"`. */
  readonly value: string;
}

/**
 * The header of an SWF trace: the `; Key: value` comment lines at its top, typed.
 *
 * Every single-valued directive is optional (absent when the file does not have it). Repeated
 * directives (`Queue`, `Partition`, `Note`) are arrays in file order. A directive whose value
 * spans several comment lines (an indented `;` line right after it) has them joined with
 * `"\n"`. Directives this type does not name, and a second occurrence of a single-valued one,
 * are kept in `other`; comment lines that are not directives are kept in `comments`.
 *
 * @example
 * ```ts
 * parseSwf("; MaxProcs: 100\n; Note: uses EASY\n").header;
 * // { maxProcs: 100, queues: [], partitions: [], notes: ["uses EASY"], other: [], comments: [] }
 * ```
 */
export interface SwfHeader {
  /** `Version`: the SWF version, e.g. `"2.2"`. */
  readonly version?: string;
  /** `Computer`: the machine, e.g. `"IBM SP2"`. */
  readonly computer?: string;
  /** `Installation`: the site. */
  readonly installation?: string;
  /** `Acknowledge`: who provided the log. */
  readonly acknowledge?: string;
  /** `Information`: where to read more (often URLs, one per line). */
  readonly information?: string;
  /** `Conversion`: who converted the log to SWF, and when. */
  readonly conversion?: string;
  /** `MaxJobs`: number of jobs in the original log (an integer >= 0). */
  readonly maxJobs?: number;
  /** `MaxRecords`: number of records (lines) in the file (an integer >= 0). */
  readonly maxRecords?: number;
  /** `Preemption`: `"No"`, `"Yes"`, `"Double"` or `"TS"`, as written. */
  readonly preemption?: string;
  /** `UnixStartTime`: the epoch second that submit time 0 refers to (an integer). */
  readonly unixStartTime?: number;
  /** `TimeZone`: seconds to add to UnixStartTime for local time (an integer; deprecated by the standard). */
  readonly timeZone?: number;
  /** `TimeZoneString`: the time zone name, e.g. `"Europe/Stockholm"`. */
  readonly timeZoneString?: string;
  /** `StartTime`: the log's first moment, human-readable. */
  readonly startTime?: string;
  /** `EndTime`: the log's last moment, human-readable. */
  readonly endTime?: string;
  /** `MaxNodes`: number of nodes of the machine (an integer >= 1). */
  readonly maxNodes?: number;
  /** `MaxProcs`: number of processors of the machine (an integer >= 1). */
  readonly maxProcs?: number;
  /** `MaxRuntime`: the longest run time allowed, seconds (>= 0). */
  readonly maxRuntime?: number;
  /** `MaxMemory`: memory per processor, kilobytes (>= 0). */
  readonly maxMemory?: number;
  /** `AllowOveruse`: whether jobs may use more than they requested (`Yes`/`No`/`True`/`False`). */
  readonly allowOveruse?: boolean;
  /** `MaxQueues`: number of queues (an integer >= 0). */
  readonly maxQueues?: number;
  /** `Queue` lines, in file order (each is the queue's number and description, as written). */
  readonly queues: readonly string[];
  /** `MaxPartitions`: number of partitions (an integer >= 0). */
  readonly maxPartitions?: number;
  /** `Partition` lines, in file order. */
  readonly partitions: readonly string[];
  /** `Note` lines, in file order. */
  readonly notes: readonly string[];
  /** Every other directive, in file order, as text. */
  readonly other: readonly SwfDirective[];
  /** Comment lines that are not directives (the text after `;`, untrimmed), in file order. */
  readonly comments: readonly string[];
}

type Kind = "string" | "integer" | "number" | "boolean" | "list";

type ScalarKey = Exclude<keyof SwfHeader, "queues" | "partitions" | "notes" | "other" | "comments">;

/** A directive the header types: its key in the file, its property, and how to read it. */
interface DirectiveInfo {
  readonly key: string;
  readonly prop: keyof SwfHeader;
  readonly kind: Kind;
  /** For `integer` and `number`: the smallest value that makes sense (none: any sign). */
  readonly min?: number;
}

/** Typed directives, in the order {@link formatSwfHeader} writes them. */
const DIRECTIVES: readonly DirectiveInfo[] = [
  { key: "Version", prop: "version", kind: "string" },
  { key: "Computer", prop: "computer", kind: "string" },
  { key: "Installation", prop: "installation", kind: "string" },
  { key: "Acknowledge", prop: "acknowledge", kind: "string" },
  { key: "Information", prop: "information", kind: "string" },
  { key: "Conversion", prop: "conversion", kind: "string" },
  { key: "MaxJobs", prop: "maxJobs", kind: "integer", min: 0 },
  { key: "MaxRecords", prop: "maxRecords", kind: "integer", min: 0 },
  { key: "Preemption", prop: "preemption", kind: "string" },
  { key: "UnixStartTime", prop: "unixStartTime", kind: "integer" },
  { key: "TimeZone", prop: "timeZone", kind: "integer" },
  { key: "TimeZoneString", prop: "timeZoneString", kind: "string" },
  { key: "StartTime", prop: "startTime", kind: "string" },
  { key: "EndTime", prop: "endTime", kind: "string" },
  { key: "MaxNodes", prop: "maxNodes", kind: "integer", min: 1 },
  { key: "MaxProcs", prop: "maxProcs", kind: "integer", min: 1 },
  { key: "MaxRuntime", prop: "maxRuntime", kind: "number", min: 0 },
  { key: "MaxMemory", prop: "maxMemory", kind: "number", min: 0 },
  { key: "AllowOveruse", prop: "allowOveruse", kind: "boolean" },
  { key: "MaxQueues", prop: "maxQueues", kind: "integer", min: 0 },
  { key: "Queue", prop: "queues", kind: "list" },
  { key: "MaxPartitions", prop: "maxPartitions", kind: "integer", min: 0 },
  { key: "Partition", prop: "partitions", kind: "list" },
  { key: "Note", prop: "notes", kind: "list" },
];

const BY_KEY = new Map(DIRECTIVES.map((d) => [d.key.toLowerCase(), d]));

/** `;` then at most one blank, then `Key:`. */
const DIRECTIVE_RE = /^;[ \t]?([A-Za-z][A-Za-z0-9_-]*)[ \t]*:(.*)$/;
/** `;` then two or more blanks, then text: continues the directive above. */
const CONTINUATION_RE = /^;[ \t]{2,}(\S.*)$/;

/**
 * An empty header: no directives, empty lists.
 *
 * @example
 * ```ts
 * formatSwf({ ...emptySwfHeader(), version: "2.2", maxProcs: 128 }, records);
 * ```
 */
export function emptySwfHeader(): SwfHeader {
  return { queues: [], partitions: [], notes: [], other: [], comments: [] };
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * Accumulates header comment lines into an {@link SwfHeader}. Internal to the readers.
 */
export class SwfHeaderBuilder {
  private readonly scalars: Partial<Mutable<Pick<SwfHeader, ScalarKey>>> = {};
  private readonly queues: string[] = [];
  private readonly partitions: string[] = [];
  private readonly notes: string[] = [];
  private readonly other: { key: string; value: string }[] = [];
  private readonly comments: string[] = [];
  /** The line of each numeric directive read (for the error of a conflicting repeat). */
  private readonly numberLines = new Map<string, number>();
  /** Appends a continuation line to the directive above, or null when there is none. */
  private continueWith: ((text: string) => void) | null = null;

  constructor(
    private readonly where: string,
    private readonly source: string,
  ) {}

  /** Reads one comment line (starting with `;`), `lineNo` 1-based. */
  add(line: string, lineNo: number): void {
    const text = line.trimEnd();
    const cont = this.continueWith === null ? null : CONTINUATION_RE.exec(text);
    if (cont !== null && this.continueWith !== null) {
      this.continueWith(cont[1]!.trim());
      return;
    }
    const m = DIRECTIVE_RE.exec(text);
    if (m === null) {
      this.continueWith = null;
      const body = text.slice(1);
      if (body.trim() !== "") this.comments.push(body);
      return;
    }
    this.directive(m[1]!, m[2]!.trim(), lineNo);
  }

  /**
   * A numeric directive given again (`MaxProcs: 64`, then `MaxProcs: 32`): with another value it
   * is refused, naming both lines, since the readers size the machine from the first and the
   * trace says two things; the same value again is kept, as any repeat is, under `other`.
   */
  private repeated(info: (typeof DIRECTIVES)[number], value: string, lineNo: number): void {
    if (info.kind !== "integer" && info.kind !== "number") return;
    const first = (this.scalars as Record<string, unknown>)[info.prop];
    const n = parseSwfNumber(value);
    if (n !== null && n === first) return;
    throw new ParseError(
      this.where,
      { source: this.source, line: lineNo, field: `header ${info.key}` },
      `is given again as ${value}, after ${String(first)} on line ${this.numberLines.get(info.prop)}; a trace states it once`,
    );
  }

  private directive(key: string, value: string, lineNo: number): void {
    const info = BY_KEY.get(key.toLowerCase());
    if (info !== undefined && info.prop in this.scalars) this.repeated(info, value, lineNo);
    if (info === undefined || (info.kind !== "list" && info.prop in this.scalars)) {
      const entry = { key, value };
      this.other.push(entry);
      this.continueWith = (more) => {
        entry.value += `\n${more}`;
      };
      return;
    }
    const scalars = this.scalars as Record<string, unknown>;
    switch (info.kind) {
      case "list": {
        const list = this[info.prop as "queues" | "partitions" | "notes"];
        const index = list.length;
        list.push(value);
        this.continueWith = (more) => {
          list[index] += `\n${more}`;
        };
        return;
      }
      case "string":
        scalars[info.prop] = value;
        this.continueWith = (more) => {
          scalars[info.prop] += `\n${more}`;
        };
        return;
      case "integer":
      case "number": {
        const n = parseSwfNumber(value);
        const integer = info.kind === "integer";
        let problem: string | undefined;
        if (n === null) problem = swfNumberProblem(value);
        else if (integer && !Number.isInteger(n)) problem = `${value} is not an integer`;
        else if (info.min !== undefined && n < info.min) {
          problem = `${value} is below ${info.min}`;
        }
        if (problem !== undefined) {
          const expected = `${integer ? "an integer" : "a number"}${info.min === undefined ? "" : ` >= ${info.min}`}`;
          throw new ParseError(
            this.where,
            { source: this.source, line: lineNo, field: `header ${info.key}` },
            `${problem}; expected ${expected}`,
          );
        }
        scalars[info.prop] = n;
        this.numberLines.set(info.prop, lineNo);
        this.continueWith = null;
        return;
      }
      case "boolean": {
        const v = value.toLowerCase();
        if (v !== "yes" && v !== "no" && v !== "true" && v !== "false") {
          throw new ParseError(
            this.where,
            { source: this.source, line: lineNo, field: `header ${info.key}` },
            `${JSON.stringify(value)} is not Yes, No, True or False`,
          );
        }
        scalars[info.prop] = v === "yes" || v === "true";
        this.continueWith = null;
        return;
      }
    }
  }

  /** A data line ends any continuation. */
  endContinuation(): void {
    this.continueWith = null;
  }

  /** The header read so far (a fresh object each call). */
  build(): SwfHeader {
    return {
      ...this.scalars,
      queues: [...this.queues],
      partitions: [...this.partitions],
      notes: [...this.notes],
      other: this.other.map((d) => ({ key: d.key, value: d.value })),
      comments: [...this.comments],
    };
  }
}

/** Indent of continuation lines written by {@link formatSwfHeader}. */
const CONTINUATION_INDENT = ";        ";

function directiveLines(key: string, value: string): string[] {
  const [first, ...rest] = value.split("\n");
  const lines = [first === "" ? `; ${key}:` : `; ${key}: ${first}`];
  for (const more of rest) lines.push(CONTINUATION_INDENT + more);
  return lines;
}

const SWF_HEADER_KEYS = optionKeys<SwfHeader>({
  version: true,
  computer: true,
  installation: true,
  acknowledge: true,
  information: true,
  conversion: true,
  maxJobs: true,
  maxRecords: true,
  preemption: true,
  unixStartTime: true,
  timeZone: true,
  timeZoneString: true,
  startTime: true,
  endTime: true,
  maxNodes: true,
  maxProcs: true,
  maxRuntime: true,
  maxMemory: true,
  allowOveruse: true,
  maxQueues: true,
  queues: true,
  maxPartitions: true,
  partitions: true,
  notes: true,
  other: true,
  comments: true,
});

/** A key the readers take as a directive's (`Key:` after `;` and at most one blank). */
const KEY_RE = /^[A-Za-z][A-Za-z0-9_-]*$/;

/**
 * Checks `value`, the text of a directive (`field`), is one the readers give back as it is: a
 * string without carriage returns, whose lines have no leading or trailing blanks (the readers
 * trim them) and, after the first, are not blank (a blank continuation line ends the directive).
 */
function requireDirectiveText(where: string, field: string, value: unknown): string {
  if (typeof value !== "string") {
    throw new InvalidInputError(where, field, `is ${describeValue(value)}, expected a string`);
  }
  if (value.includes("\r")) {
    throw new InvalidInputError(
      where,
      field,
      `is ${describeValue(value)}, which has a carriage return; SWF lines end at it (use "\\n" between lines)`,
    );
  }
  const lines = value.split("\n");
  for (let k = 0; k < lines.length; k++) {
    const line = lines[k]!;
    if (line !== line.trim()) {
      throw new InvalidInputError(
        where,
        field,
        `is ${describeValue(value)}: its ${lines.length === 1 ? "text" : `line ${k + 1}`} has leading or trailing blanks, which the SWF readers drop`,
      );
    }
    if (k > 0 && line === "") {
      throw new InvalidInputError(
        where,
        field,
        `is ${describeValue(value)}: its line ${k + 1} is empty, and an empty continuation line ends the directive in SWF`,
      );
    }
  }
  return value;
}

/**
 * Checks that `header` can be written as SWF comment lines that read back as the same header
 * (what {@link formatSwfHeader} and the writers promise): its fields of the right types and
 * ranges, every text writable (see {@link requireDirectiveText}), free comments that read back as
 * comments, and `other` directives that read back under `other`. Internal (the writers call it).
 *
 * @throws InvalidInputError naming the field (`header.maxProcs`, `header.comments[2]`, ...).
 */
export function requireWritableSwfHeader(where: string, header: unknown): SwfHeader {
  requireObject(where, "header", header);
  requireKnownKeys(where, "header", header as SwfHeader, SWF_HEADER_KEYS);
  const h = header as Record<string, unknown>;
  for (const d of DIRECTIVES) {
    const field = `header.${d.prop}`;
    const v = h[d.prop];
    if (d.kind === "list") {
      const list = requireArray(where, field, v);
      for (let k = 0; k < list.length; k++) requireDirectiveText(where, `${field}[${k}]`, list[k]);
      continue;
    }
    if (v === undefined) continue;
    if (d.kind === "string") requireDirectiveText(where, field, v);
    else if (d.kind === "boolean") requireBoolean(where, field, v);
    else {
      const integer = d.kind === "integer";
      if (
        typeof v !== "number" ||
        !Number.isFinite(v) ||
        (integer && !Number.isInteger(v)) ||
        Math.abs(v) > SWF_NUMBER_LIMIT ||
        (d.min !== undefined && v < d.min)
      ) {
        const range = d.min === undefined ? ` from -${SWF_NUMBER_LIMIT}` : ` >= ${d.min}`;
        throw new InvalidInputError(
          where,
          field,
          `is ${describeValue(v)}, expected ${integer ? "an integer" : "a number"}${range} up to ${SWF_NUMBER_LIMIT} (the ${d.key} directive)`,
        );
      }
    }
  }
  const comments = requireArray(where, "header.comments", h.comments);
  for (let k = 0; k < comments.length; k++) {
    const field = `header.comments[${k}]`;
    const c = comments[k];
    if (typeof c !== "string") {
      throw new InvalidInputError(where, field, `is ${describeValue(c)}, expected a string`);
    }
    if (c.includes("\n") || c.includes("\r")) {
      throw new InvalidInputError(
        where,
        field,
        `is ${describeValue(c)}, which has a line break; a free comment is one line (give each line its own comment)`,
      );
    }
    if (c.trim() === "" || c !== c.trimEnd()) {
      throw new InvalidInputError(
        where,
        field,
        `is ${describeValue(c)}: ${c.trim() === "" ? "a blank comment, which the SWF readers drop" : "it ends in blanks, which the SWF readers drop"}`,
      );
    }
    const m = DIRECTIVE_RE.exec(`;${c}`);
    if (m !== null) {
      throw new InvalidInputError(
        where,
        field,
        `is ${describeValue(c)}, which reads back as the directive ${m[1]}; put it in header.other (or the typed field) instead`,
      );
    }
  }
  const other = requireArray(where, "header.other", h.other);
  for (let k = 0; k < other.length; k++) {
    const field = `header.other[${k}]`;
    const entry = requireObject(where, field, other[k]) as Record<string, unknown>;
    const key = entry.key;
    if (typeof key !== "string" || !KEY_RE.test(key)) {
      throw new InvalidInputError(
        where,
        `${field}.key`,
        `is ${describeValue(key)}, expected a directive key (a letter, then letters, digits, "_" or "-")`,
      );
    }
    const value = requireDirectiveText(where, `${field}.value`, entry.value);
    const info = BY_KEY.get(key.toLowerCase());
    if (info === undefined) continue;
    if (info.kind === "list") {
      throw new InvalidInputError(
        where,
        `${field}.key`,
        `is ${describeValue(key)}, which reads back into header.${info.prop}; put it there instead`,
      );
    }
    const typed = h[info.prop];
    if (typed === undefined) {
      throw new InvalidInputError(
        where,
        `${field}.key`,
        `is ${describeValue(key)}, which reads back as header.${info.prop} (unset here); set header.${info.prop} instead`,
      );
    }
    if ((info.kind === "integer" || info.kind === "number") && parseSwfNumber(value) !== typed) {
      throw new InvalidInputError(
        where,
        `${field}.value`,
        `is ${describeValue(value)}, but header.${info.prop} is ${String(typed)}: a trace states ${info.key} once (the SWF readers refuse two different values)`,
      );
    }
  }
  return header as SwfHeader;
}

/**
 * The header as SWF comment lines (no trailing newline on each): free comments first, then the
 * typed directives in the order of the SWF definition, then `other`. A multi-line value is
 * written as the directive line and indented `;` continuation lines.
 *
 * Complexity: O(size of the header).
 *
 * @throws InvalidInputError naming the field when the header would not read back as itself: a
 * field of the wrong type or range (`header.maxProcs` `"abc"`, `header.allowOveruse` `"No"`), an
 * unknown field, a text with a carriage return or with blanks at the ends of a line, a free
 * comment with a line break or that reads back as a directive, an `other` directive that reads
 * back as a typed one.
 *
 * @example
 * ```ts
 * formatSwfHeader({ ...emptySwfHeader(), version: "2.2", maxProcs: 100 });
 * // ["; Version: 2.2", "; MaxProcs: 100"]
 * ```
 */
export function formatSwfHeader(header: SwfHeader): string[] {
  return swfHeaderLines("@sched/workload/formatSwfHeader", header);
}

/** {@link formatSwfHeader} for the writers, whose errors name their own function. Internal. */
export function swfHeaderLines(where: string, header: SwfHeader): string[] {
  requireWritableSwfHeader(where, header);
  const lines: string[] = [];
  for (const c of header.comments) lines.push(`;${c}`);
  for (const d of DIRECTIVES) {
    const v = header[d.prop];
    if (v === undefined) continue;
    if (d.kind === "list") {
      for (const item of v as readonly string[]) lines.push(...directiveLines(d.key, item));
    } else if (d.kind === "boolean") {
      lines.push(`; ${d.key}: ${v ? "Yes" : "No"}`);
    } else {
      lines.push(...directiveLines(d.key, String(v)));
    }
  }
  for (const d of header.other) lines.push(...directiveLines(d.key, d.value));
  return lines;
}
