import { createPlatform } from "@sched/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  CompetitiveCore,
  type CompetitiveQueuedJob,
  resolveCoreOptions,
  tierPreference,
} from "../src/competitive-core.js";
import { TIER_SEARCHES } from "../src/defaults.js";

// CompetitiveCore.place lists the idle machines of each tier when they are few, and otherwise
// walks its tiers' runs of the rating order, passing over the machines found busy or started
// on. Both against the lists it replaced (session 25, 2066580: every idle
// machine into its tier's list, in rating order, at the first ready job; each job takes the
// first machine of its tiers' lists that it fits), call after call with completions between
// them moving machines across tiers: the same starts, the same questions to `licensesOk` in
// the same order, and `jobLevel` asked about the same jobs.

const scenario = fc.record({
  machines: fc.array(fc.constantFrom(1, 2), { minLength: 1, maxLength: 40 }),
  tiers: fc.integer({ min: 1, max: 4 }),
  search: fc.constantFrom(...TIER_SEARCHES),
  levels: fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 30, maxLength: 30 }),
  refuse: fc.array(fc.boolean(), { minLength: 64, maxLength: 64 }),
  // lists of the idle machines up to this many, else walks (0: walks always)
  listUpTo: fc.constantFrom(0, 0, 3, 64),
  calls: fc.array(
    fc.record({
      jobs: fc.array(
        fc.record({
          cores: fc.constantFrom(1, 1, 2),
          estimate: fc.constantFrom(1, 5, 20),
          later: fc.boolean(),
        }),
        { maxLength: 8 },
      ),
      busy: fc.array(fc.boolean(), { minLength: 40, maxLength: 40 }),
      elapsed: fc.array(fc.constantFrom(1, 4, 30), { minLength: 8, maxLength: 8 }),
    }),
    { maxLength: 8 },
  ),
});

describe("CompetitiveCore.place against per-tier lists of the idle machines", () => {
  it("starts the same jobs on the same machines, asking the same questions", () => {
    fc.assert(
      fc.property(scenario, ({ machines, tiers, search, levels, refuse, listUpTo, calls }) => {
        const platform = createPlatform({ machines: machines.map((cores) => ({ cores })) });
        const n = machines.length;
        const asked: number[] = [];
        const level = (job: CompetitiveQueuedJob): number => {
          asked.push(job.id);
          return Math.min(tiers, levels[job.id % 30]!);
        };
        const core = new CompetitiveCore<CompetitiveQueuedJob>(
          platform,
          resolveCoreOptions(
            { tiers, tierWidth: 20, baseRating: 10 * tiers, tierSearch: search, jobLevel: level },
            "test",
          ),
        );
        let id = 0;
        let now = 0;
        const running = new Map<number, number>(); // job -> machine
        for (const call of calls) {
          now += 10;
          // completions first: the jobs started two calls ago or more, with the given times
          let k = 0;
          for (const [job] of [...running]) {
            if (k >= call.elapsed.length) break;
            core.complete(job, core.placed.get(job)!.start + call.elapsed[k++]!);
            running.delete(job);
          }
          const jobs = call.jobs.map((j) => ({
            id: id++,
            cores: j.cores,
            estimate: j.estimate,
            ...(j.later ? { ready: now + 1 } : {}),
          }));
          for (const job of jobs) core.arrive(job);
          const occupied = new Set(running.values());
          const idleNow = Array.from(
            { length: n },
            (_, m) => !occupied.has(m) && !call.busy[m % 40],
          );
          const ok = (job: CompetitiveQueuedJob, m: number): boolean =>
            !refuse[(job.id * 7 + m) % 64];
          // the lists' way, from the ratings and tiers before the call
          const { ratings, tiers: tierOfMachine } = core.list.snapshot();
          const want: [number, number][] = [];
          const wantAsked: string[] = [];
          const wantLevels: number[] = [];
          let buckets: number[][] | null = null;
          let free = 0;
          for (const job of jobs) {
            if (job.ready !== undefined && job.ready > now) continue;
            if (buckets === null) {
              buckets = Array.from({ length: tiers + 1 }, () => []);
              const order = Array.from({ length: n }, (_, m) => m).sort(
                (a, b) =>
                  tierOfMachine[a]! - tierOfMachine[b]! || ratings[b]! - ratings[a]! || a - b,
              );
              for (const m of order) {
                if (idleNow[m]) {
                  buckets[tierOfMachine[m]!]!.push(m);
                  free++;
                }
              }
            }
            if (free === 0) break;
            wantLevels.push(job.id);
            let got = -1;
            for (const tier of tierPreference(
              Math.min(tiers, levels[job.id % 30]!),
              tiers,
              search,
            )) {
              const bucket = buckets[tier]!;
              const i = bucket.findIndex((m) => {
                if (machines[m]! < job.cores) return false;
                wantAsked.push(`${job.id}@${m}`);
                return ok(job, m);
              });
              if (i >= 0) {
                got = bucket.splice(i, 1)[0]!;
                break;
              }
            }
            if (got < 0) continue;
            want.push([job.id, got]);
            free--;
          }
          // place's way
          const got: [number, number][] = [];
          const gotAsked: string[] = [];
          asked.length = 0;
          const idle = new Set<number>();
          for (let m = 0; m < n; m++) if (idleNow[m]) idle.add(m);
          core.place(
            now,
            jobs,
            {
              idle: (m) => idle.has(m),
              next: (from) => {
                for (let m = from; m < n; m++) if (idle.has(m)) return m;
                return -1;
              },
            },
            (job, m) => {
              gotAsked.push(`${job.id}@${m}`);
              return ok(job, m);
            },
            (job, m) => {
              got.push([job.id, m]);
              idle.delete(m);
              running.set(job.id, m);
            },
            listUpTo,
          );
          expect(got).toEqual(want);
          expect(gotAsked).toEqual(wantAsked);
          expect(asked).toEqual(wantLevels);
        }
      }),
      { numRuns: 300 },
    );
  });
});
