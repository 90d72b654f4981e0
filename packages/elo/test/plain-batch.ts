import type { Job, Platform, Scheduler, SchedulingContext } from "@sched/core";
import { fitsMachine } from "@sched/core";
import { canStartNow, isIdle, isReady, NO_MACHINE } from "../src/eligibility.js";
import { jobSize } from "../src/expected-time.js";
import { greedyPicks as oracle } from "./greedy-oracle.js";

// The plain batch scheduler, the oracle of batch-scheduler.property.test.ts and
// few-classes.property.test.ts: every machine looked at per event, the expected times with
// Infinity where a job does not fit, every arrival checked machine by machine, and the greedy of
// greedy-oracle.ts.

/** The plain batch scheduler (Min-Min, or Max-Min with `largest`). */
export function plainBatch(largest: boolean): Scheduler {
  let platformSeen: Platform | null = null;
  const started = new Map<number, { machine: number; start: number; job: Job }>();
  return {
    name: largest ? "plain max-min" : "plain min-min",
    reset(platform) {
      platformSeen = platform;
      started.clear();
    },
    schedule(ctx: SchedulingContext): void {
      const { view } = ctx;
      const platform = view.platform;
      if (platformSeen !== platform) this.reset!(platform);
      const now = view.now;
      const m = platform.machines.length;
      for (const job of ctx.completed) started.delete(job.id);
      for (const job of ctx.arrived) {
        let any = false;
        for (let j = 0; j < m; j++) any ||= fitsMachine(job, platform, j);
        if (!any) ctx.reject(job.id, NO_MACHINE);
      }
      const idle = new Uint8Array(m);
      let idleCount = 0;
      for (let j = 0; j < m; j++) {
        if (isIdle(view, j)) {
          idle[j] = 1;
          idleCount++;
        }
      }
      if (idleCount === 0) return;
      const jobs: Job[] = [];
      for (const w of view.waiting) if (isReady(w.job, now)) jobs.push(w.job);
      if (jobs.length === 0) return;
      const speed = (j: number): number => platform.machines[j]!.speed;
      const ready = new Float64Array(m).fill(now);
      for (const s of started.values()) {
        const end = s.start + jobSize(s.job, platform) / speed(s.machine);
        if (end > ready[s.machine]!) ready[s.machine] = end;
      }
      const etc = new Float64Array(jobs.length * m).fill(Number.POSITIVE_INFINITY);
      jobs.forEach((job, i) => {
        for (let j = 0; j < m; j++) {
          if (fitsMachine(job, platform, j)) etc[i * m + j] = jobSize(job, platform) / speed(j);
        }
      });
      const mapping = oracle(jobs.length, m, etc, ready, largest, idle);
      const taken = new Uint8Array(m);
      for (const i of mapping.order) {
        const j = mapping.machineOf[i]!;
        if (taken[j] === 1) continue;
        taken[j] = 1;
        const job = jobs[i]!;
        if (!canStartNow(job, j, view)) continue;
        ctx.start(job.id, [{ machine: j, cores: job.cores }]);
        started.set(job.id, { machine: j, start: now, job });
      }
    },
  };
}
