/**
 * The license pre-matching at every event, as convergent scheduling runs it on a paper-scale
 * farm: 20 floating licenses with 70-97 copies, jobs asking for 1-8 of them (one copy each, as
 * the generator's records: every license a key, 0 when not asked for), about 670 jobs in the
 * system, and at each event one arrival and one departure, tracked by a persistent
 * LicenseClusters. The shapes match `sched-sim run -s cs-ip` on the t4 farm (1,500 jobs, 150
 * machines): one cluster per event, ~19 critical licenses, ~670 jobs.
 *
 * Environment: PREMATCH_EVENTS (events per iteration, default 200). Deterministic inputs; times
 * depend on the machine and its load.
 */
import { Random } from "@sched/random";
import { bench, describe } from "vitest";
import { LicenseClusters, type LicenseJob, mkpGreedy, preMatch } from "../src/index.js";

const EVENTS = Number(process.env.PREMATCH_EVENTS ?? 200);
const LICENSES = 20;
const IN_SYSTEM = 670;

const random = new Random(7, "knapsack/bench/pre-match");
const names = Array.from({ length: LICENSES }, (_, l) => `l${l}`);
const copies: Record<string, number> = {};
for (const name of names) copies[name] = 70 + Math.floor(28 * random.next());

let nextId = 0;
function newJob(): LicenseJob {
  const asked = 1 + Math.floor(8 * random.next());
  const licenses: Record<string, number> = {};
  for (const name of names) licenses[name] = 0;
  for (let q = 0; q < asked; q++)
    licenses[names[Math.floor(LICENSES * random.next())] as string] = 1;
  return { id: nextId++, licenses };
}

/** The event stream: the jobs in the system at each event (arrival order) and their costs. */
const start: LicenseJob[] = Array.from({ length: IN_SYSTEM }, newJob);
const stream: { readonly jobs: LicenseJob[]; readonly costs: Float64Array }[] = [];
{
  const system = [...start];
  for (let e = 0; e < EVENTS; e++) {
    system.splice(Math.floor(system.length * random.next()), 1);
    system.push(newJob());
    const costs = new Float64Array(system.length);
    for (let i = 0; i < costs.length; i++) costs[i] = 200 + 400 * random.next();
    stream.push({ jobs: [...system], costs });
  }
}

function replay(persistent: boolean): number {
  const lc = new LicenseClusters(copies, start);
  const tracked = new Set(start.map((j) => j.id));
  let cleared = 0;
  for (const { jobs, costs } of stream) {
    if (persistent) {
      const present = new Set(jobs.map((j) => j.id));
      for (const id of tracked) {
        if (!present.has(id)) {
          lc.remove(id);
          tracked.delete(id);
        }
      }
      for (const job of jobs) {
        if (!tracked.has(job.id)) {
          lc.add(job);
          tracked.add(job.id);
        }
      }
    }
    const input = persistent ? { jobs, copies, costs, clusters: lc } : { jobs, copies, costs };
    cleared += preMatch(input).clear.length;
  }
  return cleared;
}

const instances = (() => {
  const last = stream[stream.length - 1];
  return last === undefined ? [] : preMatch({ ...last, copies }).clusters.map((c) => c.instance);
})();

describe(`license pre-matching, ${EVENTS} events of ~${IN_SYSTEM} jobs on ${LICENSES} licenses`, () => {
  bench("preMatch, persistent LicenseClusters (convergent's path)", () => {
    replay(true);
  });
  bench("preMatch, clustering built at each event", () => {
    replay(false);
  });
  bench(`mkpGreedy on one event's knapsack x ${EVENTS}`, () => {
    for (let e = 0; e < EVENTS; e++) for (const inst of instances) mkpGreedy(inst);
  });
});
