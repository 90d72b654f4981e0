import { it } from "vitest";
import { mfs, imfs, mis } from "@sched/matching";
import { paperWorkload, paperHeuristics, buildMatrix, makePlan, type MatrixJob } from "../src/index.js";

it("scratch2", () => {
  const { platform, jobs } = paperWorkload({ seed: 1, interArrival: 4, jobs: 1000 });
  const rows: MatrixJob[] = jobs.map((job) => ({ job, progress: 0, machine: -1 }));
  const now = jobs[jobs.length - 1].submit;
  const hs = paperHeuristics();
  const built = buildMatrix({ now, platform, jobs: rows }, []);
  for (const h of hs) {
    const p = new Float64Array(rows.length * 150);
    const t0 = performance.now();
    for (let r = 0; r < 5; r++) h.apply(built.context, p);
    console.log(h.name, ((performance.now() - t0) / 5).toFixed(2), "ms");
  }
  let t0 = performance.now();
  const m = buildMatrix({ now, platform, jobs: rows }, hs);
  console.log("build", (performance.now() - t0).toFixed(2));
  t0 = performance.now();
  const plan = makePlan(m, { matcher: "mis" });
  console.log("plan mis", (performance.now() - t0).toFixed(2), plan.cleared.length);
  t0 = performance.now();
  const w = { rows: m.rows, cols: m.cols, weights: plan.weights };
  const a = mfs(w);
  console.log("mfs", (performance.now() - t0).toFixed(2), a.size);
  t0 = performance.now();
  mis(w);
  console.log("mis", (performance.now() - t0).toFixed(2));
  const w2 = Float64Array.from(plan.weights); for (let k = 0; k < 150; k++) w2[k] += 1;
  t0 = performance.now();
  imfs({ rows: m.rows, cols: m.cols, weights: w2 }, a);
  console.log("imfs", (performance.now() - t0).toFixed(2));
}, 600000);
