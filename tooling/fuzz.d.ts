import type fc from "fast-check";

/** One public function called validly, for {@link assertOptionsFuzz} to mutate. */
export interface FuzzCase {
  /** `@sched/<package>/<function>`, for the messages. */
  readonly name: string;
  /** The names of the positional arguments, as the docs call them: `["state", "options"]`. */
  readonly params: readonly string[];
  /** A fresh valid argument list (called once per run: the run mutates it). */
  readonly args: () => unknown[];
  /** Calls the function (may return a promise). */
  readonly call: (...args: unknown[]) => unknown;
  /** Arguments never changed (trusted input, as documented: a trace from the engine). */
  readonly fixed?: readonly string[];
  /** Arguments replaced whole but not walked into (a previous result the function reads in part). */
  readonly opaque?: readonly string[];
  /** How deep to walk the arguments for places to mutate. @defaultValue 4 */
  readonly depth?: number;
  /**
   * Regular expression sources of the places whose objects must refuse an unknown key (option
   * objects); other objects (data records, license maps) may carry any key.
   * @defaultValue `[".*[oO]ptions"]`
   */
  readonly strictKeys?: readonly string[];
  /** True when a result for `value` at `place` is right (a legitimate value of another type). */
  readonly accepts?: (place: string, value: unknown, before: unknown) => boolean;
  /** True when `message` names `place` well enough (default: it contains the last key). */
  readonly names?: (place: string, message: string) => boolean;
  /** A call slower than this is reported on the console. @defaultValue 2000 */
  readonly slowMs?: number;
  /** Called with each accepted same-type value, to review by eye in a hunt. */
  readonly record?: (place: string, label: string) => void;
}

export interface Mutation {
  readonly kind: "replace" | "key" | "freeze";
  readonly path: (string | number)[];
  readonly label: string;
  apply(args: unknown[]): { before: unknown; value: unknown };
}

export const FUZZ_RUNS: number;
export class HostileGetterError extends Error {}
export const HOSTILE_VALUES: readonly { label: string; make: () => unknown }[];
export function placeName(params: readonly string[], path: readonly (string | number)[]): string;
export function allMutations(c: FuzzCase): Mutation[];
export function mutations(c: FuzzCase): fc.Arbitrary<Mutation>;
export function defectOf(c: FuzzCase, m: Mutation): Promise<string | undefined>;
export function assertOptionsFuzz(c: FuzzCase, options?: { numRuns?: number }): Promise<void>;
export function huntOptions(c: FuzzCase): Promise<string[]>;
export function fuzzOptions(c: FuzzCase): Promise<void>;
