import { describe, expect, it } from "vitest";
import { convergentWorkload } from "../src/convergent.js";
import { multiclusterWorkload } from "../src/multicluster.js";

// A spread of every machine's cores or every cluster's speed into Math.max/Math.min overflowed
// the call stack from about 130,000 arguments on: `sched-sim gen convergent --machines 999999`
// ended in "internal error: Maximum call stack size exceeded".
describe("platforms far larger than a call stack's arguments", () => {
  it("convergentWorkload takes the largest machine's cores over 999,999 machines (the CLI's limit)", () => {
    const w = convergentWorkload({ machines: 999_999, licenses: 0, jobs: 20, cpus: [1, 3] });
    expect(w.platform.machines).toHaveLength(999_999);
    let most = 0;
    for (const m of w.platform.machines) most = Math.max(most, m.cores);
    for (const j of w.jobs) expect(j.cores).toBeLessThanOrEqual(most);
  });

  it("multiclusterWorkload takes the slowest cluster's speed over 400,000 clusters", () => {
    const w = multiclusterWorkload({
      clusters: 400_000,
      processorsPerCluster: 1,
      jobs: 5,
      speeds: "heterogeneous",
    });
    expect(w.platform.machines).toHaveLength(400_000);
    let slowest = Number.POSITIVE_INFINITY;
    for (const m of w.platform.machines) slowest = Math.min(slowest, m.speed);
    expect(w.platform.referenceSpeed).toBe(slowest);
  });
});
