import type { Job } from "@sched/core";
import { optionKeys, requireKnownKeys } from "@sched/errors";
import {
  jobJsonValue,
  jobsHeaderLine,
  nonFiniteJobNumber,
  readUsualJob,
  repeatedJobId,
  requireWritableJob,
  unwritableJob,
  usualJobRecord,
} from "./jobs-json.js";
import { KeptIds } from "./kept-ids.js";
import { writeInteger, writerChunk } from "./swf-writer.js";

/** Options of {@link JobsJsonlWriter}. */
export interface JobsJsonlWriterOptions {
  /**
   * Bytes formatted before the writer hands them to its sink: the chunk holds whole lines, so it
   * grows past this size for a line longer than it (the last chunk may be shorter). From 4096 to 2^30.
   * @defaultValue 1048576 (1 MiB)
   */
  readonly chunkBytes?: number;
}

const WHERE = "@sched/workload/JobsJsonlWriter";
/** Where the errors of {@link JobsJsonlWriter.job} come from. */
const WHERE_JOB = "@sched/workload/JobsJsonlWriter.job";
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const NEWLINE = 0x0a;
/** The longest text of a double (`-0.0000012345678901234567`, 25 characters), with room to spare. */
const NUMBER_ROOM = 32;
/** `"maxParallelism":` (the longest key, with its quotes and colon) and the comma before it. */
const KEY_ROOM = 24;
/** Room for `{`, every scalar field of a job, `}` and `\n`. */
const SCALAR_LINE_ROOM = 2 + 17 * (KEY_ROOM + NUMBER_ROOM);
/** Lowercase hex digits, as `JSON.stringify` writes `\u001f` and lone surrogates. */
const HEX = "0123456789abcdef";

/** `"key":` as bytes (ASCII). */
function keyBytes(key: string): Uint8Array {
  return new TextEncoder().encode(`${JSON.stringify(key)}:`);
}

const K_ID = keyBytes("id");
const K_SUBMIT = keyBytes("submit");
const K_RUNTIME = keyBytes("runtime");
const K_ESTIMATE = keyBytes("estimate");
const K_CORES = keyBytes("cores");
const K_DEADLINE = keyBytes("deadline");
const K_READY = keyBytes("ready");
const K_LICENSES = keyBytes("licenses");
const K_INPUT = keyBytes("input");
const K_BENCHMARK = keyBytes("benchmark");
const K_MAX_PARALLELISM = keyBytes("maxParallelism");
const K_TASKS = keyBytes("tasks");
const K_USER = keyBytes("user");
const K_GROUP = keyBytes("group");
const K_QUEUE = keyBytes("queue");
const K_PARTITION = keyBytes("partition");
const K_PRIORITY = keyBytes("priority");
const K_SIZE = keyBytes("size");
const K_MACHINE = keyBytes("machine");

const JSONL_WRITER_KEYS = optionKeys<JobsJsonlWriterOptions>({ chunkBytes: true });

/**
 * A native jobs file (JSON Lines) written as bytes, for traces of millions of jobs: the header
 * line, then each job formatted straight into one reusable chunk of UTF-8 (integers digit by
 * digit, other numbers through the same shortest round-trip text as `JSON.stringify`, license
 * names escaped as `JSON.stringify` escapes them, lone surrogates included), which goes to `sink`
 * whenever it is nearly full and on {@link JobsJsonlWriter.flush}. The bytes are exactly those of
 * `formatJobsJsonl(jobs, meta)` (a property test checks it on random jobs, with every optional
 * field), with no string or object per job (but for jobs with licenses, whose names are sorted).
 *
 * Gotcha: `sink` gets a view of the writer's own chunk, overwritten after the call returns: write
 * it out (or copy it) before returning. Each chunk holds whole lines.
 *
 * Complexity: O(size of the job) per job; memory: one chunk (larger only for a longer line) and
 * the ids written (a few runs for ids in increasing order; 5.3 to 11 bytes an id out of order).
 *
 * @throws InvalidInputError (from the constructor) when `sink` is not a function or
 * `options.chunkBytes` is not an integer from 4096 to 2^30 (1 GiB).
 *
 * @example
 * ```ts
 * const writer = new JobsJsonlWriter((bytes) => writeSync(fd, bytes));
 * writer.header({ generator: "lublin" });
 * for (const job of jobs) writer.job(job);
 * writer.flush();
 * ```
 */
export class JobsJsonlWriter {
  private chunk: Uint8Array;
  private used = 0;
  /** Where the line being written starts: only whole lines go to the sink. */
  private lineStart = 0;
  /** Whether the object being written has no member yet (no comma before the next key). */
  private first = true;
  private readonly encoder = new TextEncoder();
  /** The ids written so far: a reader refuses a file that repeats one. */
  private readonly ids = new KeptIds();
  /** The fields of the job being written, when it is a usual one (read once, then written). */
  private readonly usual = usualJobRecord();

  constructor(
    private readonly sink: (bytes: Uint8Array) => void,
    options: JobsJsonlWriterOptions = {},
  ) {
    requireKnownKeys(WHERE, "options", options, JSONL_WRITER_KEYS);
    this.chunk = writerChunk(WHERE, sink, options.chunkBytes);
  }

  /**
   * Writes the header line `{"format":"@sched/jobs","version":1,"meta":…}` and its `\n`, as
   * `writeJobsLines` gives it (no `meta` when it is undefined).
   * @throws InvalidInputError naming `meta` or the field in it when it would not read back (not an
   * object of JSON data, or `procs` not an integer >= 1).
   */
  header(meta?: Readonly<Record<string, unknown>>): void {
    const line = `${jobsHeaderLine("@sched/workload/JobsJsonlWriter.header", meta)}\n`;
    this.lineStart = this.used;
    // At most 3 bytes of UTF-8 per UTF-16 unit.
    this.room(line.length * 3);
    const { written } = this.encoder.encodeInto(line, this.chunk.subarray(this.used));
    this.used += written;
  }

  /**
   * Writes one job line (with its `\n`): the bytes of `formatJobJson(job) + "\n"`.
   * @throws InvalidInputError (where `@sched/workload/JobsJsonlWriter.job`) naming the job and the
   * field when the readers would not give the job back as itself (as `formatJobJson` refuses it),
   * or when its id was written before; nothing of that line is written.
   */
  job(job: Job): void {
    const u = this.usual;
    if (!readUsualJob(job, u)) {
      this.anyJob(job);
      return;
    }
    // The usual job, checked: its fields written from `u`, each read once.
    const id = u.id as number;
    if (!this.ids.add(id)) throw repeatedJobId(WHERE_JOB, id);
    this.lineStart = this.used;
    this.room(SCALAR_LINE_ROOM);
    this.chunk[this.used++] = OPEN_BRACE;
    this.first = true;
    // In JOB_FIELDS' order (formatJobJson's key order).
    this.member(K_ID, u.id);
    this.member(K_SUBMIT, u.submit);
    this.member(K_RUNTIME, u.runtime);
    this.member(K_ESTIMATE, u.estimate);
    this.member(K_CORES, u.cores);
    this.member(K_DEADLINE, u.deadline);
    this.member(K_READY, u.ready);
    if (u.licenses !== undefined || u.input !== undefined) {
      try {
        if (u.licenses !== undefined) this.licenses(job, u.licenses);
        if (u.input !== undefined) this.input(job, u.input);
      } catch (error) {
        this.used = this.lineStart;
        throw error;
      }
      this.room(SCALAR_LINE_ROOM);
    }
    this.member(K_BENCHMARK, u.benchmark);
    this.member(K_MAX_PARALLELISM, u.maxParallelism);
    this.member(K_TASKS, u.tasks);
    this.member(K_USER, u.user);
    this.member(K_GROUP, u.group);
    this.member(K_QUEUE, u.queue);
    this.member(K_PARTITION, u.partition);
    this.member(K_PRIORITY, u.priority);
    this.chunk[this.used++] = CLOSE_BRACE;
    this.chunk[this.used++] = NEWLINE;
  }

  /**
   * {@link job} for a job {@link readUsualJob} does not take: checked in full (the error names the
   * field), then each field read by name and written as formatJobJson writes it.
   */
  private anyJob(job: Job): void {
    requireWritableJob(job, WHERE_JOB);
    if (!this.ids.add(job.id)) throw repeatedJobId(WHERE_JOB, job.id);
    this.lineStart = this.used;
    try {
      this.room(SCALAR_LINE_ROOM);
      this.chunk[this.used++] = OPEN_BRACE;
      this.first = true;
      // Each field read by name, in JOB_FIELDS' order (formatJobJson's key order).
      this.number(job, K_ID, "id", job.id);
      this.number(job, K_SUBMIT, "submit", job.submit);
      this.number(job, K_RUNTIME, "runtime", job.runtime);
      this.number(job, K_ESTIMATE, "estimate", job.estimate);
      this.number(job, K_CORES, "cores", job.cores);
      this.number(job, K_DEADLINE, "deadline", job.deadline);
      this.number(job, K_READY, "ready", job.ready);
      if (job.licenses !== undefined) this.licenses(job, job.licenses);
      if (job.input !== undefined) this.input(job, job.input);
      this.room(SCALAR_LINE_ROOM);
      this.number(job, K_BENCHMARK, "benchmark", job.benchmark);
      this.number(job, K_MAX_PARALLELISM, "maxParallelism", job.maxParallelism);
      this.number(job, K_TASKS, "tasks", job.tasks);
      this.number(job, K_USER, "user", job.user);
      this.number(job, K_GROUP, "group", job.group);
      this.number(job, K_QUEUE, "queue", job.queue);
      this.number(job, K_PARTITION, "partition", job.partition);
      this.number(job, K_PRIORITY, "priority", job.priority);
      this.chunk[this.used++] = CLOSE_BRACE;
      this.chunk[this.used++] = NEWLINE;
    } catch (error) {
      this.used = this.lineStart;
      throw error;
    }
  }

  /** Hands what is formatted to the sink (nothing when the chunk is empty). */
  flush(): void {
    if (this.used === 0) return;
    const used = this.used;
    this.used = 0;
    this.lineStart = 0;
    this.sink(this.chunk.subarray(0, used));
  }

  /**
   * Makes room for `n` more bytes: hands the whole lines before the current one to the sink and
   * moves the current line to the chunk's start, or grows the chunk for a line longer than it.
   */
  private room(n: number): void {
    if (this.chunk.length - this.used >= n) return;
    if (this.lineStart > 0) {
      this.sink(this.chunk.subarray(0, this.lineStart));
      this.chunk.copyWithin(0, this.lineStart, this.used);
      this.used -= this.lineStart;
      this.lineStart = 0;
    }
    if (this.chunk.length - this.used >= n) return;
    const grown = new Uint8Array(Math.max(2 * this.chunk.length, this.used + n));
    grown.set(this.chunk.subarray(0, this.used));
    this.chunk = grown;
  }

  /** `,` unless this is the object's first member, then `"key":` (room already made). */
  private key(key: Uint8Array): void {
    const chunk = this.chunk;
    let at = this.used;
    if (this.first) this.first = false;
    else chunk[at++] = COMMA;
    // A byte loop: `chunk.set(key, at)` costs more for a dozen bytes (measured: x1.08 for the
    // whole writer on 1M Lublin jobs).
    for (let k = 0; k < key.length; k++) chunk[at++] = key[k]!;
    this.used = at;
  }

  /** Member `key` of the finite number `v` (skipped when undefined), room already made. */
  private member(key: Uint8Array, v: number | undefined): void {
    if (v === undefined) return;
    this.key(key);
    this.value(v);
  }

  /**
   * Member `key` of value `v` (skipped when undefined), room already made: a finite number as
   * `JSON.stringify` writes it, anything else through `JSON.stringify` itself.
   */
  private number(job: Job, key: Uint8Array, name: string, v: unknown): void {
    if (v === undefined) return;
    if (typeof v !== "number") {
      this.other(job, key, jobJsonValue(WHERE_JOB, job, name, v));
      return;
    }
    if (!Number.isFinite(v)) throw nonFiniteJobNumber(WHERE_JOB, job, name, v);
    this.key(key);
    this.value(v);
  }

  /** A finite number, room already made. */
  private value(v: number): void {
    if (Number.isInteger(v) && v <= Number.MAX_SAFE_INTEGER && v >= -Number.MAX_SAFE_INTEGER) {
      this.used = writeInteger(this.chunk, this.used, v, 0);
      return;
    }
    // The shortest round-trip form (`1.5`, `1e+21`, `5e-324`), as JSON.stringify: always ASCII.
    const text = `${v}`;
    const chunk = this.chunk;
    let at = this.used;
    for (let k = 0; k < text.length; k++) chunk[at++] = text.charCodeAt(k);
    this.used = at;
  }

  /**
   * Member `key` written as `JSON.stringify(value)` (an unexpected value: a string id, say), left
   * out as JSON.stringify leaves out a function or a symbol.
   */
  private other(job: Job, key: Uint8Array, value: unknown): void {
    let text: string | undefined;
    try {
      text = JSON.stringify(value);
    } catch (error) {
      throw unwritableJob(WHERE_JOB, job, error);
    }
    if (text === undefined) return;
    this.room(KEY_ROOM + text.length * 3);
    this.key(key);
    const { written } = this.encoder.encodeInto(text, this.chunk.subarray(this.used));
    this.used += written;
  }

  /** `"licenses":{…}`, names in formatJobJson's order (sorted, as an object enumerates them). */
  private licenses(job: Job, licenses: unknown): void {
    const raw = licenses as Record<string, unknown>;
    const plain = plainLicenseNames(raw);
    if (plain !== null) {
      this.licenseObject(plain, raw);
      return;
    }
    // Checked (no NaN) and sorted as formatJobJson does; Object.keys: own names only, as JSON.
    const sorted = jobJsonValue(WHERE_JOB, job, "licenses", raw) as Record<string, unknown>;
    const names = Object.keys(sorted);
    for (const name of names) {
      if (typeof sorted[name] !== "number") {
        // Not a count: written as JSON.stringify writes the whole object.
        this.other(job, K_LICENSES, sorted);
        return;
      }
    }
    this.licenseObject(names, sorted);
  }

  /** `"licenses":{"name":n,…}` for `names` in this order, each a finite number in `counts`. */
  private licenseObject(names: readonly string[], counts: Record<string, unknown>): void {
    this.room(KEY_ROOM + 1);
    this.key(K_LICENSES);
    this.chunk[this.used++] = OPEN_BRACE;
    for (let i = 0; i < names.length; i++) {
      const name = names[i]!;
      this.room(6 * name.length + 4 + NUMBER_ROOM);
      if (i > 0) this.chunk[this.used++] = COMMA;
      this.string(name);
      this.chunk[this.used++] = COLON;
      this.value(counts[name] as number);
    }
    this.room(1);
    this.chunk[this.used++] = CLOSE_BRACE;
  }

  /** `"input":[{"size":…,"machine":…},…]`. */
  private input(job: Job, input: unknown): void {
    if (!plainInput(input)) {
      // Not an array of {size, machine} numbers: shaped and written as formatJobJson does.
      this.other(job, K_INPUT, jobJsonValue(WHERE_JOB, job, "input", input));
      return;
    }
    for (let i = 0; i < input.length; i++) {
      const d = input[i]!;
      if (d.size !== undefined && !Number.isFinite(d.size))
        throw nonFiniteJobNumber(WHERE_JOB, job, `input[${i}].size`, d.size);
      if (d.machine !== undefined && !Number.isFinite(d.machine))
        throw nonFiniteJobNumber(WHERE_JOB, job, `input[${i}].machine`, d.machine);
    }
    this.room(KEY_ROOM + 1);
    this.key(K_INPUT);
    this.chunk[this.used++] = OPEN_BRACKET;
    for (let i = 0; i < input.length; i++) {
      const d = input[i]!;
      this.room(3 + 2 * (KEY_ROOM + NUMBER_ROOM));
      if (i > 0) this.chunk[this.used++] = COMMA;
      this.chunk[this.used++] = OPEN_BRACE;
      this.first = true;
      if (d.size !== undefined) {
        this.key(K_SIZE);
        this.value(d.size);
      }
      if (d.machine !== undefined) {
        this.key(K_MACHINE);
        this.value(d.machine);
      }
      this.chunk[this.used++] = CLOSE_BRACE;
    }
    this.room(1);
    this.chunk[this.used++] = CLOSE_BRACKET;
    this.first = false;
  }

  /**
   * `s` as a JSON string, escaped as `JSON.stringify` escapes it (`\"`, `\\`, `\b\f\n\r\t`, other
   * control characters and lone surrogates as `\u` and four lowercase hex digits), the rest as
   * UTF-8. Room for 6 bytes per UTF-16 unit and the quotes already made.
   */
  private string(s: string): void {
    const chunk = this.chunk;
    let at = this.used;
    chunk[at++] = QUOTE;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c < 0x80) {
        if (c >= 0x20 && c !== QUOTE && c !== BACKSLASH) chunk[at++] = c;
        else {
          chunk[at++] = BACKSLASH;
          const short = SHORT_ESCAPES[c];
          if (short !== undefined) chunk[at++] = short;
          else at = unicodeEscape(chunk, at, c);
        }
      } else if (c < 0x800) {
        chunk[at++] = 0xc0 | (c >> 6);
        chunk[at++] = 0x80 | (c & 0x3f);
      } else if (c >= 0xd800 && c <= 0xdfff) {
        const next = i + 1 < s.length ? s.charCodeAt(i + 1) : 0;
        if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
          const cp = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
          chunk[at++] = 0xf0 | (cp >> 18);
          chunk[at++] = 0x80 | ((cp >> 12) & 0x3f);
          chunk[at++] = 0x80 | ((cp >> 6) & 0x3f);
          chunk[at++] = 0x80 | (cp & 0x3f);
          i++;
        } else {
          // A lone surrogate: escaped, as well-formed JSON.stringify (ES2019) writes it.
          chunk[at++] = BACKSLASH;
          at = unicodeEscape(chunk, at, c);
        }
      } else {
        chunk[at++] = 0xe0 | (c >> 12);
        chunk[at++] = 0x80 | ((c >> 6) & 0x3f);
        chunk[at++] = 0x80 | (c & 0x3f);
      }
    }
    chunk[at++] = QUOTE;
    this.used = at;
  }
}

/**
 * The names of the usual licenses (an object whose names cannot be array indices and whose counts
 * are finite numbers), sorted: formatJobJson's order without its sorted copy (an object
 * enumerates index names first, and `__proto__` is no own key of the copy, so those take the
 * general path, as does anything else). Null for any other licenses.
 */
function plainLicenseNames(licenses: unknown): string[] | null {
  if (typeof licenses !== "object" || licenses === null || Array.isArray(licenses)) return null;
  const lic = licenses as Record<string, unknown>;
  const names = Object.keys(lic).sort();
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    const c = name.charCodeAt(0);
    if ((c >= 0x30 && c <= 0x39) || name === "__proto__") return null;
    const n = lic[name];
    if (typeof n !== "number" || !Number.isFinite(n)) return null;
  }
  return names;
}

/** Input data of the usual shape: an array (no holes) of objects whose size and machine are numbers or absent. */
function plainInput(
  input: unknown,
): input is readonly { readonly size?: number; readonly machine?: number }[] {
  if (!Array.isArray(input)) return false;
  for (let i = 0; i < input.length; i++) {
    const d: unknown = input[i];
    if (typeof d !== "object" || d === null) return false;
    const { size, machine } = d as { size?: unknown; machine?: unknown };
    if (size !== undefined && typeof size !== "number") return false;
    if (machine !== undefined && typeof machine !== "number") return false;
  }
  return true;
}

/** The one-letter escapes of JSON (after the backslash), by character code. */
const SHORT_ESCAPES: readonly (number | undefined)[] = (() => {
  const table: (number | undefined)[] = [];
  table[0x08] = 0x62; // \b
  table[0x09] = 0x74; // \t
  table[0x0a] = 0x6e; // \n
  table[0x0c] = 0x66; // \f
  table[0x0d] = 0x72; // \r
  table[QUOTE] = QUOTE;
  table[BACKSLASH] = BACKSLASH;
  return table;
})();

/** `u` and the four lowercase hex digits of `c` at `at` (after a backslash); the position after. */
function unicodeEscape(chunk: Uint8Array, at: number, c: number): number {
  chunk[at] = 0x75; // u
  chunk[at + 1] = HEX.charCodeAt((c >> 12) & 15);
  chunk[at + 2] = HEX.charCodeAt((c >> 8) & 15);
  chunk[at + 3] = HEX.charCodeAt((c >> 4) & 15);
  chunk[at + 4] = HEX.charCodeAt(c & 15);
  return at + 5;
}
