import { suggest } from "../args.js";
import { jsonParamValue, type ParamValue } from "../experiments/parameters.js";
import { EXPERIMENTS } from "../experiments/registry.js";
import { experimentParameter } from "../experiments/resolve.js";
import { UsageError } from "../usage-error.js";
import { planFromExperiment } from "./drive.js";
import { METRICS } from "./metrics.js";
import type { SweepPlan } from "./plan.js";

/** The keys of an experiment file that names a registry experiment. */
export const REGISTRY_FILE_KEYS: readonly string[] = [
  "$schema",
  "name",
  "title",
  "description",
  "experiment",
  "quick",
  "set",
  "grid",
  "seeds",
  "schedulers",
  "metrics",
];

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const isObject = (v: Json | undefined): v is { [key: string]: Json } =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The plan of an experiment file that names a registry experiment instead of a workload:
 *
 * ```json
 * { "name": "no-aging", "experiment": "convergent", "quick": true,
 *   "set": { "antiAging": 0 }, "grid": { "interArrival": [4, 8] }, "seeds": 3 }
 * ```
 *
 * `set` and `grid` act as `reproduce --set` and `--vary` do (a grid entry on a default axis
 * replaces its values, any other adds an axis); `schedulers` keeps only the listed labels, in
 * that order; `seeds` is a count or a list; `metrics` defaults to the experiment's.
 *
 * @throws UsageError naming the file, the key and what was expected.
 */
export function registryPlanFromDocument(
  doc: { [key: string]: Json },
  file: string,
  name: string,
): SweepPlan {
  const fail = (key: string, expected: string, got?: Json): never => {
    const shown =
      got === undefined ? "" : `, got ${(JSON.stringify(got) ?? "undefined").slice(0, 60)}`;
    throw new UsageError(`sweep: ${file}: ${key}: expected ${expected}${shown}`, "sweep");
  };
  for (const k of Object.keys(doc)) {
    if (!REGISTRY_FILE_KEYS.includes(k)) {
      const hint = suggest(k, REGISTRY_FILE_KEYS);
      throw new UsageError(
        `sweep: ${file}: ${k}: unknown key with "experiment"${hint ? ` (did you mean ${hint}?)` : ""}; expected one of ${REGISTRY_FILE_KEYS.join(", ")}`,
        "sweep",
      );
    }
  }
  const names = EXPERIMENTS.map((e) => e.name);
  const experiment = EXPERIMENTS.find((e) => e.name === doc.experiment);
  if (experiment === undefined) {
    const hint = typeof doc.experiment === "string" ? suggest(doc.experiment, names) : undefined;
    return fail(
      "experiment",
      `one of ${names.join(", ")}${hint ? ` (did you mean ${hint}?)` : ""}`,
      doc.experiment,
    );
  }
  if (doc.quick !== undefined && typeof doc.quick !== "boolean") {
    fail("quick", "true or false", doc.quick);
  }
  const quick = doc.quick === true;
  const where = (key: string) => `sweep: ${file}: ${key}`;
  const set = new Map<string, ParamValue>();
  if (doc.set !== undefined) {
    if (!isObject(doc.set))
      fail("set", 'an object of parameter -> value, e.g. {"antiAging": 0}', doc.set);
    for (const [k, v] of Object.entries(doc.set as { [key: string]: Json })) {
      const spec = experimentParameter(experiment, quick, k, where(`set.${k}`), "sweep");
      set.set(k, jsonParamValue(spec, v, where(`set.${k}`), "sweep"));
    }
  }
  const vary = new Map<string, readonly ParamValue[]>();
  if (doc.grid !== undefined) {
    if (!isObject(doc.grid)) {
      fail("grid", 'an object of parameter -> values, e.g. {"antiAging": [0, 0.02]}', doc.grid);
    }
    for (const [k, list] of Object.entries(doc.grid as { [key: string]: Json })) {
      const spec = experimentParameter(experiment, quick, k, where(`grid.${k}`), "sweep");
      if (!Array.isArray(list) || list.length === 0) fail(`grid.${k}`, "a non-empty array", list);
      const values = (list as Json[]).map((v, i) =>
        jsonParamValue(spec, v, where(`grid.${k}[${i}]`), "sweep"),
      );
      values.forEach((v, i) => {
        if (values.indexOf(v) < i) {
          fail(
            `grid.${k}[${i}]`,
            `a value not given before; it is grid.${k}[${values.indexOf(v)}] too`,
            v,
          );
        }
      });
      vary.set(k, values);
    }
  }
  let seeds: number | undefined;
  let seedList: number[] | undefined;
  if (typeof doc.seeds === "number") {
    if (!Number.isSafeInteger(doc.seeds) || doc.seeds < 1 || doc.seeds > 10_000) {
      fail("seeds", "an integer in 1..10000 (seeds 1..N)", doc.seeds);
    }
    seeds = doc.seeds;
  } else if (doc.seeds !== undefined) {
    if (!Array.isArray(doc.seeds) || doc.seeds.length === 0 || doc.seeds.length > 10_000) {
      fail(
        "seeds",
        "a count N (seeds 1..N) or a non-empty array of at most 10000 integers",
        doc.seeds,
      );
    }
    seedList = (doc.seeds as Json[]).map((s, i) => {
      if (typeof s !== "number" || !Number.isSafeInteger(s) || s < 0) {
        fail(`seeds[${i}]`, "an integer >= 0", s);
      }
      return s as number;
    });
    if (new Set(seedList).size !== seedList.length) fail("seeds", "distinct seeds", doc.seeds);
  }
  let schedulers: string[] | undefined;
  if (doc.schedulers !== undefined) {
    if (!Array.isArray(doc.schedulers) || doc.schedulers.length === 0) {
      fail("schedulers", "a non-empty array of the experiment's scheduler labels", doc.schedulers);
    }
    schedulers = (doc.schedulers as Json[]).map((s, i) => {
      if (typeof s !== "string") fail(`schedulers[${i}]`, "a scheduler label", s);
      return s as string;
    });
    if (new Set(schedulers).size !== schedulers.length) {
      fail("schedulers", "distinct labels", doc.schedulers);
    }
  }
  let metrics: string[] | undefined;
  if (doc.metrics !== undefined) {
    const known = [...experiment.metrics.map((m) => m.key), ...METRICS.map((m) => m.key)];
    if (!Array.isArray(doc.metrics) || doc.metrics.length === 0) {
      fail("metrics", `a non-empty array of ${known.join(", ")}`, doc.metrics);
    }
    metrics = (doc.metrics as Json[]).map((m, i) => {
      if (typeof m !== "string" || !known.includes(m)) {
        const hint = typeof m === "string" ? suggest(m, known) : undefined;
        fail(
          `metrics[${i}]`,
          `one of ${known.join(", ")}${hint ? ` (did you mean ${hint}?)` : ""}`,
          m,
        );
      }
      return m as string;
    });
    metrics.forEach((m, i) => {
      if (metrics?.indexOf(m) !== i) {
        fail(
          `metrics[${i}]`,
          `a metric not given before; ${m} is metrics[${metrics?.indexOf(m)}] too`,
        );
      }
    });
  }
  const text = (key: "title" | "description"): string | undefined => {
    const v = doc[key];
    if (v === undefined) return undefined;
    if (typeof v !== "string") fail(key, "a string", v);
    return v as string;
  };
  const title = text("title");
  const description = text("description");
  // what the experiment itself refuses (a scheduler it does not have, a point its check
  // rejects) is said for this file
  return namingFile(file, () =>
    planFromExperiment(experiment, {
      quick,
      ...(seeds === undefined ? {} : { seeds }),
      ...(seedList === undefined ? {} : { seedList }),
      request: { set, vary },
      ...(schedulers === undefined ? {} : { schedulers }),
      ...(metrics === undefined ? {} : { metrics }),
      name,
      ...(title === undefined ? {} : { title }),
      ...(description === undefined ? {} : { description }),
      command: "sweep",
    }),
  );
}

function namingFile<T>(file: string, f: () => T): T {
  try {
    return f();
  } catch (error) {
    if (error instanceof UsageError && !error.message.includes(file)) {
      throw new UsageError(`sweep: ${file}: ${error.message.replace(/^sweep: /, "")}`, "sweep");
    }
    throw error;
  }
}
