import { requireKnownKeys, requireOneOf } from "@sched/errors";
import { type ConvergentScheduler, convergent } from "./convergent.js";
import { type ConvergentOptions, VARIANT_KEYS } from "./options.js";

/** The paper's four variants. */
export type ConvergentVariant = "CS_ip" | "CS_inp" | "CS_nip" | "CS_ninp";

/** The four variants in the paper's order. */
export const CONVERGENT_VARIANTS: readonly ConvergentVariant[] = Object.freeze([
  "CS_ip",
  "CS_inp",
  "CS_nip",
  "CS_ninp",
]);

const PRESETS: Readonly<Record<ConvergentVariant, ConvergentOptions>> = {
  CS_ip: { matcher: "imfs", preemption: true },
  CS_inp: { matcher: "imfs", preemption: false },
  CS_nip: { matcher: "mfs", preemption: true },
  CS_ninp: { matcher: "mfs", preemption: false },
};

/**
 * One of the paper's four variants: `CS_ip` (incremental matching, preemption), `CS_inp`
 * (incremental, no preemption: overhead 800), `CS_nip` (matching rebuilt each plan,
 * preemption), `CS_ninp` (rebuilt, no preemption). Further options (constants, extra
 * heuristics) are merged in; the variant's matcher and preemption win.
 *
 * @throws InvalidInputError on an unknown variant or invalid options.
 * @example
 * ```ts
 * simulate(jobs, platform, convergentVariant("CS_inp")).scheduler; // "CS_inp"
 * ```
 */
export function convergentVariant(
  variant: ConvergentVariant,
  options: Omit<ConvergentOptions, "matcher" | "preemption"> = {},
): ConvergentScheduler {
  requireKnownKeys("@sched/convergent/convergentVariant", "options", options, VARIANT_KEYS);
  const preset =
    PRESETS[
      requireOneOf("@sched/convergent/convergentVariant", "variant", variant, CONVERGENT_VARIANTS)
    ];
  return convergent({ name: variant, ...options, ...preset });
}
