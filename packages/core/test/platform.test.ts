import { describe, expect, it } from "vitest";
import {
  createPlatform,
  InvalidInputError,
  identicalPool,
  validatePlatform,
} from "../src/index.js";

describe("createPlatform", () => {
  it("fills defaults: 1 core, speed 1, cluster 0, referenceSpeed 1, names, totalCores", () => {
    const p = createPlatform({ machines: [{ cores: 4, speed: 2 }, {}] });
    expect(p.machines).toEqual([
      { id: 0, name: "m0", cores: 4, speed: 2, cluster: 0 },
      { id: 1, name: "m1", cores: 1, speed: 1, cluster: 0 },
    ]);
    expect(p.totalCores).toBe(5);
    expect(p.referenceSpeed).toBe(1);
    expect(p.clusters).toEqual([{ id: 0, name: "c0" }]);
    expect(p.licenses).toEqual([]);
    expect(p.links).toEqual([]);
    expect(Object.isFrozen(p)).toBe(true);
  });

  it("keeps licenses, clusters and links, sorting and de-duplicating license machines", () => {
    const p = createPlatform({
      machines: [{ cluster: 1 }, { cluster: 0 }],
      clusters: [{ name: "a" }, { name: "b", link: 0 }],
      links: [{ bandwidth: 1e9 }],
      licenses: [
        { name: "f", copies: 2 },
        { name: "n", kind: "node-locked", copies: 1, machines: [1, 0, 1] },
      ],
      referenceSpeed: 400,
    });
    expect(p.licenses).toEqual([
      { name: "f", kind: "floating", copies: 2 },
      { name: "n", kind: "node-locked", copies: 1, machines: [0, 1] },
    ]);
    expect(p.clusters).toEqual([
      { id: 0, name: "a" },
      { id: 1, name: "b", link: 0 },
    ]);
    expect(p.links).toEqual([{ id: 0, bandwidth: 1e9, latency: 0 }]);
    expect(p.referenceSpeed).toBe(400);
  });

  it("does not mutate the spec", () => {
    const spec = { machines: [{ cores: 2 }], licenses: [{ name: "x", copies: 1, machines: [0] }] };
    const copy = structuredClone(spec);
    createPlatform(spec);
    expect(spec).toEqual(copy);
  });

  it.each([
    [{ machines: [] }, "spec.machines is empty"],
    [{ machines: [{ cores: 0 }] }, "spec.machines[0].cores is 0, expected an integer >= 1"],
    [{ machines: [{ speed: Number.NaN }] }, "spec.machines[0].speed is NaN"],
    [{ machines: [{}], referenceSpeed: -1 }, "spec.referenceSpeed is -1"],
    [
      { machines: [{ cluster: 2 }], clusters: [{}] },
      "spec.machines[0].cluster is 2, but the platform has 1 clusters",
    ],
    [
      { machines: [{ cluster: 1 }], clusters: [{}] },
      "spec.machines[0].cluster is 1, but the platform has 1 clusters",
    ],
    [
      { machines: [{}], clusters: [{ link: 0 }] },
      "spec.clusters[0].link is 0, but the platform has 0 links",
    ],
    [
      { machines: [{}], licenses: [{ name: "n", kind: "node-locked", copies: 1 }] },
      "spec.licenses[0].machines is missing",
    ],
    [
      { machines: [{}], licenses: [{ name: "f", copies: 1, machines: [3] }] },
      "spec.licenses[0].machines[0] is 3, but the platform has 1 machines",
    ],
    [
      {
        machines: [{}],
        licenses: [
          { name: "f", copies: 1 },
          { name: "f", copies: 1 },
        ],
      },
      'spec.licenses[1].name is "f", a duplicate',
    ],
  ])("throws InvalidInputError naming the field: %j", (spec, message) => {
    expect(() => createPlatform(spec as never)).toThrow(InvalidInputError);
    expect(() => createPlatform(spec as never)).toThrow(`@sched/core/createPlatform: ${message}`);
  });
});

describe("identicalPool", () => {
  it("builds n single-core machines of speed 1", () => {
    const p = identicalPool(3);
    expect(p.totalCores).toBe(3);
    expect(p.machines.every((m) => m.cores === 1 && m.speed === 1 && m.cluster === 0)).toBe(true);
    expect(p.machines.map((m) => m.id)).toEqual([0, 1, 2]);
  });

  it("accepts cores per machine, speed and licenses", () => {
    const p = identicalPool(2, { cores: 4, speed: 3, licenses: [{ name: "l", copies: 1 }] });
    expect(p.totalCores).toBe(8);
    expect(p.machines[1]!.speed).toBe(3);
    expect(p.licenses).toHaveLength(1);
  });

  it("throws for n < 1", () => {
    expect(() => identicalPool(0)).toThrow(
      "@sched/core/identicalPool: n is 0, expected an integer >= 1",
    );
  });

  it("refuses more than 2^24 machines with a typed error, not a fatal out-of-memory", () => {
    // 10^9 single-core machines used to die in Array.fill (not catchable).
    for (const n of [2 ** 24 + 1, 1e9]) {
      expect(() => identicalPool(n)).toThrow(
        `@sched/core/identicalPool: n is ${n}, expected at most 16777216 machines (2^24;`,
      );
    }
    // The way round it the message gives: fewer machines, more cores each.
    expect(identicalPool(1000, { cores: 1_000_000 }).totalCores).toBe(1e9);
  });
});

describe("validatePlatform", () => {
  it("accepts a built platform and rejects an inconsistent one", () => {
    const p = identicalPool(2);
    expect(validatePlatform(p)).toBe(p);
    expect(() => validatePlatform({ ...p, totalCores: 5 })).toThrow(
      "platform.totalCores is 5, but the machines have 2 cores",
    );
  });
});

describe("validatePlatform at its bounds", () => {
  const p = createPlatform({ machines: [{}, {}] });
  it.each([
    [
      { ...p, machines: [p.machines[0], { ...p.machines[1]!, cluster: 1 }] },
      "platform.machines[1].cluster is 1, but the platform has 1 clusters",
    ],
    [{ ...p, machines: [], totalCores: 0 }, "platform.machines is empty"],
    [
      { ...p, licenses: [{ name: "f", kind: "floating", copies: 1, machines: [2] }] },
      "platform.licenses[0].machines[0] is 2, not a machine index (the platform has 2 machines)",
    ],
  ])("refuses what createPlatform never builds: %j", (platform, message) => {
    expect(() => validatePlatform(platform as never)).toThrow(InvalidInputError);
    expect(() => validatePlatform(platform as never)).toThrow(
      `@sched/core/validatePlatform: ${message}`,
    );
  });

  it("accepts what createPlatform builds: a license of 0 copies", () => {
    const built = createPlatform({ machines: [{}], licenses: [{ name: "x", copies: 0 }] });
    const copy = { ...built };
    expect(validatePlatform(copy)).toBe(copy);
  });
});

describe("counts the ledger cannot hold", () => {
  // The ledger counts free cores and node-locked copies in 32-bit integers: a machine of 2^31
  // cores used to wrap around, and a job of 2^31 cores on it was silently never started.
  it("createPlatform refuses a machine of 2^31 cores, naming it", () => {
    expect(() => identicalPool(1, { cores: 2 ** 31 })).toThrow(
      "@sched/core/createPlatform: spec.machines[0].cores is 2147483648, expected at most 2147483647",
    );
    expect(() => createPlatform({ machines: [{ cores: 2 }, { cores: 1e12 }] })).toThrow(
      InvalidInputError,
    );
    expect(identicalPool(1, { cores: 2 ** 31 - 1 }).totalCores).toBe(2 ** 31 - 1);
  });

  it("createPlatform refuses 2^31 copies of a license", () => {
    expect(() =>
      createPlatform({ machines: [{}], licenses: [{ name: "l", copies: 2 ** 31 }] }),
    ).toThrow("spec.licenses[0].copies is 2147483648, expected at most 2147483647");
  });

  it("validatePlatform refuses them in a platform built by hand", () => {
    const p = identicalPool(1);
    const machine = { ...p.machines[0], cores: 2 ** 31 } as (typeof p.machines)[0];
    expect(() => validatePlatform({ ...p, machines: [machine], totalCores: 2 ** 31 })).toThrow(
      "platform.machines[0].cores is 2147483648, expected at most 2147483647",
    );
    const l = { name: "l", kind: "floating", copies: 2 ** 31 } as const;
    expect(() => validatePlatform({ ...p, licenses: [l] })).toThrow(
      "platform.licenses[0].copies is 2147483648, expected at most 2147483647",
    );
  });
});
