import { createPlatform, type Platform } from "@sched/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  adaptivePartitionSize,
  CLUSTER_PROXIMITIES,
  CLUSTER_SELECTIONS,
  type ClusterProximity,
  type ClusterSelection,
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
  it("spreads a job no cluster holds as its proximity reading says (line, fewest-clusters, fastest)", () => {
    // clusters: 0 = 3 at speed 1 (processors 0-2), 1 = 1 at speed 1 (3), 2 = 4 at speed 1 (4-7),
    // 3 = 1 at speed 3 (8), 4 = 2 at speed 2 (9, 10); all available. Every reading starts at
    // cluster 2 (the most available) and takes all 4.
    const p = multiClusterPlatform([
      { nodes: 3, speed: 1 },
      { nodes: 1, speed: 1 },
      { nodes: 4, speed: 1 },
      { nodes: 1, speed: 3 },
      { nodes: 2, speed: 2 },
    ]);
    const pm = p.machines.map((m) => m.id);
    const all = new Uint8Array(11).fill(1);
    const on = (count: number, proximity?: (typeof CLUSTER_PROXIMITIES)[number]) =>
      selectProcessors(p, pm, all, count, proximity === undefined ? {} : { proximity });
    // need 6: line takes clusters 1 and 3 (distance 1, lower index first); fewest-clusters
    // cluster 0 (3 available, the next largest); fastest processors 8 (speed 3) and 9 (speed 2)
    expect(on(6)).toEqual([4, 5, 6, 7, 3, 8]);
    expect(on(6, "line")).toEqual([4, 5, 6, 7, 3, 8]);
    expect(on(6, "fewest-clusters")).toEqual([4, 5, 6, 7, 0, 1]);
    expect(on(6, "fastest")).toEqual([4, 5, 6, 7, 8, 9]);
    // need 8: line spans 4 clusters (2, 1, 3, then 0 at distance 2), fewest-clusters 3 (2, 0,
    // then 4), fastest 4 (8, 9, 10, then the lowest-index speed-1 processor)
    expect(on(8, "line")).toEqual([4, 5, 6, 7, 3, 8, 0, 1]);
    expect(on(8, "fewest-clusters")).toEqual([4, 5, 6, 7, 0, 1, 2, 9]);
    expect(on(8, "fastest")).toEqual([4, 5, 6, 7, 8, 9, 10, 0]);
    // when one cluster holds the job, the reading changes nothing (clusters 0 and 2 tie at 3
    // speed-1 processors: the lower index)
    for (const proximity of CLUSTER_PROXIMITIES) expect(on(3, proximity)).toEqual([0, 1, 2]);
  });
  it("every proximity reading: count distinct available processors, the first cluster whole and first, the same count outside it", () => {
    fc.assert(
      fc.property(
        arb,
        fc.constantFrom(...CLUSTER_SELECTIONS),
        ({ platform, available, count }, cluster) => {
          const pm = platform.machines.map((m) => m.id);
          const clusterOf = (q: number) => platform.machines[q]!.cluster;
          const perCluster = new Array<number>(platform.clusters.length).fill(0);
          available.forEach((a, q) => {
            if (a) perCluster[clusterOf(q)]! += 1;
          });
          const total = perCluster.reduce((s, x) => s + x, 0);
          const fits = perCluster.some((n) => n >= count);
          // the first cluster: the most available, ties lower index
          const first = perCluster.indexOf(Math.max(...perCluster));
          const outside = new Set<number>();
          for (const proximity of CLUSTER_PROXIMITIES) {
            const chosen = selectProcessors(platform, pm, available, count, { cluster, proximity });
            if (total < count) {
              expect(chosen).toBeNull();
              continue;
            }
            const c = chosen!;
            expect(c).toHaveLength(count);
            expect(new Set(c).size).toBe(count);
            for (const q of c) expect(available[q]).toBe(1);
            if (fits) {
              // step 1 decides: the reading changes nothing
              expect(c).toEqual(selectProcessors(platform, pm, available, count, { cluster }));
              continue;
            }
            const n = perCluster[first]!;
            expect(c.slice(0, n).every((q) => clusterOf(q) === first)).toBe(true);
            expect(c.slice(n).some((q) => clusterOf(q) === first)).toBe(false);
            outside.add(c.filter((q) => clusterOf(q) !== first).length);
            const rest = c.slice(n);
            const used = new Set(rest.map(clusterOf));
            const unchosen = available
              .map((a, q) => (a && !c.includes(q) ? q : -1))
              .filter((q) => q >= 0 && clusterOf(q) !== first);
            if (proximity === "fastest") {
              // no unchosen processor outside the first cluster is faster than a chosen one there
              const slowest = Math.min(...rest.map((q) => platform.machines[q]!.speed));
              for (const q of unchosen) {
                expect(platform.machines[q]!.speed).toBeLessThanOrEqual(slowest);
              }
            } else if (proximity === "line") {
              // no cluster with unchosen processors is nearer by index than a used one
              const far = Math.max(...[...used].map((k) => Math.abs(k - first)));
              for (const q of unchosen) {
                if (!used.has(clusterOf(q))) {
                  expect(Math.abs(clusterOf(q) - first)).toBeGreaterThanOrEqual(far);
                }
              }
            } else {
              // the fewest clusters that can hold the job: the largest ones first
              const sorted = [...perCluster].sort((a, b) => b - a);
              let need = 0;
              for (let held = 0; held < count; need++) held += sorted[need]!;
              expect(used.size + 1).toBe(need);
            }
          }
          // the processors outside the root's cluster (what eq. 5's inter-cluster messages
          // cost) are as many under every reading
          expect(outside.size).toBeLessThanOrEqual(1);
        },
      ),
      { numRuns: 300 },
    );
  });
  it("selects what the plain definition selects (every rule and reading, clusters of mixed speeds)", () => {
    // Machines of 1-4 clusters, speeds 1-3 mixed inside a cluster (or all equal), any
    // availability; the plain definition written from the documentation of selectProcessors.
    const cases = fc
      .record({
        machines: fc.array(
          fc.record({ cluster: fc.integer({ min: 0, max: 3 }), speed: fc.constantFrom(1, 2, 3) }),
          { minLength: 1, maxLength: 12 },
        ),
        equal: fc.boolean(),
      })
      .chain(({ machines, equal }) => {
        // cluster indices 0..K-1 all used: renumber in order of first use
        const ids = new Map<number, number>();
        for (const m of machines) if (!ids.has(m.cluster)) ids.set(m.cluster, ids.size);
        const platform = createPlatform({
          machines: machines.map((m) => ({
            cluster: ids.get(m.cluster)!,
            speed: equal ? 1 : m.speed,
          })),
        });
        const P = platform.machines.length;
        return fc.record({
          platform: fc.constant(platform),
          available: fc.array(fc.integer({ min: 0, max: 1 }), { minLength: P, maxLength: P }),
          count: fc.integer({ min: 1, max: P }),
          cluster: fc.constantFrom(...CLUSTER_SELECTIONS),
          proximity: fc.constantFrom(...CLUSTER_PROXIMITIES),
        });
      });
    fc.assert(
      fc.property(cases, ({ platform, available, count, cluster, proximity }) => {
        const pm = platform.machines.map((m) => m.id);
        const got = selectProcessors(platform, pm, available, count, { cluster, proximity });
        expect(got).toEqual(plainSelection(platform, available, count, cluster, proximity));
      }),
      { numRuns: 500 },
    );
  });
  it("rejects an unknown proximity reading, naming the option", () => {
    const p = multiClusterPlatform([{ nodes: 2 }]);
    expect(() =>
      selectProcessors(p, [0, 1], Uint8Array.of(1, 1), 1, { proximity: "near" as never }),
    ).toThrow(
      '@sched/multicluster/selectProcessors: options.proximity is "near", expected one of "line", "fewest-clusters", "fastest"',
    );
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

/**
 * selectProcessors' plain definition: each cluster's available processors fastest first (ties:
 * lower index); (1) a cluster holding `count`: the first by index (`"lowest-index"`), the one
 * whose first `count` are fastest in total (`"fastest"`; ties: lower index), or the fewest
 * available (`"best-fit"`; ties: as `"fastest"`), its first `count`; else (2) the cluster with
 * the most available (ties: lower index) whole, then by `proximity`.
 */
function plainSelection(
  platform: Platform,
  available: readonly number[],
  count: number,
  rule: ClusterSelection,
  proximity: ClusterProximity,
): number[] | null {
  const speed = (p: number) => platform.machines[p]!.speed;
  const fastestFirst = (a: number, b: number) => speed(b) - speed(a) || a - b;
  const K = platform.clusters.length;
  const byCluster: number[][] = Array.from({ length: K }, () => []);
  available.forEach((a, p) => {
    if (a) byCluster[platform.machines[p]!.cluster]!.push(p);
  });
  for (const list of byCluster) list.sort(fastestFirst);
  if (byCluster.reduce((s, l) => s + l.length, 0) < count) return null;
  const power = (k: number) => byCluster[k]!.slice(0, count).reduce((s, p) => s + speed(p), 0);
  const holding = byCluster.map((_, k) => k).filter((k) => byCluster[k]!.length >= count);
  if (holding.length > 0) {
    const key = (k: number): number[] =>
      rule === "lowest-index"
        ? [k]
        : rule === "fastest"
          ? [-power(k), k]
          : [byCluster[k]!.length, -power(k), k];
    const less = (a: number[], b: number[]) => {
      for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! < b[i]!;
      return false;
    };
    let best = holding[0]!;
    for (const k of holding) if (less(key(k), key(best))) best = k;
    return byCluster[best]!.slice(0, count);
  }
  let first = 0;
  for (let k = 0; k < K; k++) if (byCluster[k]!.length > byCluster[first]!.length) first = k;
  const others = byCluster.map((_, k) => k).filter((k) => k !== first);
  const distance = (k: number) => Math.abs(k - first);
  let rest: number[];
  if (proximity === "fastest") rest = others.flatMap((k) => byCluster[k]!).sort(fastestFirst);
  else {
    others.sort((a, b) =>
      proximity === "line"
        ? distance(a) - distance(b) || a - b
        : byCluster[b]!.length - byCluster[a]!.length || distance(a) - distance(b) || a - b,
    );
    rest = others.flatMap((k) => byCluster[k]!);
  }
  return [...byCluster[first]!, ...rest].slice(0, count);
}
