import { it } from "vitest";
import { oasExperiment, spaceSharingExperiment } from "../src/experiments.js";
it("probe", async () => {
  let t = performance.now();
  const rows = spaceSharingExperiment({ jobs: 2000 });
  console.log("ss ms", (performance.now() - t).toFixed(0));
  for (const r of rows) console.log("SS", r.policy, r.heterogeneous, r.backgroundLoad, r.load, r.meanResponse.toFixed(2), r.utilization.toFixed(3));
  t = performance.now();
  const o = await oasExperiment({});
  console.log("oas ms", (performance.now() - t).toFixed(0));
  for (const r of o.slots) console.log("SLOT", r.fraction, r.eta.toFixed(1), r.status, r.mipMakespan?.toFixed(1), r.makespan?.toFixed(1), r.compactMakespan?.toFixed(1), r.gap?.toFixed(3), r.solveTimeMs.toFixed(0));
  for (const r of o.comparison) console.log("CMP", r.workload, r.method, r.makespan?.toFixed(1), r.meanResponse?.toFixed(1), r.status ?? "", r.solveTimeMs?.toFixed(0) ?? "");
}, 1200000);
