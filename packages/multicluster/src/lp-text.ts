/** A number as CPLEX LP text: integers as they are, others with 15 significant digits. */
export function fmt(x: number): string {
  return Number.isInteger(x) ? String(x) : x.toPrecision(15);
}

/** The term `coef name` of a row, with its sign (`""` for a zero coefficient). */
export function term(coef: number, name: string): string {
  if (coef === 0) return "";
  if (coef === 1) return ` + ${name}`;
  if (coef === -1) return ` - ${name}`;
  return coef < 0 ? ` - ${fmt(-coef)} ${name}` : ` + ${fmt(coef)} ${name}`;
}

/** Sparse values of some columns, as HiGHS' `setSolution` takes them. */
export interface SparseValues {
  readonly indices: Int32Array;
  readonly values: Float64Array;
}

/** Collects `name = value` pairs into {@link SparseValues}, skipping names the model lacks. */
export function sparseValues(
  colIndex: ReadonlyMap<string, number>,
  pairs: Iterable<readonly [string, number]>,
): SparseValues {
  const idx: number[] = [];
  const val: number[] = [];
  for (const [name, v] of pairs) {
    const i = colIndex.get(name);
    if (i !== undefined) {
      idx.push(i);
      val.push(v);
    }
  }
  return { indices: Int32Array.from(idx), values: Float64Array.from(val) };
}

/**
 * The LP-format text of a makespan model: minimize `cmax` subject to `rows`, with `bounds`, the
 * `binaries` and the general integers (`cmax` always among them).
 */
export function lpText(model: {
  readonly rows: readonly string[];
  readonly bounds: readonly string[];
  readonly binaries: readonly string[];
  readonly generals: readonly string[];
}): string {
  return [
    "Minimize",
    " obj: cmax",
    "Subject To",
    ...(model.rows.length > 0 ? model.rows : [" c0: cmax >= 0"]),
    "Bounds",
    ...model.bounds,
    "Binary",
    ...model.binaries.map((b) => ` ${b}`),
    "General",
    " cmax",
    ...model.generals.map((g) => ` ${g}`),
    "End",
    "",
  ].join("\n");
}
