import {
  createJob,
  createPlatform,
  identicalPool,
  type Job,
  type JobSpec,
  simulate,
} from "@sched/core";
import { describe, expect, it } from "vitest";
import {
  advanceReservation,
  durationBestFit,
  firstFit,
  peWorstFit,
  scorePolicy,
} from "../src/index.js";

const job = (spec: JobSpec): Job => createJob(spec);

/**
 * The paper's Figure 1: job1 on 2 PEs [0,3), job2 on 2 PEs [0,1), job3 reserved on 3 PEs
 * [8,10) (immediate deadlines pin them), then the request {t2, 2, t9, 2} arriving at t0.
 */
const figure1 = (): Job[] => [
  job({ id: 1, submit: 0, runtime: 3, cores: 2, deadline: 3 }),
  job({ id: 2, submit: 0, runtime: 1, cores: 2, deadline: 1 }),
  job({ id: 3, submit: 0, runtime: 2, cores: 3, ready: 8, deadline: 10 }),
  job({ id: 4, submit: 0, runtime: 2, cores: 2, ready: 2, deadline: 9 }),
];

describe("advanceReservation scheduler", () => {
  it("reserves the paper's Figure 1 request at t3 under PE_W and at t2 under FF", () => {
    const jobs = figure1();
    const run = (policy: typeof firstFit) =>
      simulate(jobs, identicalPool(10), advanceReservation({ policy }));
    const pw = run(peWorstFit).records[3]!;
    expect(pw.outcome).toBe("completed");
    expect(pw.intervals[0]!.start).toBe(3);
    expect(run(durationBestFit).records[3]!.intervals[0]!.start).toBe(3);
    expect(run(firstFit).records[3]!.intervals[0]!.start).toBe(2);
    expect(run(peWorstFit).scheduler).toBe("AR-PE_W");
  });

  it("rejects with a reason when nothing fits before the deadline, and accepts later slack", () => {
    const jobs = [
      job({ id: 1, submit: 0, runtime: 10, cores: 4 }),
      job({ id: 2, submit: 1, runtime: 5, cores: 1, deadline: 12 }),
      job({ id: 3, submit: 2, runtime: 5, cores: 1, deadline: 15 }),
      job({ id: 4, submit: 3, runtime: 5, cores: 8 }),
      job({ id: 5, submit: 3, runtime: 5, cores: 1, ready: 4, deadline: 8 }),
    ];
    const trace = simulate(jobs, identicalPool(4), advanceReservation());
    const [a, b, c, d, e] = trace.records;
    expect(a!.outcome).toBe("completed");
    expect(b!.outcome).toBe("rejected");
    expect(b!.reason).toMatch(/no 1 PEs free for 5 s at any candidate start in \[1, 7\]/);
    expect(c!.outcome).toBe("completed");
    expect(c!.intervals[0]!.start).toBe(10);
    expect(d!.reason).toMatch(/needs 8 PEs, the platform has 4/);
    expect(e!.reason).toMatch(/deadline 8 is before ready time 4 \+ duration 5/);
  });

  it("starts accepted jobs at their reserved time on their reserved PEs and releases early finishers", () => {
    const jobs = [
      // Asks for 10 s but ends after 4: the rest of its reservation is given back at 4.
      job({ id: 1, submit: 0, runtime: 4, estimate: 10, cores: 3 }),
      job({ id: 2, submit: 1, runtime: 2, cores: 2, ready: 5, deadline: 20 }),
      // Arrives at 5, after job 1 ended: the 3 PEs are free again.
      job({ id: 3, submit: 5, runtime: 1, cores: 2, deadline: 6 }),
    ];
    const trace = simulate(jobs, identicalPool(4), advanceReservation());
    const [a, b, c] = trace.records;
    expect(a!.intervals).toEqual([
      {
        start: 0,
        end: 4,
        allocation: [
          { machine: 0, cores: 1 },
          { machine: 1, cores: 1 },
          { machine: 2, cores: 1 },
        ],
      },
    ]);
    // Job 2 was booked at 10 on PEs 0 and 1 (only PE 3 was free before).
    expect(b!.intervals[0]!.start).toBe(10);
    expect(c!.outcome).toBe("completed");
    expect(c!.intervals[0]!.start).toBe(5);
  });

  it("preempts and rejects a job that overruns its reservation", () => {
    const jobs = [
      job({ id: 1, submit: 0, runtime: 8, estimate: 5, cores: 2 }),
      job({ id: 2, submit: 0, runtime: 3, cores: 2, ready: 5, deadline: 8 }),
    ];
    const trace = simulate(jobs, identicalPool(2), advanceReservation());
    expect(trace.records[0]!.outcome).toBe("rejected");
    expect(trace.records[0]!.reason).toMatch(/ran past the end of its reservation at 5/);
    expect(trace.records[1]!.intervals[0]!.start).toBe(5);
    expect(trace.records[1]!.outcome).toBe("completed");
  });

  it("maps PEs to machines core by core on multi-core machines", () => {
    const jobs = [
      job({ id: 1, submit: 0, runtime: 2, cores: 3 }),
      job({ id: 2, submit: 0, runtime: 2, cores: 4 }),
    ];
    const trace = simulate(jobs, identicalPool(3, { cores: 4 }), advanceReservation());
    expect(trace.records[0]!.intervals[0]!.allocation).toEqual([{ machine: 0, cores: 3 }]);
    expect(trace.records[1]!.intervals[0]!.allocation).toEqual([
      { machine: 0, cores: 1 },
      { machine: 1, cores: 3 },
    ]);
  });

  it("plans with the duration on the slowest machine", () => {
    const jobs = [job({ id: 1, submit: 0, runtime: 10, cores: 1, deadline: 15 })];
    // Speed 0.5: 10 s of work takes 20 s, past the deadline.
    const trace = simulate(jobs, identicalPool(2, { speed: 0.5 }), advanceReservation());
    expect(trace.records[0]!.reason).toMatch(/duration 20/);
    // Mixed speeds: the slowest machine (speed 0.5, neither the first nor the last) sets the
    // duration, though the job would fit by the deadline on the others (5 s at speed 2).
    const mixed = createPlatform({
      machines: [
        { cores: 1, speed: 2 },
        { cores: 1, speed: 0.5 },
        { cores: 1, speed: 4 },
      ],
    });
    expect(simulate(jobs, mixed, advanceReservation()).records[0]!.reason).toBe(
      "deadline 15 is before ready time 0 + duration 20",
    );
    const later = [job({ id: 1, submit: 0, runtime: 10, cores: 1, deadline: 25 })];
    expect(simulate(later, mixed, advanceReservation()).records[0]!.outcome).toBe("completed");
  });

  it("starts a reservation at its start even when no other event falls there (a timer)", () => {
    // Figure 1 under a policy preferring the latest start: the request is reserved at
    // t7 = tdl - tdu, where nothing else happens; it must start then, not at the next event (t8).
    const jobs = figure1();
    const latestStart = scorePolicy("LatestStart", (r) => r.start, "max");
    const r = simulate(jobs, identicalPool(10), advanceReservation({ policy: latestStart }))
      .records[3]!;
    expect(r.outcome).toBe("completed");
    expect(r.intervals.map((iv) => [iv.start, iv.end])).toEqual([[7, 9]]);
  });

  it("runs several simulations alike with one instance (reset forgets the previous run's reservations)", () => {
    const jobs = [
      job({ id: 1, submit: 0, runtime: 4, cores: 2, deadline: 6 }),
      job({ id: 2, submit: 1, runtime: 3, cores: 2, ready: 2, deadline: 9 }),
      job({ id: 3, submit: 5, runtime: 2, cores: 1, deadline: 7 }),
    ];
    const scheduler = advanceReservation({ policy: peWorstFit });
    const first = simulate(jobs, identicalPool(3), scheduler);
    expect(first.records.map((r) => r.outcome)).toEqual(["completed", "completed", "completed"]);
    expect(simulate(jobs, identicalPool(3), scheduler).records).toEqual(first.records);
    expect(
      simulate(jobs, identicalPool(3), advanceReservation({ policy: peWorstFit })).records,
    ).toEqual(first.records);
  });

  it("rejects an invalid policy", () => {
    expect(() => advanceReservation({ policy: {} as typeof firstFit })).toThrow(
      /@sched\/advance-reservation\/advanceReservation: options.policy has no compare/,
    );
  });
});
