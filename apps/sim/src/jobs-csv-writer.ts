import type { JobRecord } from "@sched/core";
import { writeInteger } from "@sched/workload";
import { csvField, formatNumber } from "./format.js";

/** Room kept for a row's numbers (9 of at most 25 characters, the longest text of a double; commas, line end). */
const ROW_NUMBERS = 9 * 26 + 16;
const COMMA = 0x2c;
const NEWLINE = 0x0a;

/**
 * The rows of `jobs.csv` written as bytes, for a run of millions of jobs: each record's row (the
 * bytes of `jobsCsvLine` in outputs.ts, a test checks it) is formatted straight into one reusable chunk,
 * integers digit by digit, which goes to `sink` whenever it is nearly full and on
 * {@link JobsCsvWriter.flush}. `sink` gets a view of the chunk, overwritten after it returns.
 */
export class JobsCsvWriter {
  private readonly chunk: Uint8Array;
  private used = 0;
  private readonly encoder = new TextEncoder();
  private readonly outcomes = new Map<string, Uint8Array>();

  /** @param chunkBytes the chunk's size, at least 4096 (1 MiB by default). */
  constructor(
    private readonly sink: (bytes: Uint8Array) => void,
    chunkBytes = 1 << 20,
  ) {
    this.chunk = new Uint8Array(Math.max(4096, chunkBytes));
  }

  /** Appends the row of `r` (with its line end). */
  record(r: JobRecord): void {
    if (this.chunk.length - this.used < ROW_NUMBERS) this.flush();
    const job = r.job;
    const first = r.intervals[0];
    this.number(job.id);
    this.comma();
    this.number(job.submit);
    this.comma();
    if (first === undefined) {
      this.comma();
      this.comma();
    } else {
      const start = first.start;
      this.number(start);
      this.comma();
      if (r.end !== null) this.number(r.end);
      this.comma();
      this.number(start - job.submit);
    }
    this.comma();
    this.number(job.runtime);
    this.comma();
    this.number(job.estimate);
    this.comma();
    this.number(job.cores);
    this.comma();
    this.outcome(r.outcome);
    this.comma();
    this.number(Math.max(0, r.intervals.length - 1));
    this.comma();
    if (r.reason !== undefined) this.text(csvField(r.reason));
    this.chunk[this.used++] = NEWLINE;
  }

  /** Hands what is formatted to the sink (nothing when the chunk is empty). */
  flush(): void {
    if (this.used === 0) return;
    const used = this.used;
    this.used = 0;
    this.sink(this.chunk.subarray(0, used));
  }

  private comma(): void {
    this.chunk[this.used++] = COMMA;
  }

  /** `formatNumber(x)`: safe integers digit by digit, any other number through its text. */
  private number(x: number): void {
    if (!Number.isInteger(x) || x > Number.MAX_SAFE_INTEGER || x < -Number.MAX_SAFE_INTEGER) {
      const text = formatNumber(x);
      for (let k = 0; k < text.length; k++) this.chunk[this.used++] = text.charCodeAt(k);
      return;
    }
    this.used = writeInteger(this.chunk, this.used, x, 0);
  }

  /** The outcome's CSV field (one of a few words: its bytes are kept). */
  private outcome(outcome: string): void {
    let bytes = this.outcomes.get(outcome);
    if (bytes === undefined) {
      bytes = this.encoder.encode(csvField(outcome));
      this.outcomes.set(outcome, bytes);
    }
    if (this.chunk.length - this.used < bytes.length + ROW_NUMBERS) this.flush();
    this.chunk.set(bytes, this.used);
    this.used += bytes.length;
  }

  /**
   * Appends `text` as UTF-8, flushing as needed (a reason may be long), then keeps room for the
   * rest of the row.
   */
  private text(text: string): void {
    let rest = text;
    for (;;) {
      const { read, written } = this.encoder.encodeInto(rest, this.chunk.subarray(this.used));
      this.used += written;
      if (read === rest.length) break;
      rest = rest.slice(read);
      this.flush();
    }
    if (this.chunk.length - this.used < ROW_NUMBERS) this.flush();
  }
}
