import { InvalidInputError, MAX_RESOURCE_COUNT } from "@sched/core";
import {
  describeValue,
  optionKeys,
  refuseMisspeltKeys,
  requireBoolean,
  requireKnownKeys,
} from "@sched/errors";
import { AvailRectList, checkPolicy, latestStart } from "./avail-rect-list.js";
import { ADVANCE_RESERVATION_DEFAULTS } from "./defaults.js";
import { checkPeSelection, type PeSelection } from "./pe-selection.js";
import { type AllocationPolicy, firstFit } from "./policies.js";

const WHERE = "@sched/advance-reservation/admissionPass";

/** A reservation the system holds: accepted earlier, not finished. */
export interface HeldReservation {
  /** The job's id. */
  readonly id: number;
  /** When its PEs are reserved from (a time; may be in the past for a running job). */
  readonly start: number;
  /** When its PEs come back (a time after `start`; the parts before `now` are ignored). */
  readonly end: number;
  /** The PEs it holds: distinct integers in `0 .. pes - 1`. */
  readonly pes: readonly number[];
}

/**
 * The state of an advance-reservation system at one instant, as {@link admissionPass} reads it:
 * `pes` PEs numbered `0 .. pes - 1`, and the reservations accepted and not finished. A job that
 * finished early gives back the rest of its reservation: drop it, or set its `end` to `now`.
 */
export interface AdmissionState {
  /** The current time. Nothing is reserved before it. */
  readonly now: number;
  /** The number of PEs (a positive integer). */
  readonly pes: number;
  /** The held reservations; no PE may be held twice at once. */
  readonly reservations: readonly HeldReservation[];
}

/** The keys of {@link AdmissionState}, all of them (checked by the compiler). */
const STATE_KEYS = optionKeys<AdmissionState>({
  now: true,
  pes: true,
  reservations: true,
});

/**
 * A request for an advance reservation: the paper's `(t_r, t_du, t_dl, n)` =
 * (`ready`, `duration`, `deadline`, `peCount`), with the job's id.
 */
export interface ReservationRequest {
  /** The job's id (an integer, distinct from the held reservations' and the other requests'). */
  readonly id: number;
  /** `n`: how many PEs it needs (a positive integer). */
  readonly peCount: number;
  /** `t_du`: how long it holds them (a finite duration > 0). */
  readonly duration: number;
  /**
   * `t_r`: the earliest start; a past ready time counts as `now`.
   * @defaultValue `now`
   */
  readonly ready?: number;
  /**
   * `t_dl`: it must end by then.
   * @defaultValue `Infinity` (no deadline)
   */
  readonly deadline?: number;
}

/**
 * The fields of the records {@link admissionPass} reads, all of them (checked by the compiler):
 * a record may carry fields of the caller's own, but not a near miss of a field it lacks.
 */
const HELD_KEYS = optionKeys<HeldReservation>({ id: true, start: true, end: true, pes: true });
const REQUEST_KEYS = optionKeys<ReservationRequest>({
  id: true,
  peCount: true,
  duration: true,
  ready: true,
  deadline: true,
});

/** An accepted request: its reservation. */
export interface Accepted {
  readonly id: number;
  readonly accepted: true;
  /** When it starts. */
  readonly start: number;
  /** `start + duration`. */
  readonly end: number;
  /** The PEs reserved for it, increasing. */
  readonly pes: readonly number[];
}

/** A rejected request and why. */
export interface Rejected {
  readonly id: number;
  readonly accepted: false;
  readonly reason: string;
}

/** The decision on one request. */
export type AdmissionDecision = Accepted | Rejected;

/** What {@link admissionPass} returns. */
export interface AdmissionResult {
  /** One decision per request, in request order. */
  readonly decisions: readonly AdmissionDecision[];
  /**
   * The reservations held after the decisions: those of the state still ending after `now`, in
   * their order, then the accepted ones in request order. Give them back as the next state's
   * `reservations`.
   */
  readonly reservations: readonly HeldReservation[];
}

/** Options of {@link admissionPass}. */
export interface AdmissionOptions {
  /**
   * How to choose among the feasible start times: one of the seven paper policies or your own
   * {@link AllocationPolicy}.
   * @defaultValue {@link firstFit}
   */
  readonly policy?: AllocationPolicy;
  /**
   * Clip rectangles at each request's deadline (see `FindAllocationOptions.clipToDeadline`).
   * @defaultValue true
   */
  readonly clipToDeadline?: boolean;
  /**
   * Which of the chosen rectangle's free PEs a reservation takes: `"lowest-index"`,
   * `"highest-index"`, `"soonest-reserved"` or `"latest-released"` (see
   * `FindAllocationOptions.peSelection`).
   * @defaultValue `"lowest-index"`
   */
  readonly peSelection?: PeSelection;
}

/** The keys of {@link AdmissionOptions}, all of them (checked by the compiler). */
const ADMISSION_KEYS = optionKeys<AdmissionOptions>({
  policy: true,
  clipToDeadline: true,
  peSelection: true,
});

/** How {@link admitOne} searches: the options of {@link admissionPass}, resolved. Internal. */
export interface AdmissionRule {
  readonly policy: AllocationPolicy;
  readonly clipToDeadline: boolean;
  readonly peSelection: PeSelection;
}

/**
 * The rule's options (`policy`, `clipToDeadline`, `peSelection`), their defaults filled in and
 * checked, errors naming `where` and `options.<key>`. Internal: `admissionPass` and the
 * `advanceReservation` scheduler resolve them alike.
 */
export function resolveAdmissionRule(
  where: string,
  options: {
    readonly policy?: AllocationPolicy;
    readonly clipToDeadline?: boolean;
    readonly peSelection?: PeSelection;
  },
): AdmissionRule {
  const policy = options.policy ?? ADVANCE_RESERVATION_DEFAULTS.policy;
  checkPolicy(where, "options.policy", policy);
  const clipToDeadline = requireBoolean(
    where,
    "options.clipToDeadline",
    options.clipToDeadline ?? ADVANCE_RESERVATION_DEFAULTS.clipToDeadline,
  );
  // `null` is refused, not read as the default
  const peSelection = checkPeSelection(
    where,
    "options.peSelection",
    options.peSelection === undefined
      ? ADVANCE_RESERVATION_DEFAULTS.peSelection
      : options.peSelection,
  );
  return { policy, clipToDeadline, peSelection };
}

/** A request in the paper's notation, validated. Internal. */
export interface ResolvedRequest {
  readonly id: number;
  readonly tr: number;
  readonly tdu: number;
  readonly tdl: number;
  readonly n: number;
}

/**
 * Decides one request on `list` (whose origin is `now`) and, when it is accepted, reserves it
 * there: the one admission rule shared by {@link admissionPass} and the engine's
 * `advanceReservation` scheduler. Internal.
 */
export function admitOne(
  list: AvailRectList,
  now: number,
  request: ResolvedRequest,
  rule: AdmissionRule,
): AdmissionDecision {
  const { id, n, tdu, tdl } = request;
  if (n > list.pes) {
    return { id, accepted: false, reason: `needs ${n} PEs, the platform has ${list.pes}` };
  }
  const tr = Math.max(request.tr, now);
  if (tr + tdu > tdl) {
    return {
      id,
      accepted: false,
      reason: `deadline ${tdl} is before ready time ${tr} + duration ${tdu}`,
    };
  }
  const found = list.findAllocation(
    { ready: tr, duration: tdu, deadline: tdl, peCount: n },
    { policy: rule.policy, clipToDeadline: rule.clipToDeadline, peSelection: rule.peSelection },
  );
  if (found === null) {
    return {
      id,
      accepted: false,
      reason: `no ${n} PEs free for ${tdu} s at any candidate start in [${tr}, ${latestStart(tdl, tdu)}]`,
    };
  }
  list.addAllocation(found.start, found.end, found.pes);
  return { id, accepted: true, start: found.start, end: found.end, pes: found.pes };
}

/**
 * Admission control for advance reservations with deadlines, as one pure function: from the
 * state of the system now (its PEs and the reservations it holds) and the requests that arrived,
 * in order, it accepts each request with a start time and PEs (the paper's `findAllocation`
 * under `options.policy`, Algorithm 3, the PEs by `options.peSelection`) or rejects it with a reason. An accepted request is
 * reserved before the next one is decided, so same-time requests are admitted in the order
 * given. No engine: call it from a live resource manager at every submission, then start each
 * reservation at its `start` on its `pes`.
 *
 * Rejections: more PEs than the system has; `ready + duration > deadline`; no candidate start
 * with `peCount` PEs free throughout. The engine's `advanceReservation` scheduler runs this same
 * rule (the conformance property test checks both give the same decisions, event by event).
 *
 * Complexity: O(r·(log m + n'·W + m)) to build the profile from `r` reservations, then one
 * `findAllocation` and one `addAllocation` per request (see {@link AvailRectList}).
 *
 * @throws InvalidInputError naming the field (`state.reservations[2].pes[0]`,
 * `requests[1].duration`, `options.policy`, `options.peSelection`) when the input is malformed, or when two held
 * reservations book one PE at once. Inputs are not mutated.
 *
 * @example
 * ```ts
 * const { decisions } = admissionPass(
 *   { now: 2, pes: 10, reservations: [{ id: 1, start: 0, end: 3, pes: [0, 1] }] },
 *   [{ id: 4, peCount: 2, duration: 2, deadline: 9 }],
 * );
 * // [{ id: 4, accepted: true, start: 2, end: 4, pes: [2, 3] }]
 * ```
 */
export function admissionPass(
  state: AdmissionState,
  requests: readonly ReservationRequest[],
  options: AdmissionOptions = {},
): AdmissionResult {
  requireKnownKeys(WHERE, "options", options, ADMISSION_KEYS);
  const rule = resolveAdmissionRule(WHERE, options);
  if (typeof state !== "object" || state === null) {
    throw new InvalidInputError(WHERE, "state", `is ${describeValue(state)}, expected an object`);
  }
  requireKnownKeys(WHERE, "state", state, STATE_KEYS);
  const now = state.now;
  if (typeof now !== "number" || !Number.isFinite(now)) {
    throw new InvalidInputError(
      WHERE,
      "state.now",
      `is ${describeValue(now)}, expected a finite number`,
    );
  }
  const pes = state.pes;
  if (!Number.isInteger(pes) || pes < 1 || pes > MAX_RESOURCE_COUNT) {
    throw new InvalidInputError(
      WHERE,
      "state.pes",
      `is ${describeValue(pes)}, expected an integer in [1, ${MAX_RESOURCE_COUNT}]`,
    );
  }
  if (!Array.isArray(state.reservations)) {
    throw new InvalidInputError(WHERE, "state.reservations", "is not an array");
  }
  if (!Array.isArray(requests)) {
    throw new InvalidInputError(WHERE, "requests", "is not an array");
  }
  const ids = new Map<number, string>();
  const claim = (id: unknown, field: string): void => {
    if (!Number.isInteger(id)) {
      throw new InvalidInputError(WHERE, field, `is ${describeValue(id)}, expected an integer`);
    }
    const other = ids.get(id as number);
    if (other !== undefined) {
      throw new InvalidInputError(
        WHERE,
        field,
        `is ${describeValue(id)}, already the id of ${other}`,
      );
    }
    ids.set(id as number, field.slice(0, field.lastIndexOf(".")));
  };

  const list = new AvailRectList(pes, { origin: now });
  const kept: HeldReservation[] = [];
  state.reservations.forEach((r, i) => {
    const at = `state.reservations[${i}]`;
    if (typeof r !== "object" || r === null) {
      throw new InvalidInputError(WHERE, at, `is ${describeValue(r)}, expected an object`);
    }
    refuseMisspeltKeys(WHERE, at, r, HELD_KEYS);
    claim(r.id, `${at}.id`);
    for (const key of ["start", "end"] as const) {
      if (typeof r[key] !== "number" || !Number.isFinite(r[key])) {
        throw new InvalidInputError(
          WHERE,
          `${at}.${key}`,
          `is ${describeValue(r[key])}, expected a finite time`,
        );
      }
    }
    if (!(r.end > r.start)) {
      throw new InvalidInputError(
        WHERE,
        `${at}.end`,
        `is ${describeValue(r.end)}, expected > start (${r.start})`,
      );
    }
    if (!Array.isArray(r.pes)) throw new InvalidInputError(WHERE, `${at}.pes`, "is not an array");
    try {
      list.addAllocation(r.start, r.end, r.pes);
    } catch (e) {
      // The structure names its own parameter (`pes[0]`); say where in the caller's state.
      if (e instanceof InvalidInputError) {
        throw new InvalidInputError(WHERE, `${at}.${e.field}`, e.message.replace(/^.*?: \S+ /, ""));
      }
      throw e;
    }
    if (r.end > now) kept.push(r);
  });

  const decisions: AdmissionDecision[] = [];
  requests.forEach((q, i) => {
    const at = `requests[${i}]`;
    if (typeof q !== "object" || q === null) {
      throw new InvalidInputError(WHERE, at, `is ${describeValue(q)}, expected an object`);
    }
    refuseMisspeltKeys(WHERE, at, q, REQUEST_KEYS);
    claim(q.id, `${at}.id`);
    const request = resolveRequest(q, now, at);
    const decision = admitOne(list, now, request, rule);
    decisions.push(decision);
    if (decision.accepted) {
      kept.push({ id: decision.id, start: decision.start, end: decision.end, pes: decision.pes });
    }
  });
  return { decisions, reservations: kept };
}

function resolveRequest(q: ReservationRequest, now: number, at: string): ResolvedRequest {
  if (!Number.isInteger(q.peCount) || q.peCount < 1) {
    throw new InvalidInputError(
      WHERE,
      `${at}.peCount`,
      `is ${describeValue(q.peCount)}, expected a positive integer`,
    );
  }
  if (typeof q.duration !== "number" || !Number.isFinite(q.duration) || q.duration <= 0) {
    throw new InvalidInputError(
      WHERE,
      `${at}.duration`,
      `is ${describeValue(q.duration)}, expected a finite number > 0`,
    );
  }
  const ready = q.ready ?? now;
  if (typeof ready !== "number" || !Number.isFinite(ready)) {
    throw new InvalidInputError(
      WHERE,
      `${at}.ready`,
      `is ${describeValue(ready)}, expected a finite time`,
    );
  }
  // Below the spacing of doubles at the earliest start, the reservation would end when it starts.
  const earliest = Math.max(ready, now);
  if (!(earliest + q.duration > earliest)) {
    throw new InvalidInputError(
      WHERE,
      `${at}.duration`,
      `is ${q.duration}, too short to count at its earliest start ${earliest} (the later of state.now and ${at}.ready: below the spacing of doubles there)`,
    );
  }
  const deadline = q.deadline ?? Number.POSITIVE_INFINITY;
  if (typeof deadline !== "number" || Number.isNaN(deadline)) {
    throw new InvalidInputError(
      WHERE,
      `${at}.deadline`,
      `is ${describeValue(deadline)}, expected a time or Infinity`,
    );
  }
  return { id: q.id, tr: ready, tdu: q.duration, tdl: deadline, n: q.peCount };
}
