// @ts-check
import { AvailRectList, peWorstFit } from "@sched/advance-reservation";

/** The README's slot list: candidate starts, one worst-fit allocation, the records after it. */
export async function compute() {
  const list = new AvailRectList(10);
  list.addAllocation(0, 3, [0, 1]);
  list.addAllocation(0, 1, [2, 3]);
  list.addAllocation(8, 10, [4, 5, 6]);
  const request = { ready: 2, duration: 2, deadline: 9, peCount: 2 };
  const candidates = list.candidateStartTimes(request);
  const r = list.findAllocation(request, { policy: peWorstFit });
  if (r) list.addAllocation(r.start, r.end, r.pes);
  return { candidates, allocation: r, records: list.records() };
}
