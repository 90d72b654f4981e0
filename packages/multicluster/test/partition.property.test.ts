import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  adaptivePartitionSize,
  CLUSTER_SELECTIONS,
  dynamicPartitionSize,
  fitnessFactors,
  selectProcessors,
  taskBunches,
} from "../src/partition.js";
import { multiClusterPlatform } from "../src/platform.js";

describe("partition size (eq. 2)", () => {
  it("matches the formula on hand cases", () => {
    expect(dynamicPartitionSize({ processors: 64, queued: 0, executing: 0 })).toBe(64);
    expect(dynamicPartitionSize({ processors: 64, queued: 3, executing: 2 })).toBe(13);
    expect(dynamicPartitionSize({ processors: 64, queued: 1, executing: 1 })).toBe(26); // ceil(64 / 2.5) = 25.6 -> 26
    expect(adaptivePartitionSize(64, 3)).toBe(16);
    expect(adaptivePartitionSize(64, 200)).toBe(1);
  });
  it("is in [1, P], non-increasing in queued and executing, and never above the adaptive size", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 512 }), fc.nat(100), fc.nat(100), (P, q, e) => {
        const s = dynamicPartitionSize({ processors: P, queued: q, executing: e });
        expect(s).toBeGreaterThanOrEqual(1);
        expect(s).toBeLessThanOrEqual(P);
        expect(
          dynamicPartitionSize({ processors: P, queued: q + 1, executing: e }),
        ).toBeLessThanOrEqual(s);
        expect(
          dynamicPartitionSize({ processors: P, queued: q, executing: e + 1 }),
        ).toBeLessThanOrEqual(s);
        expect(s).toBeLessThanOrEqual(adaptivePartitionSize(P, q));
        // the ceiling: s is the smallest integer with s * denominator >= P (unless clamped at 1)
        const d = q + 1 + 0.5 * e;
        if (s > 1) expect((s - 1) * d).toBeLessThan(P);
        expect(s * d).toBeGreaterThanOrEqual(Math.min(P, d));
      }),
      { numRuns: 200 },
    );
  });
});

describe("fitness factors and bunches (eq. 3-4)", () => {
  it("ff = speed * MPL / slowest", () => {
    expect([...fitnessFactors([1, 2, 4], 2)]).toEqual([2, 4, 8]);
    expect([...taskBunches([2, 4, 2], 8)]).toEqual([2, 4, 2]);
    expect([...taskBunches([1, 1, 1], 4)]).toEqual([2, 1, 1]);
  });
  it("bunches add up to the tasks, give each processor >= 1, and follow the weights within one task", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 16 }),
        fc.nat(64),
        (w, extra) => {
          const tasks = w.length + extra;
          const b = taskBunches(w, tasks);
          expect(b.reduce((s, x) => s + x, 0)).toBe(tasks);
          const sum = w.reduce((s, x) => s + x, 0);
          for (let i = 0; i < w.length; i++) {
            expect(b[i]).toBeGreaterThanOrEqual(1);
            const exact = (w[i]! * tasks) / sum;
            if (exact >= 1) expect(Math.abs(b[i]! - exact)).toBeLessThan(1 + 1e-9 + w.length);
          }
          // heavier weight never gets fewer tasks than a lighter one, when neither is clamped
          for (let i = 0; i < w.length; i++) {
            for (let j = 0; j < w.length; j++) {
              if (w[i]! > w[j]! && (w[j]! * tasks) / sum >= 1) {
                expect(b[i]).toBeGreaterThanOrEqual(b[j]!);
              }
            }
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("processor selection", () => {
  const arb = fc
    .record({
      sizes: fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 5 }),
      speeds: fc.array(fc.constantFrom(1, 2, 3), { minLength: 5, maxLength: 5 }),
    })
    .chain(({ sizes, speeds }) => {
      const platform = multiClusterPlatform(sizes.map((n, k) => ({ nodes: n, speed: speeds[k]! })));
      const P = platform.machines.length;
      return fc.record({
        platform: fc.constant(platform),
        available: fc.array(fc.integer({ min: 0, max: 1 }), { minLength: P, maxLength: P }),
        count: fc.integer({ min: 1, max: P }),
      });
    });
  it("picks distinct available processors, in one cluster whenever one can hold them, else none", () => {
    fc.assert(
      fc.property(
        arb,
        fc.constantFrom(...CLUSTER_SELECTIONS),
        ({ platform, available, count }, cluster) => {
          const pm = platform.machines.map((m) => m.id);
          const chosen = selectProcessors(platform, pm, available, count, { cluster });
          const total = available.reduce((s, x) => s + x, 0);
          if (total < count) {
            expect(chosen).toBeNull();
            return;
          }
          expect(chosen).not.toBeNull();
          const c = chosen!;
          expect(c.length).toBe(count);
          expect(new Set(c).size).toBe(count);
          for (const p of c) expect(available[p]).toBe(1);
          const perCluster = new Map<number, number>();
          available.forEach((a, p) => {
            if (a) {
              const k = platform.machines[p]!.cluster;
              perCluster.set(k, (perCluster.get(k) ?? 0) + 1);
            }
          });
          const fits = [...perCluster.values()].some((n) => n >= count);
          const used = new Set(c.map((p) => platform.machines[p]!.cluster));
          if (fits) expect(used.size).toBe(1);
          else {
            // every cluster used but the last one in proximity order is used completely
            expect(used.size).toBeGreaterThan(1);
          }
          // inside each used cluster, no unchosen available processor is faster than a chosen one
          for (const k of used) {
            const chosenSpeeds = c
              .filter((p) => platform.machines[p]!.cluster === k)
              .map((p) => platform.machines[p]!.speed);
            const minChosen = Math.min(...chosenSpeeds);
            available.forEach((a, p) => {
              if (a && !c.includes(p) && platform.machines[p]!.cluster === k) {
                expect(platform.machines[p]!.speed).toBeLessThanOrEqual(minChosen);
              }
            });
          }
        },
      ),
      { numRuns: 200 },
    );
  });
  it("prefers the nearest clusters when it must spread", () => {
    const p = multiClusterPlatform([{ nodes: 2 }, { nodes: 2 }, { nodes: 3 }, { nodes: 2 }]);
    const pm = p.machines.map((m) => m.id);
    // all available: 4 fits cluster... no: clusters hold 2, 2, 3, 2; need 4 -> start at cluster 2 (most), then 1, then 3
    expect(selectProcessors(p, pm, new Uint8Array(9).fill(1), 4)).toEqual([4, 5, 6, 2]);
  });
  it("takes the cluster its clusterSelection names when several have enough", () => {
    // clusters: 0 = 4 processors at speed 1, 1 = 3 at speed 2, 2 = 2 at speed 3; need 2
    const p = multiClusterPlatform([
      { nodes: 4, speed: 1 },
      { nodes: 3, speed: 2 },
      { nodes: 2, speed: 3 },
    ]);
    const pm = p.machines.map((m) => m.id);
    const all = new Uint8Array(9).fill(1);
    expect(selectProcessors(p, pm, all, 2)).toEqual([7, 8]); // fastest: cluster 2 (3 + 3)
    expect(selectProcessors(p, pm, all, 2, { cluster: "fastest" })).toEqual([7, 8]);
    expect(selectProcessors(p, pm, all, 2, { cluster: "lowest-index" })).toEqual([0, 1]);
    expect(selectProcessors(p, pm, all, 2, { cluster: "best-fit" })).toEqual([7, 8]); // 2 idle: fewest
    // need 3: cluster 2 cannot; best-fit takes cluster 1 (3 idle), fastest too (6 > 3)
    expect(selectProcessors(p, pm, all, 3, { cluster: "best-fit" })).toEqual([4, 5, 6]);
    // cluster 2 busy, cluster 1 down to 2 idle, need 2: best-fit cluster 1, lowest-index cluster 0
    const some = Uint8Array.of(1, 1, 1, 1, 1, 1, 0, 0, 0);
    expect(selectProcessors(p, pm, some, 2, { cluster: "best-fit" })).toEqual([4, 5]);
    expect(selectProcessors(p, pm, some, 2, { cluster: "lowest-index" })).toEqual([0, 1]);
    // best-fit against fastest: cluster 0 with 2 idle, cluster 1 with 3 idle, need 2
    const fit = Uint8Array.of(1, 1, 0, 0, 1, 1, 1, 0, 0);
    expect(selectProcessors(p, pm, fit, 2, { cluster: "best-fit" })).toEqual([0, 1]);
    expect(selectProcessors(p, pm, fit, 2, { cluster: "fastest" })).toEqual([4, 5]);
  });
  it("rejects an unknown cluster rule, naming the option", () => {
    const p = multiClusterPlatform([{ nodes: 2 }]);
    expect(() =>
      selectProcessors(p, [0, 1], Uint8Array.of(1, 1), 1, { cluster: "x" as never }),
    ).toThrow(
      '@sched/multicluster/selectProcessors: options.cluster is "x", expected one of "fastest", "best-fit", "lowest-index"',
    );
  });
});
