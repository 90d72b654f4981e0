import { readFile } from "node:fs/promises";
import { join } from "node:path";

/**
 * What of `DIR/timing.csv` must not vary between executions of a sweep: its header and, per row,
 * every column but `mean` and `ci95` (the wall-clock numbers), in order.
 */
export async function timingKeys(dir: string): Promise<string[][]> {
  const [header, ...rows] = (await readFile(join(dir, "timing.csv"), "utf8"))
    .trimEnd()
    .split("\n")
    .map((l) => l.split(","));
  const columns = header as string[];
  const kept = columns.map((c, i) => (c === "mean" || c === "ci95" ? -1 : i)).filter((i) => i >= 0);
  return [columns, ...rows.map((r) => kept.map((i) => r[i] as string))];
}

/** The `mean` column of `DIR/timing.csv` (NaN where empty). */
export async function timingMeans(dir: string): Promise<number[]> {
  const [header, ...rows] = (await readFile(join(dir, "timing.csv"), "utf8"))
    .trimEnd()
    .split("\n")
    .map((l) => l.split(","));
  const j = (header as string[]).indexOf("mean");
  return rows.map((r) => (r[j] === "" ? Number.NaN : Number(r[j])));
}
