// @ts-check
// Fuzzing of library options: from one valid call of a public function, each run changes one
// place of its arguments (an option, a nested field, an array element) to a hostile value (wrong
// type, NaN, ±Infinity, -0, huge, fractional, empty or sparse array, null, an unknown key, a
// `__proto__` or `constructor` key, a getter or proxy that throws), or freezes every argument,
// and checks what the call did: a result, or a typed @sched error whose message names the place.
// Never a raw JavaScript error, never a silently accepted value of the wrong type or NaN.
import { appendFileSync } from "node:fs";
import fc from "fast-check";

/** Runs per property: small in the test suite, `FUZZ_RUNS=n` for a long local hunt. */
export const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 60);

/** What a hostile getter or proxy throws: the caller's own error, which must pass through. */
export class HostileGetterError extends Error {
  constructor() {
    super("hostile getter");
    this.name = "HostileGetterError";
  }
}

const throwingGetter = () => {
  const o = {};
  Object.defineProperty(o, "x", {
    enumerable: true,
    get() {
      throw new HostileGetterError();
    },
  });
  return o;
};
const throwingProxy = () =>
  new Proxy(
    {},
    {
      get() {
        throw new HostileGetterError();
      },
      ownKeys() {
        throw new HostileGetterError();
      },
      has() {
        throw new HostileGetterError();
      },
      getOwnPropertyDescriptor() {
        throw new HostileGetterError();
      },
    },
  );

/**
 * The hostile values, each made fresh by a function (objects must not be shared between runs).
 * @type {readonly { label: string, make: () => unknown }[]}
 */
export const HOSTILE_VALUES = [
  { label: "NaN", make: () => Number.NaN },
  { label: "Infinity", make: () => Number.POSITIVE_INFINITY },
  { label: "-Infinity", make: () => Number.NEGATIVE_INFINITY },
  { label: "-0", make: () => -0 },
  { label: "0", make: () => 0 },
  { label: "-1", make: () => -1 },
  { label: "0.5", make: () => 0.5 },
  { label: "1.5", make: () => 1.5 },
  { label: "1e308", make: () => 1e308 },
  { label: "2**53+1", make: () => 2 ** 53 + 1 },
  { label: "1e-300", make: () => 1e-300 },
  { label: '""', make: () => "" },
  { label: '"5"', make: () => "5" },
  { label: '"abc"', make: () => "abc" },
  { label: "null", make: () => null },
  { label: "undefined", make: () => undefined },
  { label: "true", make: () => true },
  { label: "1n", make: () => 1n },
  { label: "Symbol()", make: () => Symbol("hostile") },
  { label: "function", make: () => () => 1 },
  { label: "[]", make: () => [] },
  // biome-ignore lint/suspicious/noSparseArray: a sparse array is the hostile value
  { label: "sparse [ , 1]", make: () => [, 1] },
  { label: "[NaN]", make: () => [Number.NaN] },
  { label: "{}", make: () => ({}) },
  { label: "frozen {}", make: () => Object.freeze({}) },
  { label: "throwing getter", make: throwingGetter },
  { label: "throwing proxy", make: throwingProxy },
];

/**
 * Every place in `value`: [] for the value itself, then each own enumerable key of a plain object
 * and the first three elements of an array, down to `depth` levels.
 * @param {unknown} value
 * @param {number} depth
 * @returns {(string | number)[][]}
 */
function places(value, depth, shared) {
  /** @type {(string | number)[][]} */
  const out = [[]];
  if (depth === 0 || value === null || typeof value !== "object") return out;
  if (shared.has(value)) return out; // a module's singleton (a policy object): never changed
  if (ArrayBuffer.isView(value)) return out;
  if (Array.isArray(value)) {
    for (let i = 0; i < Math.min(3, value.length); i++) {
      for (const p of places(value[i], depth - 1, shared)) out.push([i, ...p]);
    }
    return out;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return out;
  for (const key of Object.keys(value)) {
    for (const p of places(
      /** @type {Record<string, unknown>} */ (value)[key],
      depth - 1,
      shared,
    )) {
      out.push([key, ...p]);
    }
  }
  return out;
}

/**
 * A place written as the caller reads it: `options.reservations[2].cores`.
 * @param {readonly string[]} params
 * @param {readonly (string | number)[]} path
 */
export function placeName(params, path) {
  let s = params[/** @type {number} */ (path[0])] ?? `arguments[${path[0]}]`;
  for (const k of path.slice(1)) s += typeof k === "number" ? `[${k}]` : `.${k}`;
  return s;
}

/**
 * @param {unknown} root
 * @param {readonly (string | number)[]} path
 */
function get(root, path) {
  let v = root;
  for (const k of path) v = /** @type {any} */ (v)[k];
  return v;
}

/** @param {unknown} v */
function deepFreeze(v, shared) {
  if (v === null || typeof v !== "object" || Object.isFrozen(v) || ArrayBuffer.isView(v)) return v;
  if (shared.has(v)) return v;
  if (Object.getPrototypeOf(v) !== Object.prototype && !Array.isArray(v)) return v;
  Object.freeze(v);
  for (const k of Object.keys(v)) deepFreeze(/** @type {any} */ (v)[k], shared);
  return v;
}

/**
 * Every object reachable from `value` (own enumerable keys, array elements). Objects found again
 * in a second call's arguments are shared between calls (a package's exported policy objects):
 * the fuzzer must neither change nor freeze them, or one run would corrupt the next.
 * @param {unknown} value
 * @param {Set<unknown>} [into]
 */
function reachable(value, into = new Set()) {
  if (value === null || typeof value !== "object" || into.has(value)) return into;
  into.add(value);
  if (ArrayBuffer.isView(value)) return into;
  for (const k of Object.keys(value)) reachable(/** @type {any} */ (value)[k], into);
  return into;
}

/** @param {unknown} v */
function kindOf(v) {
  if (v === null) return "null";
  if (Array.isArray(v) || ArrayBuffer.isView(v)) return "array";
  return typeof v;
}

/**
 * @typedef {{ kind: "replace" | "key" | "freeze", path: (string | number)[], label: string, apply(args: unknown[]): { before: unknown, value: unknown } }} Mutation
 */

/**
 * Every mutation of one call: each place times each hostile value, an unknown, `__proto__` and
 * `constructor` key on each plain object, and every argument deep-frozen.
 * @param {import("./fuzz.js").FuzzCase} c
 * @returns {Mutation[]}
 */
export function allMutations(c) {
  const base = c.args();
  const shared = reachable(c.args());
  const opaque = new Set(c.opaque ?? []);
  const all = places(base, c.depth ?? 4, shared).filter((p) => {
    const param = c.params[/** @type {number} */ (p[0])] ?? "";
    if (p.length === 0 || (c.fixed ?? []).includes(param)) return false;
    return !(p.length > 1 && opaque.has(param));
  });
  /** @type {Mutation[]} */
  const out = [];
  for (const path of all) {
    for (const hostile of HOSTILE_VALUES) {
      out.push({
        kind: "replace",
        path,
        label: hostile.label,
        apply(args) {
          const value = hostile.make();
          const parent = /** @type {any} */ (get(args, path.slice(0, -1)));
          parent[/** @type {any} */ (path[path.length - 1])] = value;
          return { before: get(base, path), value };
        },
      });
    }
    const v = get(base, path);
    const plain =
      !shared.has(v) &&
      v !== null &&
      typeof v === "object" &&
      !Array.isArray(v) &&
      !ArrayBuffer.isView(v) &&
      Object.getPrototypeOf(v) === Object.prototype;
    if (!plain) continue;
    for (const key of ["bogusOption", "__proto__", "constructor"]) {
      out.push({
        kind: "key",
        path: [...path, key],
        label: `unknown key ${key}`,
        apply(args) {
          Object.defineProperty(/** @type {object} */ (get(args, path)), key, {
            value: { hostile: 1 },
            enumerable: true,
            writable: true,
            configurable: true,
          });
          return { before: undefined, value: { hostile: 1 } };
        },
      });
    }
  }
  out.push({
    kind: "freeze",
    path: [],
    label: "every argument deep-frozen",
    apply(args) {
      deepFreeze(args, shared);
      return { before: undefined, value: undefined };
    },
  });
  return out;
}

/**
 * The mutations of one call as an arbitrary (see {@link allMutations}).
 * @param {import("./fuzz.js").FuzzCase} c
 */
export function mutations(c) {
  return fc.constantFrom(...allMutations(c));
}

/** @param {unknown} v */
function keysOf(v) {
  return v !== null && typeof v === "object" && !ArrayBuffer.isView(v) && !Array.isArray(v)
    ? Object.keys(v)
    : [];
}

/** @param {unknown} e */
function isSchedError(e) {
  if (typeof e !== "object" || e === null) return false;
  const names = /** @type {any} */ (e)[Symbol.for("@sched/errors/classes")];
  return Array.isArray(names) && names.includes("SchedError");
}

/**
 * Runs one mutation of a call; returns the defect it shows, or `undefined`.
 * @param {import("./fuzz.js").FuzzCase} c
 * @param {Mutation} m
 * @returns {Promise<string | undefined>}
 */
export async function defectOf(c, m) {
  const args = c.args();
  /** @type {{ before: unknown, value: unknown }} */
  let applied;
  try {
    applied = m.apply(args);
  } catch {
    return undefined; // a frozen part of the arguments (a platform): nothing to mutate there
  }
  const { before, value } = applied;
  const place = m.kind === "freeze" ? "(frozen arguments)" : placeName(c.params, m.path);
  const what = `${c.name}: ${place} = ${m.label}`;
  // FUZZ_TRACE=file: each call is written there before it runs, so a hang names its input.
  if (process.env.FUZZ_TRACE) appendFileSync(process.env.FUZZ_TRACE, `${what}\n`);
  const started = performance.now();
  let result;
  try {
    result = c.call(...args);
    if (result !== null && typeof result === "object" && "then" in result) result = await result;
  } catch (e) {
    if (e instanceof HostileGetterError) return undefined;
    if (!isSchedError(e)) {
      return `${what}: raw ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`;
    }
    const message = /** @type {Error} */ (e).message;
    if (m.kind === "freeze") return `${what}: ${message}`;
    const named = m.path.filter((k) => typeof k === "string");
    const last = named[named.length - 1] ?? c.params[/** @type {number} */ (m.path[0])];
    // The place's own key, or (for a whole object replaced, or two fields that disagree) a key
    // of the object that was there, or of the object that holds it.
    const near = [String(last), ...keysOf(before), ...keysOf(get(c.args(), m.path.slice(0, -1)))];
    if (c.names?.(place, message) ?? near.some((k) => message.includes(k))) return undefined;
    return `${what}: the message does not name ${last}: ${message}`;
  } finally {
    const ms = performance.now() - started;
    if (ms > (c.slowMs ?? 2000)) console.warn(`fuzz: ${what} took ${ms.toFixed(0)} ms`);
  }
  if (m.kind === "freeze") return undefined;
  if (c.accepts?.(place, value, before)) return undefined;
  if (m.kind === "key") {
    const owner = placeName(c.params, m.path.slice(0, -1));
    const strict = c.strictKeys ?? [".*[oO]ptions"];
    return strict.some((p) => new RegExp(`^${p}$`).test(owner))
      ? `${what}: accepted an unknown key`
      : undefined;
  }
  const was = kindOf(before);
  const now = kindOf(value);
  if (was === "number" && Number.isNaN(value)) return `${what}: accepted NaN`;
  // null for a field means "absent" throughout the packages (`??` fills the default): reported
  // apart by the hunt (FUZZ_NULL=1), not a failure.
  if (value === undefined || (value === null && !process.env.FUZZ_NULL)) return undefined;
  if (was !== now) {
    return `${what}: accepted ${now} where ${was} was given`;
  }
  if (was === "array" && now === "array" && Array.isArray(value)) {
    if (value.length === 2 && !(0 in value)) return `${what}: accepted a sparse array`;
    if (value.length === 1 && Number.isNaN(value[0])) return `${what}: accepted [NaN]`;
  }
  if (c.record !== undefined) c.record(place, m.label);
  return undefined;
}

/**
 * fast-check asserts that no mutation of `c` shows a defect.
 * @param {import("./fuzz.js").FuzzCase} c
 * @param {{ numRuns?: number }} [options]
 */
export async function assertOptionsFuzz(c, options = {}) {
  await fc.assert(
    fc.asyncProperty(mutations(c), async (m) => {
      const defect = await defectOf(c, m);
      if (defect !== undefined) throw new Error(defect);
    }),
    { numRuns: options.numRuns ?? FUZZ_RUNS },
  );
}

/**
 * Every defect of `c`, over every mutation (a hunt: all of them, not the first).
 * @param {import("./fuzz.js").FuzzCase} c
 * @returns {Promise<string[]>}
 */
export async function huntOptions(c) {
  /** @type {string[]} */
  const found = [];
  for (const m of allMutations(c)) {
    const d = await defectOf(c, m);
    if (d !== undefined) found.push(d);
  }
  return found;
}

/**
 * The check a test suite runs: {@link assertOptionsFuzz} (`FUZZ_RUNS` sampled mutations), or with
 * `FUZZ_EXHAUSTIVE=1` every mutation, failing with the list of every defect found.
 * @param {import("./fuzz.js").FuzzCase} c
 */
export async function fuzzOptions(c) {
  const base = c.call(...c.args());
  if (base !== null && typeof base === "object" && "then" in base) await base;
  if (process.env.FUZZ_EXHAUSTIVE) {
    const defects = await huntOptions(c);
    if (defects.length > 0) throw new Error(`${defects.length} defects:\n${defects.join("\n")}`);
  } else {
    await assertOptionsFuzz(c);
  }
}
