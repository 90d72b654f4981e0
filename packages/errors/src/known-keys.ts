import { InvalidInputError } from "./errors.js";
import { describeValue } from "./validate.js";

/**
 * The keys an options object may have, made by {@link optionKeys} from a record naming every key
 * of the options interface, so the list cannot drift from the interface: adding an option to the
 * interface and not to the record is a type error.
 */
export interface OptionKeys<T = unknown> {
  /** The known keys, in the order given. */
  readonly keys: readonly string[];
  /** The record they were made from: spread it into the record of a type that extends `T`. */
  readonly record: KeyRecord<T>;
}

/** Every key of `T`, each mapped to `true`: what {@link optionKeys} takes. */
export type KeyRecord<T> = { readonly [K in keyof T]-?: true };

/**
 * The known keys of an options type `T`, from a record naming each key of `T` once. Pass `T`
 * explicitly: the record must then list every key of `T` (a missing one is a type error) and
 * nothing else (an extra one is an excess-property error).
 *
 * @example
 * ```ts
 * interface PassOptions { reservations?: number; order?: "fcfs" | "sjf" }
 * const PASS_KEYS = optionKeys<PassOptions>({ reservations: true, order: true });
 * // a type that extends PassOptions: its own keys, and PassOptions' by spreading
 * const MORE_KEYS = optionKeys<PassOptions & { name?: string }>({ ...PASS_KEYS.record, name: true });
 * ```
 */
export function optionKeys<T>(record: KeyRecord<NoInfer<T>>): OptionKeys<T> {
  const copy = Object.freeze({ ...record });
  return Object.freeze({ keys: Object.freeze(Object.keys(copy)), record: copy });
}

/**
 * `value` when it is `undefined` (no options given) or an object (not `null`, not an array) whose
 * own enumerable string keys are all in `known`. An unknown key whose value is `undefined` is
 * accepted: it cannot change a result (an absent option and one set to `undefined` both mean the
 * default), and `{ ...defaults, seed: undefined }` is a common way to clear a key.
 *
 * Cost: one walk of the object's own keys, each looked up in `known` (tens of nanoseconds for a
 * few keys), so per-event passes check at every call. Remembering checked objects in a `WeakSet`
 * was measured slower: about 300 ns per fresh object against 60 ns for the walk.
 *
 * @throws InvalidInputError `<where>: <field> is <value>, expected an object` for `null`, an array
 * or a primitive; `<where>: <field>.<key> is not a known key (did you mean \`<near>\`?), expected one
 * of <keys>` for an unknown key, with a suggestion when one known key differs only in case, by at
 * most two edits (a third of a long key), or shares a long prefix.
 * @example
 * ```ts
 * requireKnownKeys("@sched/backfill/backfillPass", "options", { reservation: 0 }, PASS_KEYS);
 * // throws: options.reservation is not a known key (did you mean `reservations`?), expected one of reservations, order
 * ```
 */
export function requireKnownKeys<T extends object>(
  where: string,
  field: string,
  value: T | undefined,
  known: OptionKeys,
): T | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new InvalidInputError(where, field, `is ${describeValue(value)}, expected an object`);
  }
  // for-in rather than Object.keys (no key array: this runs at every call of a per-event pass),
  // one keyed load per key as in refuseMisspeltKeys (no inherited property of the record is
  // `true`); an inherited key is not the caller's, as Object.keys would not list it
  const record = known.record as Readonly<Record<string, unknown>>;
  for (const key in value) {
    if (record[key] === true || !Object.hasOwn(value, key)) continue;
    if ((value as Record<string, unknown>)[key] === undefined) continue;
    throw unknownKey(where, field, key, known.keys);
  }
  return value;
}

function unknownKey(
  where: string,
  field: string,
  key: string,
  known: readonly string[],
): InvalidInputError {
  const near = nearestKey(key, known);
  const hint = near === undefined ? "" : ` (did you mean \`${near}\`?)`;
  const expected = known.length === 0 ? "expected no keys" : `expected one of ${known.join(", ")}`;
  return new InvalidInputError(where, `${field}.${key}`, `is not a known key${hint}, ${expected}`);
}

/**
 * The known key `key` most likely misspells, or `undefined`: one equal ignoring case, else the
 * nearest by edit distance within max(2, a third of the longer length), else one sharing a prefix
 * of at least 4 characters and half the shorter length. Ties go to the first in `known`.
 */
export function nearestKey(key: string, known: readonly string[]): string | undefined {
  const lower = key.toLowerCase();
  const exact = known.find((k) => k.toLowerCase() === lower);
  if (exact !== undefined) return exact;
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const k of known) {
    const d = editDistance(lower, k.toLowerCase());
    const limit = Math.max(2, Math.floor(Math.max(k.length, key.length) / 3));
    if (d <= limit && d < bestDistance) {
      best = k;
      bestDistance = d;
    }
  }
  if (best !== undefined) return best;
  for (const k of known) {
    const p = commonPrefix(lower, k.toLowerCase());
    if (p >= 4 && p * 2 >= Math.min(k.length, key.length)) return k;
  }
  return undefined;
}

/** Levenshtein distance (insertions, deletions, substitutions), O(|a|·|b|). */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(
        (prev[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (prev[j - 1] as number) + cost,
      );
    }
    prev = row;
  }
  return prev[b.length] as number;
}

function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/**
 * What {@link refuseMisspeltKeys} learnt of the keys it saw with one key set: `accepted` maps to
 * `true` the known keys and the caller's own keys that are a near miss of no known key (so a
 * record's keys usually cost one lookup each); `nearMisses` lists, for the other keys seen, the
 * known keys each is a near miss of. Bounded so that records with ever-new key names cannot
 * grow it without limit (past the bound, a key is compared again at each sight).
 */
interface KeyCache {
  readonly accepted: Record<string, unknown>;
  readonly nearMisses: Map<string, readonly string[]>;
  learnt: number;
}
const keyCaches = new WeakMap<OptionKeys, KeyCache>();
const KEY_CACHE_LIMIT = 1024;
// A pass checks its records one after the other with one key set: the last one's cache is kept
// at hand, so the WeakMap is read once per key set change, not once per record.
let lastKnown: OptionKeys | undefined;
let lastCache: KeyCache | undefined;

function cacheOf(known: OptionKeys): KeyCache {
  if (known === lastKnown && lastCache !== undefined) return lastCache;
  let cache = keyCaches.get(known);
  if (cache === undefined) {
    cache = { accepted: { ...known.record }, nearMisses: new Map(), learnt: 0 };
    keyCaches.set(known, cache);
  }
  lastKnown = known;
  lastCache = cache;
  return cache;
}

/**
 * Throws when `record` (a caller's record: a queued job, a reservation, a request) carries a key
 * that is not one of its fields but a near miss of a field it lacks, such as `deadlin` on a job
 * without `deadline`: that value would otherwise be ignored without a word. Every other key is
 * allowed, so records may carry the caller's own fields (`user`, `state`, `partition`); so is a
 * near miss whose value is `undefined` (it cannot change a result) and one of a field the record
 * has (`{ deadline: 4, deadlines: [...] }` is the caller's own data). Checks nothing else: the
 * fields' values are the caller's to check; `record` must be an object.
 *
 * A key is a near miss of a field when, ignoring case, they are equal or one edit apart (an
 * insertion, deletion, substitution or swap of two adjacent characters: `dedline`, `redy`,
 * `Deadline`, `deadlien`), or two edits apart when both have at least 8 characters
 * (`maxProcesors`). Two edits between shorter keys would refuse ordinary words a caller may use:
 * `state` is two edits from `start`, `nodes` from `cores`, `started` from `start`.
 *
 * Cost: one walk of the record's keys, one lookup each; the first sight of a key that is not a
 * field compares it with each field (O(|key| × |field|) each) and remembers the answer for the
 * key set (up to 1,024 such keys), so later records pay one lookup for it too.
 *
 * @throws InvalidInputError `<where>: <field>.<key> is not a field (did you mean \`<known>\`?): …`.
 * @example
 * ```ts
 * const JOB_KEYS = optionKeys<QueuedJob>({ id: true, cores: true, estimate: true, deadline: true });
 * refuseMisspeltKeys(W, "state.queue[0]", { id: 3, cores: 2, estimate: 5, user: "ana" }, JOB_KEYS); // fine
 * refuseMisspeltKeys(W, "state.queue[0]", { id: 3, cores: 2, estimate: 5, deadlin: 4 }, JOB_KEYS);
 * // throws: state.queue[0].deadlin is not a field (did you mean `deadline`?): ...
 * ```
 */
export function refuseMisspeltKeys(
  where: string,
  field: string,
  record: object,
  known: OptionKeys,
): void {
  // One keyed load per key: `accepted` maps to `true` the known keys and the caller's own keys
  // already found far from every field; no inherited property (`constructor`) is `true`.
  // Measured faster than Object.hasOwn, a Set or Object.keys (10 to 100% slower).
  const accepted = cacheOf(known).accepted;
  for (const key in record) {
    if (accepted[key] !== true) refuseKey(where, field, record, key, known);
  }
}

/** Throws when `key` of `record`, not a field, is a near miss of a field the record lacks. */
function refuseKey(
  where: string,
  field: string,
  record: object,
  key: string,
  known: OptionKeys,
): void {
  if (!Object.hasOwn(record, key)) return;
  const values = record as Readonly<Record<string, unknown>>;
  if (values[key] === undefined) return;
  const cache = cacheOf(known);
  let nearMisses = cache.nearMisses.get(key);
  if (nearMisses === undefined) {
    nearMisses = known.keys.filter((k) => isNearMiss(key, k));
    if (cache.learnt < KEY_CACHE_LIMIT) {
      cache.learnt++;
      if (nearMisses.length === 0) cache.accepted[key] = true;
      else cache.nearMisses.set(key, nearMisses);
    }
  }
  for (const near of nearMisses) {
    if (values[near] !== undefined) continue;
    throw new InvalidInputError(
      where,
      `${field}.${key}`,
      `is not a field (did you mean \`${near}\`?): a record may carry fields of its own, which are ignored, but not a near miss of a field it lacks`,
    );
  }
}

/**
 * Whether `key` is a near miss of the field `name`: equal ignoring case, or within one edit
 * (two when both have at least 8 characters), an edit being an insertion, deletion,
 * substitution or adjacent swap, ignoring case.
 */
export function isNearMiss(key: string, name: string): boolean {
  const a = key.toLowerCase();
  const b = name.toLowerCase();
  const limit = a.length >= 8 && b.length >= 8 ? 2 : 1;
  if (Math.abs(a.length - b.length) > limit) return false;
  return swapEditDistance(a, b) <= limit;
}

/**
 * The optimal string alignment distance: Levenshtein's edits plus the swap of two adjacent
 * characters, each counting 1 (a swap is two edits in {@link editDistance}).
 */
export function swapEditDistance(a: string, b: string): number {
  let before: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(
        (prev[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (prev[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d = Math.min(d, (before[j - 2] as number) + 1);
      }
      row[j] = d;
    }
    before = prev;
    prev = row;
  }
  return prev[b.length] as number;
}
