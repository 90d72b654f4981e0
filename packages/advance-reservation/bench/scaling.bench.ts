import { Random } from "@sched/random";
import { bench, describe } from "vitest";
import { AvailRectList, firstFit, peWorstFit } from "../src/index.js";
import { LinkedAvailList } from "../test/linked-avail-list.js";

/**
 * Scaling of the slot structure with its record count, against a plain linked list of the
 * paper's structure (test/linked-avail-list.ts: records walked from the head, per-PE byte
 * arrays). 1024 PEs; `reservations` reservations of 32..256 PEs, reservation i starting at
 * 50 i and lasting 50..99 s on one half of the PEs (alternating), so each adds about two
 * records. Each size is measured on both structures in the same run.
 */
function build(reservations: number): AvailRectList {
  const rng = new Random(1, "bench/scaling");
  const list = new AvailRectList(1024);
  for (let i = 0; i < reservations; i++) {
    const n = 32 * rng.integer(1, 8);
    const offset = (i % 2) * 512 + rng.integer(0, 512 - n);
    const start = 50 * i;
    list.addAllocation(
      start,
      start + 50 + rng.integer(0, 49),
      Array.from({ length: n }, (_, k) => offset + k),
    );
  }
  return list;
}

for (const reservations of [10, 100, 1000, 10_000, 50_000]) {
  const fast = build(reservations);
  const slow = LinkedAvailList.from(1024, fast.records());
  const horizon = 50 * reservations;
  const rng = new Random(2, "bench/scaling/requests");
  const requests = Array.from({ length: 64 }, () => {
    const tr = rng.uniform(0, horizon);
    const tdu = rng.uniform(20, 200);
    return { tr, tdu, tdl: tr + tdu * (1 + 3 * rng.next()), n: 32 * rng.integer(1, 8) };
  });
  // Pairs that fit (found by First Fit), added then deleted: the structure is unchanged after.
  const pairs = requests
    .map((q) => fast.findAllocation(q.tr, q.tdu, q.tdl, q.n, firstFit))
    .filter((r) => r !== null);
  let i = 0;
  let j = 0;
  let k = 0;
  let l = 0;
  describe(`${fast.size} records (${reservations} reservations)`, () => {
    bench("AvailRectList: addAllocation + deleteAllocation", () => {
      const p = pairs[i++ % pairs.length]!;
      fast.addAllocation(p.start, p.end, p.pes);
      fast.deleteAllocation(p.start, p.end, p.pes);
    });
    bench("linked list: addAllocation + deleteAllocation", () => {
      const p = pairs[j++ % pairs.length]!;
      slow.addAllocation(p.start, p.end, p.pes);
      slow.deleteAllocation(p.start, p.end, p.pes);
    });
    bench("AvailRectList: findAllocation (PE_W)", () => {
      const q = requests[k++ % requests.length]!;
      fast.findAllocation(q.tr, q.tdu, q.tdl, q.n, peWorstFit);
    });
    bench("linked list: findAllocation (PE_W)", () => {
      const q = requests[l++ % requests.length]!;
      slow.findAllocation(q.tr, q.tdu, q.tdl, q.n, peWorstFit);
    });
  });
}
