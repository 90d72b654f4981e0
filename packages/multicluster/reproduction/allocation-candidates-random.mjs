// How often the heuristics' candidate set (allocationCandidates) changes a run beyond the
// paper's batches: random 8-job batches (@sched/workload's oasWorkload, WL-3, seeds 1..N), the
// six rules link-aware, each reading's makespan against the union's. Deterministic.
// Run from packages/multicluster after a build: node reproduction/allocation-candidates-random.mjs [N]
import { computeMetrics, simulate } from "@sched/core";
import { OAS_RULES, oasExecutionModel, oasHeuristic } from "@sched/multicluster";
import { oasWorkload } from "@sched/workload";

const seeds = Number(process.argv[2] ?? 200);
for (const bandwidth of ["moderate", "heavy"]) {
  const stat = {};
  for (const c of ["fastest", "exhaustive"])
    stat[c] = { longer: 0, shorter: 0, rejected: 0, ratios: [] };
  let runs = 0;
  for (let seed = 1; seed <= seeds; seed++) {
    const w = oasWorkload({ workload: "WL-3", jobs: 8, bandwidth, seed });
    const bsp = new Map(w.jobs.map((j, i) => [j.id, w.bsp[i]]));
    const profile = (job) => ({
      sigma: bsp.get(job.id).sigma,
      ptbw: bsp.get(job.id).perTaskBandwidth,
    });
    const executionModel = oasExecutionModel({ profile });
    for (const rule of OAS_RULES) {
      const run = (allocationCandidates) => {
        const t = simulate(
          w.jobs,
          w.platform,
          oasHeuristic(rule, { profile, allocationCandidates }),
          {
            executionModel,
          },
        );
        const rejected = t.records.some((r) => r.outcome !== "completed");
        return { makespan: computeMetrics(t).makespan, rejected };
      };
      const union = run("union").makespan;
      runs++;
      for (const c of ["fastest", "exhaustive"]) {
        const r = run(c);
        const s = stat[c];
        if (r.rejected) s.rejected++;
        else {
          if (r.makespan > union) s.longer++;
          if (r.makespan < union) s.shorter++;
          s.ratios.push(r.makespan / union);
        }
      }
    }
  }
  for (const [c, s] of Object.entries(stat)) {
    const r = s.ratios.sort((a, b) => a - b);
    const mean = r.reduce((a, b) => a + b, 0) / r.length;
    console.log(
      `${bandwidth}, ${c}: ${runs} runs; longer ${s.longer}, shorter ${s.shorter}, with a rejected job ${s.rejected}; makespan / union's: mean ${mean.toFixed(4)}, min ${r[0].toFixed(3)}, max ${r[r.length - 1].toFixed(3)}`,
    );
  }
}
