import { ParseError } from "@sched/core";
import { parseSwfNumber, swfNumberProblem } from "./swf-number.js";

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

/**
 * The header as SWF comment lines (no trailing newline on each): free comments first, then the
 * typed directives in the order of the SWF definition, then `other`. A multi-line value is
 * written as the directive line and indented `;` continuation lines.
 *
 * Complexity: O(size of the header).
 *
 * @example
 * ```ts
 * formatSwfHeader({ ...emptySwfHeader(), version: "2.2", maxProcs: 100 });
 * // ["; Version: 2.2", "; MaxProcs: 100"]
 * ```
 */
export function formatSwfHeader(header: SwfHeader): string[] {
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
