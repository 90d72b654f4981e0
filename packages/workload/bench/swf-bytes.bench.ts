import { describe } from "vitest";
import { generateLublin } from "../src/lublin.js";
import { createSwfJobStream } from "../src/swf-stream.js";
import { formatSwf } from "../src/swf-write.js";
import { benchOnce, interleavedCpu, loadText } from "./interleaved.js";

// Reading an SWF file's bytes into jobs, as `sched-sim run` on the general engine reads a plain
// or gunzipped trace: 1 MiB pieces of UTF-8 bytes, either decoded (a fatal streaming
// TextDecoder, then `push` of the text: the reader before `pushBytes`) or handed as they are to
// `pushBytes` (ASCII pieces scanned as bytes). The trace: 200,000 Lublin jobs (256 processors,
// seed 1) written by `formatSwf`, 22 MB, read with the run time as the estimate. Both must
// give the same jobs (checked first).
//
// CPU (`process.cpuUsage`) per job, SWF_BYTES_ROUNDS rounds (7), the two in turns; medians.
// Run: `pnpm exec vitest bench --run bench/swf-bytes.bench.ts` in packages/workload.

const JOBS = 200_000;
const PIECE = 1 << 20;
const ROUNDS = Number(process.env.SWF_BYTES_ROUNDS ?? 7);
/** Lublin's records have no requested time: the run time is the estimate. */
const OPTIONS = { source: "l.swf", estimate: "runtime" } as const;

const trace = generateLublin({ jobs: JOBS, procs: 256, seed: 1, jobTypes: false });
const bytes = new TextEncoder().encode(formatSwf(trace.header, trace.records));
const pieces: Uint8Array[] = [];
for (let at = 0; at < bytes.length; at += PIECE) pieces.push(bytes.subarray(at, at + PIECE));

/** Jobs read through the decoder and `push`; their ids summed. */
function viaText(): number {
  const stream = createSwfJobStream(OPTIONS);
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let sum = 0;
  for (const p of pieces)
    for (const j of stream.push(decoder.decode(p, { stream: true }))) sum += j.id;
  for (const j of stream.push(decoder.decode())) sum += j.id;
  for (const j of stream.end()) sum += j.id;
  return sum;
}

/** Jobs read through `pushBytes`; their ids summed. */
function viaBytes(): number {
  const stream = createSwfJobStream(OPTIONS);
  let sum = 0;
  for (const p of pieces) for (const j of stream.pushBytes(p)) sum += j.id;
  for (const j of stream.end()) sum += j.id;
  return sum;
}

describe(`SWF bytes to jobs, ${JOBS} Lublin jobs (${bytes.length} bytes), 1 MiB pieces`, () => {
  benchOnce("decoded text (push) against bytes (pushBytes), CPU ns/job", () => {
    // (benchOnce's runner drops what a bench throws: said here.)
    try {
      measure();
    } catch (error) {
      console.error(error);
      throw error;
    }
  });
});

function measure(): void {
  const same = JSON.stringify(readAll(viaText)) === JSON.stringify(readAll(viaBytes));
  if (!same) throw new Error("the two paths read different jobs");
  const [text, raw] = interleavedCpu(2, ROUNDS, JOBS, (b) => {
    if ((b === 0 ? viaText() : viaBytes()) <= 0) throw new Error("no jobs");
  });
  console.log(
    `push(decoded text) ${text!.toFixed(0)} ns/job, pushBytes ${raw!.toFixed(0)} ns/job ` +
      `(${((raw! / text!) * 100).toFixed(0)}%), medians of ${ROUNDS} rounds, ${loadText()}`,
  );
}

/** Every job of one reading, for the check that both paths agree. */
function readAll(how: typeof viaText): unknown[] {
  const stream = createSwfJobStream(OPTIONS);
  const jobs: unknown[] = [];
  const decoder = new TextDecoder("utf-8", { fatal: true });
  for (const p of pieces) {
    jobs.push(
      ...(how === viaText ? stream.push(decoder.decode(p, { stream: true })) : stream.pushBytes(p)),
    );
  }
  jobs.push(...stream.end());
  return jobs;
}
