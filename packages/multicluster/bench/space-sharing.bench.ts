import { bench, describe } from "vitest";
import { multiClusterPlatform } from "../src/platform.js";
import { simulateSpaceSharing } from "../src/space-sharing.js";
import { moldableWorkload } from "../src/workloads.js";

const platform = multiClusterPlatform(
  Array.from({ length: 8 }, (_, k) => ({ nodes: 8, speed: 1 + 0.2 * k })),
);
const jobs = moldableWorkload({ jobs: 2000, load: 0.7, seed: 1 });

// time per decision = run time / result.decisions (printed by the README's table, computed once here)
const d = simulateSpaceSharing(jobs, platform, { policy: "dynamic", backgroundLoad: 0.3 });
const a = simulateSpaceSharing(jobs, platform, { policy: "adaptive", backgroundLoad: 0.3 });
console.log(
  `decisions: dynamic ${d.decisions}, adaptive ${a.decisions} (2000 jobs, 8x8, load 0.7, background 0.3)`,
);

describe("space sharing: 2000 moldable jobs on 8 x 8, load 0.7, background 0.3", () => {
  bench(
    "dynamic",
    () => {
      simulateSpaceSharing(jobs, platform, { policy: "dynamic", backgroundLoad: 0.3 });
    },
    { iterations: 5, time: 0 },
  );
  bench(
    "adaptive",
    () => {
      simulateSpaceSharing(jobs, platform, { policy: "adaptive", backgroundLoad: 0.3 });
    },
    { iterations: 5, time: 0 },
  );
});
