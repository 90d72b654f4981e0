import { refuseMisspeltKeys } from "@sched/errors";
import { bench, describe } from "vitest";
import { type BackfillState, backfillPass, QUEUED_KEYS, type QueuedJob } from "../src/pass.js";

// What the check of the records' keys (refuseMisspeltKeys: a near miss of a field the record
// lacks is refused) costs in one EASY backfillPass call on 10,000 queued jobs (a 1,024-core pool,
// 512 running): the call, and the check's walk alone over the same queue, in one process. Two
// queues: records with four fields, and the same with three fields of the caller's own (user,
// state, partition), each of which is compared with the fields once and then looked up.

function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}
const random = lcg(7);
const running = Array.from({ length: 512 }, (_, i) => ({
  id: i,
  cores: 2,
  end: 100 + Math.floor(random() * 5000),
}));
const plain: QueuedJob[] = Array.from({ length: 10_000 }, (_, i) => ({
  id: 100_000 + i,
  cores: 1 + Math.floor(random() * 64),
  estimate: 60 + Math.floor(random() * 36_000),
  submit: Math.floor(random() * 100),
}));
// Literals, not spreads: V8 reads an absent field of a spread-built record far more slowly
// (a pass reads every optional field), which would swamp the figure measured here.
const withOwn: QueuedJob[] = plain.map((q) => ({
  id: q.id,
  cores: q.cores,
  estimate: q.estimate,
  submit: q.submit as number,
  user: `u${q.id % 50}`,
  state: "PENDING",
  partition: "batch",
}));

for (const [name, queue] of [
  ["four fields", plain],
  ["four fields and three of the caller's own", withOwn],
] as const) {
  describe(`10,000 queued records, ${name}`, () => {
    const state: BackfillState = { now: 100, cores: 1024, running, queue };
    bench("backfillPass, EASY (the check included)", () => {
      backfillPass(state);
    });
    bench("the check alone (refuseMisspeltKeys on each queued record)", () => {
      for (let i = 0; i < queue.length; i++) {
        refuseMisspeltKeys("bench", "state.queue[i]", queue[i] as QueuedJob, QUEUED_KEYS);
      }
    });
  });
}
