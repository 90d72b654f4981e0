import type { Job } from "@sched/core";
import { timesFit } from "./job-times.js";

const TAB = 0x09;
const SPACE = 0x20;
const QUOTE = 0x22;
const COMMA = 0x2c;
const MINUS = 0x2d;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
const COLON = 0x3a;
const LOWER_E = 0x65;
const UPPER_E = 0x45;
const PLUS = 0x2b;
const OPEN = 0x7b;
const CLOSE = 0x7d;

/** A bit per numeric job field, to find a key given twice and the required ones. */
const ID = 1;
const SUBMIT = 2;
const RUNTIME = 4;
const ESTIMATE = 8;
const CORES = 16;
const DEADLINE = 32;
const READY = 64;
const BENCHMARK = 128;
const MAX_PARALLELISM = 256;
const TASKS = 512;
const USER = 1024;
const GROUP = 2048;
const QUEUE = 4096;
const PARTITION = 8192;
const PRIORITY = 16384;
const REQUIRED = ID | SUBMIT | RUNTIME | CORES;

/** The longest line the scanner reads (UTF-16 units); longer ones go to the full reader. */
const MAX_LINE = 2048;
/** The line's UTF-8 bytes (3 a unit at most, so any line up to MAX_LINE fits whole). */
const BYTES = new Uint8Array(3 * MAX_LINE);
const encoder = new TextEncoder();

/** Each numeric job field's name, as bytes, by the index of its bit. */
const KEY_BYTES: Uint8Array[] = [];
for (const [name, bit] of [
  ["id", ID],
  ["submit", SUBMIT],
  ["runtime", RUNTIME],
  ["estimate", ESTIMATE],
  ["cores", CORES],
  ["deadline", DEADLINE],
  ["ready", READY],
  ["benchmark", BENCHMARK],
  ["maxParallelism", MAX_PARALLELISM],
  ["tasks", TASKS],
  ["user", USER],
  ["group", GROUP],
  ["queue", QUEUE],
  ["partition", PARTITION],
  ["priority", PRIORITY],
] as const) {
  KEY_BYTES[31 - Math.clz32(bit)] = encoder.encode(name);
}

/**
 * The bit of the numeric job field whose name, then a closing quote, starts at `b[at]`, or 0 (an
 * unknown name, one with an escape). Names are letters: a match ends before the line's closing
 * brace, so no byte past it is read.
 */
function fieldNamedAt(b: Uint8Array, at: number): number {
  let bit: number;
  switch (b[at]) {
    case 0x69: // i
      bit = ID;
      break;
    case 0x73: // s
      bit = SUBMIT;
      break;
    case 0x72: // r: runtime, ready
      bit = b[at + 1] === 0x75 ? RUNTIME : READY;
      break;
    case 0x65: // e
      bit = ESTIMATE;
      break;
    case 0x63: // c
      bit = CORES;
      break;
    case 0x64: // d
      bit = DEADLINE;
      break;
    case 0x62: // b
      bit = BENCHMARK;
      break;
    case 0x6d: // m
      bit = MAX_PARALLELISM;
      break;
    case 0x74: // t
      bit = TASKS;
      break;
    case 0x75: // u
      bit = USER;
      break;
    case 0x67: // g
      bit = GROUP;
      break;
    case 0x71: // q
      bit = QUEUE;
      break;
    case 0x70: // p: partition, priority
      bit = b[at + 1] === 0x61 ? PARTITION : PRIORITY;
      break;
    default:
      return 0;
  }
  const name = KEY_BYTES[31 - Math.clz32(bit)] as Uint8Array;
  const length = name.length;
  for (let j = 1; j < length; j++) if (b[at + j] !== name[j]) return 0;
  return b[at + length] === QUOTE ? bit : 0;
}

/** Whether `c` is JSON white space within a line (a line has no `\n` or `\r`). */
function isBlank(c: number): boolean {
  return c === SPACE || c === TAB;
}

/**
 * The job of one native job line in its usual shape, or null for any other line. The usual shape:
 * ASCII, at most 2048 characters, one JSON object from the first character to the last (no white
 * space around it), whose keys are numeric job fields (`id`, `submit`, `runtime`, `estimate`,
 * `cores`, `deadline`, `ready`, `benchmark`, `maxParallelism`, `tasks`, `user`, `group`, `queue`,
 * `partition`, `priority`: not `licenses` nor `input`), each once, without escapes, whose values
 * are JSON numbers, spaces and tabs allowed between tokens, the required fields present, and
 * whose values pass every check the full reader makes (@sched/core's `createJob`, then
 * `jobTimeProblem`). The job is then the one the full reader builds: the fields in the line's
 * order, `estimate` last when the line has none (the run time), frozen.
 *
 * Null says nothing about the line: the full reader (`JSON.parse` and the checks) reads it again
 * and gives the job or the error in its words. The scanner must never give a job that the full
 * reader refuses, nor another job (`test/job-line-scan.property.test.ts` compares both on random
 * and mutated lines). The id's uniqueness is the caller's.
 *
 * Read as bytes (`TextEncoder.encodeInto` into one reused buffer): `charCodeAt` on the lines of a
 * stream, slices of a larger text, cost about twice as much. Numbers: an integer of at most 15
 * digits is summed digit by digit (exact below 2^53); any other JSON number is checked against
 * JSON's grammar, then read by `Number`, which rounds the same text to the same double as
 * `JSON.parse`.
 *
 * Complexity: O(length of the line). Internal (the native readers' per-line fast path).
 */
export function scanJobLine(text: string): Job | null {
  const n = text.length;
  // A nested object (licenses, input data) is JSON.parse's: found natively, before any work.
  if (n < 2 || n > MAX_LINE || text.indexOf("{", 1) !== -1) return null;
  const b = BYTES;
  const { read, written } = encoder.encodeInto(text, b);
  // Bytes from n on are an earlier line's: every read below stops at the closing brace, b[n - 1].
  if (read !== n || written !== n || b[0] !== OPEN || b[n - 1] !== CLOSE) return null;
  // Built in the line's order, as createJob copies the parsed object's keys.
  const job: Record<string, number> = {};
  let seen = 0;
  let at = 1;
  let c = b[at] as number;
  while (isBlank(c)) c = b[++at] as number;
  for (;;) {
    // `"name"` then `:`; `{}` and a key with an escape are the full reader's.
    if (c !== QUOTE) return null;
    const field = fieldNamedAt(b, at + 1);
    if (field === 0 || (seen & field) !== 0) return null;
    seen |= field;
    // past the name and its closing quote (fieldNamedAt checked both)
    at += (KEY_BYTES[31 - Math.clz32(field)] as Uint8Array).length + 2;
    c = b[at] as number;
    while (isBlank(c)) c = b[++at] as number;
    if (c !== COLON) return null;
    c = b[++at] as number;
    while (isBlank(c)) c = b[++at] as number;
    // The number: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
    const start = at;
    const negative = c === MINUS;
    if (negative) c = b[++at] as number;
    let value = 0;
    let digits = 0;
    if (c === ZERO) {
      c = b[++at] as number;
      digits = 1;
    } else {
      while (c >= ZERO && c <= NINE) {
        value = value * 10 + (c - ZERO);
        digits++;
        c = b[++at] as number;
      }
      if (digits === 0) return null; // a string, an object, null, true, …
    }
    let plain = digits <= 15;
    if (c === DOT) {
      plain = false;
      c = b[++at] as number;
      if (!(c >= ZERO && c <= NINE)) return null;
      do c = b[++at] as number;
      while (c >= ZERO && c <= NINE);
    }
    if (c === LOWER_E || c === UPPER_E) {
      plain = false;
      c = b[++at] as number;
      if (c === PLUS || c === MINUS) c = b[++at] as number;
      if (!(c >= ZERO && c <= NINE)) return null;
      do c = b[++at] as number;
      while (c >= ZERO && c <= NINE);
    }
    if (!plain) value = Number(text.slice(start, at));
    else if (negative) value = -value;
    switch (field) {
      case ID:
        job.id = value;
        break;
      case SUBMIT:
        job.submit = value;
        break;
      case RUNTIME:
        job.runtime = value;
        break;
      case ESTIMATE:
        job.estimate = value;
        break;
      case CORES:
        job.cores = value;
        break;
      case DEADLINE:
        job.deadline = value;
        break;
      case READY:
        job.ready = value;
        break;
      case BENCHMARK:
        job.benchmark = value;
        break;
      case MAX_PARALLELISM:
        job.maxParallelism = value;
        break;
      case TASKS:
        job.tasks = value;
        break;
      case USER:
        job.user = value;
        break;
      case GROUP:
        job.group = value;
        break;
      case QUEUE:
        job.queue = value;
        break;
      case PARTITION:
        job.partition = value;
        break;
      default:
        job.priority = value;
    }
    while (isBlank(c)) c = b[++at] as number;
    if (c === COMMA) {
      c = b[++at] as number;
      while (isBlank(c)) c = b[++at] as number;
      continue;
    }
    if (c === CLOSE && at === n - 1) break;
    return null;
  }
  if ((seen & REQUIRED) !== REQUIRED) return null;
  if ((seen & ESTIMATE) === 0) job.estimate = job.runtime as number;
  return validJob(job, seen) ? (Object.freeze(job) as unknown as Job) : null;
}

function isSafeIntegerAtLeast(v: number, min: number): boolean {
  return Number.isSafeInteger(v) && v >= min;
}

function isPositive(v: number): boolean {
  return Number.isFinite(v) && v > 0;
}

/**
 * Whether the numbers of `job` (the fields in `seen`) pass createJob's checks and
 * jobTimeProblem's: the same rules as @sched/core's `isValidJobSpec` on numbers.
 */
function validJob(job: Record<string, number>, seen: number): boolean {
  const submit = job.submit as number;
  const runtime = job.runtime as number;
  const estimate = job.estimate as number;
  if (!isSafeIntegerAtLeast(job.id as number, 0) || !Number.isFinite(submit)) return false;
  if (!isPositive(runtime) || !isPositive(estimate)) return false;
  if (!isSafeIntegerAtLeast(job.cores as number, 1)) return false;
  if (seen >= DEADLINE) {
    // an optional field
    if ((seen & DEADLINE) !== 0 && !Number.isFinite(job.deadline)) return false;
    if ((seen & READY) !== 0 && !Number.isFinite(job.ready)) return false;
    if ((seen & BENCHMARK) !== 0 && !isPositive(job.benchmark as number)) return false;
    if ((seen & MAX_PARALLELISM) !== 0 && !isSafeIntegerAtLeast(job.maxParallelism as number, 1))
      return false;
    if ((seen & TASKS) !== 0 && !isSafeIntegerAtLeast(job.tasks as number, 1)) return false;
    if ((seen & USER) !== 0 && !Number.isSafeInteger(job.user)) return false;
    if ((seen & GROUP) !== 0 && !Number.isSafeInteger(job.group)) return false;
    if ((seen & QUEUE) !== 0 && !Number.isSafeInteger(job.queue)) return false;
    if ((seen & PARTITION) !== 0 && !Number.isSafeInteger(job.partition)) return false;
    if ((seen & PRIORITY) !== 0 && !Number.isFinite(job.priority)) return false;
  }
  return timesFit(submit, job.ready, job.deadline, runtime, estimate);
}
