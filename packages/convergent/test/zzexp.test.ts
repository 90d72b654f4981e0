import { it } from "vitest";
import { convergentExperiment, experimentTable } from "../src/index.js";

it("exp", () => {
  const t0 = performance.now();
  const r = convergentExperiment({ interArrivals: [4, 10, 20], runs: 1 });
  console.log(experimentTable(r.summary));
  console.log("wall", ((performance.now() - t0) / 1000).toFixed(0), "s");
}, 3000000);
