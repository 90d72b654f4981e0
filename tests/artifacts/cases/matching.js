// @ts-check
import { imfs, mfs, mis } from "@sched/matching";

/** The README's MFS, MIS and IMFS plans. */
export async function compute() {
  const weights = Float64Array.of(9, 8, 0, 8, 0, 0, 0, 7, 1);
  const plan = mfs({ rows: 3, cols: 3, weights });
  const greedy = mis({ rows: 3, cols: 3, weights });
  const next = imfs(
    { rows: 3, cols: 3, weights: Float64Array.of(9, 8, 0, 0, 7, 1, 0, 0, 5) },
    plan,
    {
      rowOrigin: [0, 2, -1],
    },
  );
  /** @param {{ rowToCol: ArrayLike<number>, size: number, weight: number }} p */
  const plain = (p) => ({ rowToCol: Array.from(p.rowToCol), size: p.size, weight: p.weight });
  return { mfs: plain(plan), mis: plain(greedy), imfs: plain(next) };
}
