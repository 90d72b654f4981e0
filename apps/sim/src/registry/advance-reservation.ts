import {
  ADVANCE_RESERVATION_DEFAULTS,
  advanceReservation,
  PE_SELECTIONS,
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

const PE_SELECTION = choiceOption({
  key: "peSelection",
  choices: PE_SELECTIONS,
  default: ADVANCE_RESERVATION_DEFAULTS.peSelection,
  description:
    "Which of the chosen rectangle's free PEs a reservation takes (default {default}): lowest or highest index, soonest-reserved (next reserved soonest after the job), latest-released (released latest before it).",
});

/** Advance reservation with deadlines (@sched/advance-reservation). */
export const ADVANCE_RESERVATION_ENTRIES: readonly SchedulerEntry[] = [
  {
    name: "ar",
    description:
      "Advance reservation with deadlines: at arrival, reserve PEs inside [ready, deadline] by an allocation policy, or reject (@sched/advance-reservation).",
    options: [AR_POLICY, CLIP_TO_DEADLINE, PE_SELECTION],
    create: (o) => {
      const name = AR_POLICY.read(o);
      const policy = paperPolicies.find((p) => p.name === name);
      return advanceReservation({
        ...(policy === undefined ? {} : { policy }),
        ...given(CLIP_TO_DEADLINE, o),
        ...given(PE_SELECTION, o),
      });
    },
  },
];
