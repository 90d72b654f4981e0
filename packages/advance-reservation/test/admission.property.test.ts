import { identicalPool, type JobRecord, simulate } from "@sched/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type AdmissionState,
  admissionPass,
  advanceReservation,
  type HeldReservation,
  PE_SELECTIONS,
  paperPolicies,
} from "../src/index.js";
import { caseArb } from "./ar-cases.js";

/** PEs -> one part per machine, in PE order (PE p is on machine floor(p / cores)). */
function partsOf(pes: readonly number[], cores: number): { machine: number; cores: number }[] {
  const parts: { machine: number; cores: number }[] = [];
  for (const p of pes) {
    const m = Math.floor(p / cores);
    const last = parts[parts.length - 1];
    if (last?.machine === m) last.cores++;
    else parts.push({ machine: m, cores: 1 });
  }
  return parts;
}

describe("admissionPass against the engine's advanceReservation", () => {
  it("decides every arrival as the simulated policy does, event by event (estimates off both ways), under every peSelection", () => {
    fc.assert(
      fc.property(
        caseArb(false),
        fc.constantFrom(...paperPolicies),
        fc.boolean(),
        fc.constantFrom(...PE_SELECTIONS),
        (c, policy, clipToDeadline, peSelection) => {
          const platform = identicalPool(c.machines, { cores: c.cores });
          const trace = simulate(
            c.jobs,
            platform,
            advanceReservation({ policy, clipToDeadline, peSelection }),
          );
          const record = new Map<number, JobRecord>(trace.records.map((r) => [r.job.id, r]));
          // When each job's PEs came back early: a completed job's end (a job that overran its
          // estimate was stopped at its reservation's end, which the reservation already says).
          const finished = (id: number): number => {
            const r = record.get(id)!;
            return r.outcome === "completed" ? r.intervals[r.intervals.length - 1]!.end : Infinity;
          };
          // The engine's events: arrivals grouped by submit time, in queue order (submit, id).
          const queue = [...c.jobs].sort((a, b) => a.submit - b.submit || a.id - b.id);
          let held: readonly HeldReservation[] = [];
          let k = 0;
          while (k < queue.length) {
            const now = queue[k]!.submit;
            const batch = [];
            while (k < queue.length && queue[k]!.submit === now) batch.push(queue[k++]!);
            const state: AdmissionState = {
              now,
              pes: c.machines * c.cores,
              reservations: held.filter((r) => finished(r.id) > now),
            };
            const requests = batch.map((j) => ({
              id: j.id,
              peCount: j.cores,
              duration: j.estimate,
              ...(j.ready === undefined ? {} : { ready: j.ready }),
              ...(j.deadline === undefined ? {} : { deadline: j.deadline }),
            }));
            const result = admissionPass(state, requests, { policy, clipToDeadline, peSelection });
            for (const d of result.decisions) {
              const r = record.get(d.id)!;
              if (!d.accepted) {
                expect(r.outcome).toBe("rejected");
                expect(r.intervals).toEqual([]);
                expect(r.reason).toBe(d.reason);
                continue;
              }
              expect(r.intervals.length).toBe(1);
              expect(r.intervals[0]!.start).toBe(d.start);
              expect(r.intervals[0]!.allocation).toEqual(partsOf(d.pes, c.cores));
              // It runs to completion unless it overran its reservation.
              const iv = r.intervals[0]!;
              if (r.outcome === "completed") expect(iv.end).toBeLessThanOrEqual(d.end);
              else expect(iv.end).toBe(d.end);
            }
            held = result.reservations;
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe("admissionPass invariants", () => {
  it("accepts inside [max(ready, now), deadline] without double booking, leaves its inputs alone, and is deterministic, under every peSelection", () => {
    fc.assert(
      fc.property(
        caseArb(true),
        fc.constantFrom(...paperPolicies),
        fc.constantFrom(...PE_SELECTIONS),
        (c, policy, peSelection) => {
          const pes = c.machines * c.cores;
          const now = 2;
          const requests = c.jobs.map((j) => ({
            id: j.id,
            peCount: j.cores,
            duration: j.estimate,
            ready: j.ready ?? j.submit,
            ...(j.deadline === undefined ? {} : { deadline: j.deadline }),
          }));
          const state: AdmissionState = { now, pes, reservations: [] };
          const frozen = JSON.stringify([state, requests]);
          const result = admissionPass(state, requests, { policy, peSelection });
          expect(JSON.stringify([state, requests])).toBe(frozen);
          expect(admissionPass(state, requests, { policy, peSelection })).toEqual(result);
          expect(result.decisions.map((d) => d.id)).toEqual(requests.map((q) => q.id));
          const accepted = result.decisions.filter((d) => d.accepted);
          expect(result.reservations).toEqual(
            accepted.map(({ id, start, end, pes }) => ({ id, start, end, pes })),
          );
          for (const d of accepted) {
            const q = requests.find((x) => x.id === d.id)!;
            expect(d.start).toBeGreaterThanOrEqual(Math.max(q.ready, now));
            expect(d.end).toBe(d.start + q.duration);
            expect(d.end).toBeLessThanOrEqual(q.deadline ?? Infinity);
            expect(d.pes.length).toBe(q.peCount);
            for (const p of d.pes) expect(p >= 0 && p < pes).toBe(true);
          }
          // No PE is held by two reservations at once.
          for (const a of accepted) {
            for (const b of accepted) {
              if (a.id >= b.id || a.end <= b.start || b.end <= a.start) continue;
              expect(a.pes.filter((p) => b.pes.includes(p))).toEqual([]);
            }
          }
          // The result is a valid next state (the structure would throw on a double booking), and
          // a pass with no request keeps it as it is.
          const again = admissionPass({ now, pes, reservations: result.reservations }, []);
          expect(again.reservations).toEqual(result.reservations.filter((r) => r.end > now));
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe("admissionPass request defaults and rejection reasons", () => {
  it("reads an omitted ready as now and gives the first rule that rejects, with the ready time raised to now, whatever now (negative too)", () => {
    const specArb = fc.record({
      peCount: fc.integer({ min: 1, max: 8 }),
      duration: fc.integer({ min: 1, max: 6 }),
      // relative to now: a ready time in the past, now, or later; a deadline anywhere
      ready: fc.option(fc.integer({ min: -8, max: 8 }), { nil: undefined }),
      deadline: fc.option(fc.integer({ min: -4, max: 16 }), { nil: undefined }),
    });
    fc.assert(
      fc.property(
        fc.integer({ min: -20, max: 20 }),
        fc.integer({ min: 1, max: 6 }),
        fc.array(specArb, { maxLength: 6 }),
        fc.constantFrom(...paperPolicies),
        (now, pes, specs, policy) => {
          const requests = specs.map((s, id) => ({
            id,
            peCount: s.peCount,
            duration: s.duration,
            ...(s.ready === undefined ? {} : { ready: now + s.ready }),
            ...(s.deadline === undefined ? {} : { deadline: now + s.deadline }),
          }));
          const state = { now, pes, reservations: [] };
          const result = admissionPass(state, requests, { policy });
          // An omitted ready time is now.
          const explicit = requests.map((q) => ({ ...q, ready: q.ready ?? now }));
          expect(admissionPass(state, explicit, { policy })).toEqual(result);
          result.decisions.forEach((d, i) => {
            const q = requests[i]!;
            const tr = Math.max(q.ready ?? now, now);
            const tdl = q.deadline ?? Number.POSITIVE_INFINITY;
            if (q.peCount > pes) {
              expect(d).toEqual({
                id: q.id,
                accepted: false,
                reason: `needs ${q.peCount} PEs, the platform has ${pes}`,
              });
            } else if (tr + q.duration > tdl) {
              expect(d).toEqual({
                id: q.id,
                accepted: false,
                reason: `deadline ${tdl} is before ready time ${tr} + duration ${q.duration}`,
              });
            } else if (!d.accepted) {
              expect(d.reason).toBe(
                `no ${q.peCount} PEs free for ${q.duration} s at any candidate start in [${tr}, ${tdl - q.duration}]`,
              );
            } else {
              expect(d.start).toBeGreaterThanOrEqual(tr);
              expect(d.end).toBe(d.start + q.duration);
              expect(d.end).toBeLessThanOrEqual(tdl);
            }
          });
        },
      ),
      { numRuns: 200 },
    );
  });
});
