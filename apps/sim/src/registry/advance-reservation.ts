import {
  ADVANCE_RESERVATION_DEFAULTS,
  advanceReservation,
  paperPolicies,
} from "@sched/advance-reservation";
import type { SchedulerEntry } from "../scheduler-entry.js";
import { booleanOption, choiceOption, given } from "../scheduler-options.js";

const AR_POLICY = choiceOption({
  key: "policy",
  choices: paperPolicies.map((p) => p.name),
  default: ADVANCE_RESERVATION_DEFAULTS.policy.name,
  description:
    "Allocation policy (default {default}): first fit, PE/duration/PE-duration best or worst fit.",
});

const CLIP_TO_DEADLINE = booleanOption({
  key: "clipToDeadline",
  default: ADVANCE_RESERVATION_DEFAULTS.clipToDeadline,
  description: "Clip availability rectangles at the request's deadline (default {default}).",
});

/** Advance reservation with deadlines (@sched/advance-reservation). */
export const ADVANCE_RESERVATION_ENTRIES: readonly SchedulerEntry[] = [
  {
    name: "ar",
    description:
      "Advance reservation with deadlines: at arrival, reserve PEs inside [ready, deadline] by an allocation policy, or reject (@sched/advance-reservation).",
    options: [AR_POLICY, CLIP_TO_DEADLINE],
    create: (o) => {
      const name = AR_POLICY.read(o);
      const policy = paperPolicies.find((p) => p.name === name);
      return advanceReservation({
        ...(policy === undefined ? {} : { policy }),
        ...given(CLIP_TO_DEADLINE, o),
      });
    },
  },
];
