import { createJob, type Job, type Scheduler, simulate } from "@sched/core";
import { makeView } from "@sched/core/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { OasProfile } from "../src/cost.js";
import {
  OAS_RULES,
  type OasRule,
  oasHeuristic,
  RULE_KEY,
  ruleOrder,
} from "../src/oas-heuristics.js";
import { oasInstance } from "../src/oas-instance.js";
import { FifoTree, type OasQueued, ReadyHeap, RuleHeap } from "../src/oas-queue.js";
import { multiClusterPlatform } from "../src/platform.js";

// The heuristics keep their waiting jobs in the rule's order as jobs come and go (a heap for the
// strict rules, FPFS's arrival-order tree); the oracle is `ruleOrder` of the jobs waiting.

const queued = (rule: OasRule, job: Job): OasQueued => ({
  job,
  key: RULE_KEY[rule](job),
  checked: false,
  fitsEmpty: undefined,
  at: -1,
});

// small ranges, so keys and submit times tie often
const specArb = fc.record({
  submit: fc.integer({ min: 0, max: 6 }),
  cores: fc.integer({ min: 1, max: 4 }),
  runtime: fc.constantFrom(10, 20, 30),
});

/** Jobs with distinct ids, in a random order of ids. */
const jobsArb = fc.array(specArb, { minLength: 1, maxLength: 60 }).chain((specs) =>
  fc
    .shuffledSubarray(
      specs.map((_, i) => i + 1),
      { minLength: specs.length, maxLength: specs.length },
    )
    .map((ids) => specs.map((s, i) => createJob({ id: ids[i]!, ...s }))),
);

describe("RuleHeap: the strict rules' queue", () => {
  it("its heads, popped one by one after random pushes and pops, follow ruleOrder", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...OAS_RULES),
        jobsArb,
        fc.array(fc.boolean(), { maxLength: 80 }),
        (rule, jobs, ops) => {
          const heap = new RuleHeap();
          const waiting = new Map<number, Job>();
          let next = 0;
          // true: the next job arrives; false: the head starts (leaves)
          for (const arrive of ops) {
            if (arrive && next < jobs.length) {
              const job = jobs[next++]!;
              heap.push(queued(rule, job));
              waiting.set(job.id, job);
            } else if (heap.size > 0) {
              const live = [...waiting.values()];
              const head = live[ruleOrder(rule, live)[0]!]!;
              const q = heap.pop()!;
              expect(q.job.id).toBe(head.id);
              expect(q.at).toBe(-1);
              waiting.delete(head.id);
            }
          }
          const live = [...waiting.values()];
          const expected = ruleOrder(rule, live).map((i) => live[i]!.id);
          const popped: number[] = [];
          for (let q = heap.pop(); q !== undefined; q = heap.pop()) popped.push(q.job.id);
          expect(popped).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("FifoTree: FPFS's queue", () => {
  it("finds the first slot from a place whose value is at most a bound, in arrival order, as a scan does", () => {
    fc.assert(
      fc.property(
        jobsArb,
        fc.array(
          fc.record({
            op: fc.constantFrom("append", "append", "remove", "set", "find"),
            pick: fc.nat(),
            value: fc.oneof(fc.integer({ min: 0, max: 4 }), fc.constant(Number.POSITIVE_INFINITY)),
          }),
          { maxLength: 120 },
        ),
        (jobs, ops) => {
          const tree = new FifoTree();
          // the direct form: live entries in arrival order with their values
          const live: { q: OasQueued; value: number }[] = [];
          let last: Job | undefined;
          let next = 0;
          for (const { op, pick, value } of ops) {
            if (op === "append" && next < jobs.length) {
              const job = jobs[next++]!;
              const q = queued("FPFS", job);
              const inOrder =
                last === undefined ||
                job.submit > last.submit ||
                (job.submit === last.submit && job.id > last.id);
              expect(tree.append(q, value)).toBe(inOrder);
              if (inOrder) {
                live.push({ q, value });
                last = job;
              }
            } else if (op === "remove" && live.length > 0) {
              const [gone] = live.splice(pick % live.length, 1);
              tree.remove(gone!.q);
              expect(gone!.q.at).toBe(-1);
            } else if (op === "set" && live.length > 0) {
              const e = live[pick % live.length]!;
              e.value = value;
              tree.set(e.q.at, value);
            } else if (op === "find") {
              const bound = pick % 5;
              // from the slot of some live entry (or 0): the first live entry from it with a value <= bound
              const fromEntry = live.length > 0 ? pick % (live.length + 1) : 0;
              const from = fromEntry < live.length ? live[fromEntry]!.q.at : 0;
              const start = fromEntry < live.length ? fromEntry : 0;
              const want = live.slice(start).find((e) => e.value <= bound);
              const slot = tree.find(from, bound);
              expect(slot === -1 ? undefined : tree.at(slot)).toBe(want?.q);
            }
            expect(tree.size).toBe(live.length);
          }
          // every live entry in arrival order: FPFS's ruleOrder of them (a slot left empty
          // has the value Infinity, which no finite bound finds)
          for (const e of live) tree.set(e.q.at, 0);
          const walk: number[] = [];
          for (let s = tree.find(0, 0); s >= 0; ) {
            walk.push(tree.at(s)!.job.id);
            s = tree.find(s + 1, 0);
          }
          const jobsLive = live.map((e) => e.q.job);
          expect(walk).toEqual(ruleOrder("FPFS", jobsLive).map((i) => jobsLive[i]!.id));
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("ReadyHeap", () => {
  it("hands out exactly the jobs ready by each time", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 40 }),
        fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 10 }),
        (readies, times) => {
          const heap = new ReadyHeap();
          const left = new Set<number>();
          readies.forEach((ready, i) => {
            heap.push(
              queued("FCFS", createJob({ id: i + 1, submit: 0, ready, runtime: 1, cores: 1 })),
            );
            left.add(i + 1);
          });
          for (const now of [...times].sort((a, b) => a - b)) {
            const got: number[] = [];
            for (let q = heap.popReady(now); q !== undefined; q = heap.popReady(now))
              got.push(q.job.id);
            const want = [...left].filter((id) => readies[id - 1]! <= now);
            expect(got.sort((a, b) => a - b)).toEqual(want);
            for (const id of want) left.delete(id);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});

// The whole heuristic with ready times (jobs that wait before they may start) and jobs too
// wide for the platform: the incremental queue against a heuristic made afresh at every call,
// which rebuilds it from the view each time.
describe("oasHeuristic: the queue it keeps", () => {
  it("schedules as a heuristic made afresh at every call, with ready times", () => {
    const afresh = (rule: OasRule, profile: (j: Job) => OasProfile): Scheduler => ({
      name: "afresh",
      schedule: (ctx) => oasHeuristic(rule, { profile }).schedule(ctx),
    });
    const records = (t: ReturnType<typeof simulate>) =>
      t.records.map((r) => [r.job.id, r.outcome, r.reason, r.intervals]);
    fc.assert(
      fc.property(
        fc.constantFrom(...OAS_RULES),
        fc.array(
          fc.record({
            submit: fc.integer({ min: 0, max: 200 }),
            delay: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 150 })),
            runtime: fc.integer({ min: 1, max: 120 }),
            cores: fc.integer({ min: 1, max: 9 }),
            ptbw: fc.constantFrom(0, 3e7, 2e9),
          }),
          { minLength: 1, maxLength: 40 },
        ),
        (rule, unsorted) => {
          const specs = [...unsorted].sort((a, b) => a.submit - b.submit);
          const platform = multiClusterPlatform([
            { nodes: 2, coresPerNode: 2, bandwidth: 1.25e8 },
            { nodes: 2, speed: 0.5, bandwidth: 5e7 },
          ]);
          const jobs = specs.map((s, i) =>
            createJob({
              id: i + 1,
              submit: s.submit,
              ...(s.delay > 0 ? { ready: s.submit + s.delay } : {}),
              runtime: s.runtime,
              cores: Math.min(s.cores, 6),
            }),
          );
          const profile = (job: Job): OasProfile => ({
            sigma: 0.5,
            ptbw: specs[job.id - 1]!.ptbw,
          });
          const expected = records(simulate(jobs, platform, afresh(rule, profile)));
          expect(records(simulate(jobs, platform, oasHeuristic(rule, { profile })))).toEqual(
            expected,
          );
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe("oasHeuristic: a bad job met on the incremental path", () => {
  it("is named by its place among the ready waiting jobs, as a check of all of them names it", () => {
    const platform = multiClusterPlatform([{ nodes: 2 }, { nodes: 2, speed: 0.5 }]);
    const j1 = createJob({ id: 1, submit: 0, runtime: 10, cores: 1 });
    const later = createJob({ id: 2, submit: 1, ready: 50, runtime: 10, cores: 1 });
    const j3 = createJob({ id: 3, submit: 2, runtime: 10, cores: 1 });
    // what makeView and the engine refuse: only a view made by hand carries it
    const bad = { ...createJob({ id: 4, submit: 3, runtime: 10, cores: 1 }), estimate: Number.NaN };
    const viewOf = (waiting: Job[]) => {
      const base = makeView(platform, { now: 5, freeCores: [0, 0, 0, 0], waiting: [j1] });
      const ws = waiting.map((job) => ({ job, progress: 0, preemptions: 0 }));
      return new Proxy(base, {
        get(target, key) {
          if (key === "waiting") return ws;
          if (key === "waitingCount") return ws.length;
          if (key === "waitingAt") return (i: number) => ws[i];
          const v = Reflect.get(target, key, target);
          return typeof v === "function" ? v.bind(target) : v;
        },
      });
    };
    const ctxOf = (waiting: Job[], arrived: Job[]) => ({
      view: viewOf(waiting),
      arrived,
      completed: [],
      ready: [],
      woken: false,
      start: () => {},
      preempt: () => {},
      reject: () => {},
      wakeAt: () => {},
    });
    const ready = [j1, j3, bad];
    let expected = "";
    try {
      oasInstance(ready, platform);
    } catch (e) {
      expected = String(e);
    }
    expect(expected).toContain("jobs[2].estimate");
    for (const rule of OAS_RULES) {
      const h = oasHeuristic(rule);
      h.schedule(ctxOf([j1, later, j3], [j1, later, j3]));
      expect(() => h.schedule(ctxOf([j1, later, j3, bad], [bad]))).toThrow(
        // the heuristic's own name, then the words of the check of all of them
        `@sched/multicluster/oasHeuristic${expected.slice(expected.indexOf(": jobs["))}`,
      );
    }
  });
});
