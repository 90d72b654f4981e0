import { simulate, checkSchedule } from "@sched/core";
import { it } from "vitest";
import { convergentVariant, paperWorkload, paperMetrics } from "../src/index.js";

it("scratch", () => {
  for (const ta of [10]) {
    const { platform, jobs } = paperWorkload({ seed: 1, interArrival: ta, jobs: 300 });
    for (const v of ["CS_ip", "CS_nip"] as const) {
      const s = convergentVariant(v);
      const t0 = performance.now();
      const trace = simulate(jobs, platform, s);
      const ms = performance.now() - t0;
      console.log(ta, v, ms.toFixed(0), "ms", JSON.stringify(paperMetrics(trace)), JSON.stringify(s.stats), trace.stats.decisions, checkSchedule(trace).length);
    }
  }
}, 600000);
