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
  for (const key of Object.keys(value)) {
    if (known.keys.includes(key)) continue;
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
