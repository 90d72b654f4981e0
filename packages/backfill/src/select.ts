import { InvalidInputError } from "@sched/core";
import {
  describeValue,
  type OptionKeys,
  optionKeys,
  requireKnownKeys,
  requireOneOf,
} from "@sched/errors";
import {
  BACKFILL_KEYS,
  type BackfillOptions,
  EDF_KEYS,
  type EdfOptions,
  FCFS_KEYS,
  type FcfsOptions,
  FLEXIBLE_KEYS,
  type FlexibleOptions,
  flexibleAsBackfill,
  PRESET_KEYS,
  type PresetOptions,
  type ResolvedBackfill,
  refusePresetDepth,
  resolveBackfill,
  resolveEdf,
  resolveFcfs,
} from "./options.js";
import { conservativeStrategy } from "./strategies/conservative.js";
import { earliestDeadline } from "./strategies/earliest-deadline.js";
import { reservationDepth } from "./strategies/reservation-depth.js";
import { singleConservative } from "./strategies/single-conservative.js";
import { singleDepth } from "./strategies/single-depth.js";
import { strictOrder } from "./strategies/strict-order.js";
import type { BackfillStrategy } from "./strategy.js";

/**
 * A policy of the package named with its options, as its factory takes them: `policy` is the
 * factory's name (`"backfill"` when absent).
 *
 * @example
 * { reservations: 1 }                       // backfill({ reservations: 1 }): EASY
 * { policy: "conservative", order: "sjf" }  // conservative({ order: "sjf" })
 * { policy: "flexible", priority, variant: "unrm" }
 * { policy: "edf", preemption: false }
 */
export type PolicyOptions =
  | ({ readonly policy?: "backfill" } & BackfillOptions)
  | ({ readonly policy: "easy" | "conservative" } & PresetOptions)
  | ({ readonly policy: "flexible" } & FlexibleOptions)
  | ({ readonly policy: "fcfs" } & FcfsOptions)
  | ({ readonly policy: "edf" } & EdfOptions);

/** The policies `options.policy` may name, `"backfill"` (the default) first. */
const POLICIES = ["backfill", "easy", "conservative", "flexible", "fcfs", "edf"] as const;
type PolicyName = (typeof POLICIES)[number];

/** `policy` beside a policy's own keys. */
type WithPolicy<T> = { readonly policy?: PolicyName } & T;

/**
 * The keys `backfillPass`'s options may have under each policy: `policy` and that policy's
 * options, so that a misspelt `policy` is named as the key meant, like any other option.
 */
const PASS_KEYS: Readonly<Record<PolicyName, OptionKeys>> = {
  backfill: optionKeys<WithPolicy<BackfillOptions>>({ policy: true, ...BACKFILL_KEYS.record }),
  easy: optionKeys<WithPolicy<PresetOptions>>({ policy: true, ...PRESET_KEYS.record }),
  conservative: optionKeys<WithPolicy<PresetOptions>>({ policy: true, ...PRESET_KEYS.record }),
  flexible: optionKeys<WithPolicy<FlexibleOptions>>({ policy: true, ...FLEXIBLE_KEYS.record }),
  fcfs: optionKeys<WithPolicy<FcfsOptions>>({ policy: true, ...FCFS_KEYS.record }),
  edf: optionKeys<WithPolicy<EdfOptions>>({ policy: true, ...EDF_KEYS.record }),
};

/** The strategy for resolved backfilling options: by depth and placement. Internal. */
export function backfillStrategy(opts: ResolvedBackfill): BackfillStrategy {
  if (opts.reservations === 0) return strictOrder(opts);
  const conservative = opts.reservations === Number.POSITIVE_INFINITY;
  if (opts.singleMachine) return conservative ? singleConservative(opts) : singleDepth(opts);
  return conservative ? conservativeStrategy(opts) : reservationDepth(opts);
}

/**
 * The strategy a policy and its options name, checked. Internal: the one place that maps
 * options to strategies, for the factories and for `backfillPass`.
 * @throws InvalidInputError naming the first invalid option (`where` names the caller).
 */
export function strategyFor(options: PolicyOptions | undefined, where: string): BackfillStrategy {
  if (
    options === null ||
    Array.isArray(options) ||
    (typeof options !== "object" && options !== undefined)
  ) {
    throw new InvalidInputError(
      where,
      "options",
      `is ${describeValue(options)}, expected an object`,
    );
  }
  const o = (options ?? {}) as PolicyOptions & { readonly policy?: string };
  const policy =
    o.policy === undefined ? "backfill" : requireOneOf(where, "options.policy", o.policy, POLICIES);
  if (policy === "easy" || policy === "conservative") {
    refusePresetDepth(
      where,
      `policy "${policy}"`,
      policy === "easy" ? "1" : "Infinity",
      o,
      'give reservations without policy (or with policy "backfill")',
    );
  }
  requireKnownKeys(where, "options", o, PASS_KEYS[policy]);
  const { policy: _, ...rest } = o;
  switch (policy) {
    case "backfill":
      return backfillStrategy(resolveBackfill(rest as BackfillOptions, where));
    case "easy":
      return backfillStrategy(
        resolveBackfill({ ...(rest as PresetOptions), reservations: 1 }, where),
      );
    case "conservative":
      return backfillStrategy(
        resolveBackfill(
          { ...(rest as PresetOptions), reservations: Number.POSITIVE_INFINITY },
          where,
        ),
      );
    case "flexible":
      return backfillStrategy(
        resolveBackfill(flexibleAsBackfill(rest as FlexibleOptions, where), where),
      );
    case "fcfs":
      return strictOrder(resolveFcfs(rest as FcfsOptions, where));
    case "edf":
      return earliestDeadline(resolveEdf(rest as EdfOptions, where));
  }
}
