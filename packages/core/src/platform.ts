import {
  describeValue,
  InvalidInputError,
  optionKeys,
  requireArray,
  requireInteger,
  requireKnownKeys,
  requireNonNegative,
  requireObject,
  requireOneOf,
  requirePositive,
} from "@sched/errors";
import type { Cluster, License, Link, Machine, Platform } from "./types.js";

/**
 * The most cores of one machine, and copies of one license: the resource ledger counts them
 * in 32-bit integers, so a larger count would wrap around (a job asking for 2^31 cores of a
 * machine that has them would silently never start). Refused instead, naming the field, by
 * {@link createPlatform}, and by the passes that take a machine's size as an argument.
 */
export const MAX_RESOURCE_COUNT = 2 ** 31 - 1;

/** `requireInteger(where, field, value, min)`, and at most {@link MAX_RESOURCE_COUNT}. */
function requireCount(where: string, field: string, value: unknown, min: number): number {
  const n = requireInteger(where, field, value, min);
  if (n > MAX_RESOURCE_COUNT) {
    throw new InvalidInputError(
      where,
      field,
      `is ${n}, expected at most ${MAX_RESOURCE_COUNT} (2^31 - 1, the most a machine or license holds)`,
    );
  }
  return n;
}

/** A machine to build: every field but `cores` has a default. */
export interface MachineSpec {
  /** Name shown in traces and reports. @defaultValue `"m<index>"` */
  readonly name?: string;
  /** Cores (processors) of the machine, an integer >= 1. @defaultValue `1` */
  readonly cores?: number;
  /** Benchmark figure (only ratios matter). @defaultValue `1` */
  readonly speed?: number;
  /** Index of its cluster in `PlatformSpec.clusters`. @defaultValue `0` */
  readonly cluster?: number;
}

/** The keys of {@link MachineSpec}, all of them (checked by the compiler). */
const MACHINE_KEYS = optionKeys<MachineSpec>({
  name: true,
  cores: true,
  speed: true,
  cluster: true,
});

/** A license to build. */
export interface LicenseSpec {
  readonly name: string;
  /** @defaultValue `"floating"` */
  readonly kind?: "floating" | "node-locked";
  /** Floating: copies in total; node-locked: copies on each machine of `machines`. */
  readonly copies: number;
  /** Machine indices where it is usable; required for node-locked. @defaultValue every machine */
  readonly machines?: readonly number[];
}

/** The keys of {@link LicenseSpec}, all of them (checked by the compiler). */
const LICENSE_KEYS = optionKeys<LicenseSpec>({
  name: true,
  kind: true,
  copies: true,
  machines: true,
});

/** A cluster to build. */
export interface ClusterSpec {
  /** @defaultValue `"c<index>"` */
  readonly name?: string;
  /** Index of its uplink in `PlatformSpec.links`. @defaultValue none */
  readonly link?: number;
}

/** The keys of {@link ClusterSpec}, all of them (checked by the compiler). */
const CLUSTER_KEYS = optionKeys<ClusterSpec>({
  name: true,
  link: true,
});

/** A link to build. */
export interface LinkSpec {
  /** Bytes per second, > 0. */
  readonly bandwidth: number;
  /** Seconds. @defaultValue `0` */
  readonly latency?: number;
}

/** The keys of {@link LinkSpec}, all of them (checked by the compiler). */
const LINK_KEYS = optionKeys<LinkSpec>({
  bandwidth: true,
  latency: true,
});

/** Everything `createPlatform` needs. */
export interface PlatformSpec {
  readonly machines: readonly MachineSpec[];
  /** @defaultValue `[]` */
  readonly licenses?: readonly LicenseSpec[];
  /** @defaultValue one cluster per cluster index the machines use (`c0`, `c1`, …) */
  readonly clusters?: readonly ClusterSpec[];
  /** @defaultValue `[]` */
  readonly links?: readonly LinkSpec[];
  /** The benchmark job runtimes refer to. @defaultValue `1` */
  readonly referenceSpeed?: number;
}

/** The keys of {@link PlatformSpec}, all of them (checked by the compiler). */
const PLATFORM_KEYS = optionKeys<PlatformSpec>({
  machines: true,
  licenses: true,
  clusters: true,
  links: true,
  referenceSpeed: true,
});

const WHERE = "@sched/core/createPlatform";

/**
 * Builds a validated {@link Platform}, filling defaults (speed 1, cluster 0, one core,
 * referenceSpeed 1) and computing `totalCores`. The result is frozen; the spec is not mutated.
 *
 * Complexity: O(machines + sum of license machine lists).
 *
 * @throws InvalidInputError naming the field (e.g. `spec.machines[3].cores`) when a value is
 * missing, not finite, out of range, a machine or link index does not exist, or two licenses
 * share a name.
 *
 * @example
 * ```ts
 * const p = createPlatform({ machines: [{ cores: 4, speed: 2 }, { cores: 2 }] });
 * p.totalCores; // 6
 * p.machines[1]; // { id: 1, name: "m1", cores: 2, speed: 1, cluster: 0 }
 * ```
 */
export function createPlatform(spec: PlatformSpec): Platform {
  requireObject(WHERE, "spec", spec);
  requireKnownKeys(WHERE, "spec", spec, PLATFORM_KEYS);
  const machineSpecs = requireArray(WHERE, "spec.machines", spec.machines);
  if (machineSpecs.length === 0) {
    throw new InvalidInputError(WHERE, "spec.machines", "is empty, expected at least one machine");
  }
  const referenceSpeed =
    spec.referenceSpeed === undefined
      ? 1
      : requirePositive(WHERE, "spec.referenceSpeed", spec.referenceSpeed);

  const links: Link[] = [];
  const linkSpecs = spec.links === undefined ? [] : requireArray(WHERE, "spec.links", spec.links);
  linkSpecs.forEach((raw, i) => {
    const field = `spec.links[${i}]`;
    const l = requireObject(WHERE, field, raw) as LinkSpec;
    requireKnownKeys(WHERE, field, l, LINK_KEYS);
    links.push(
      Object.freeze({
        id: i,
        bandwidth: requirePositive(WHERE, `${field}.bandwidth`, l.bandwidth),
        latency:
          l.latency === undefined ? 0 : requireNonNegative(WHERE, `${field}.latency`, l.latency),
      }),
    );
  });

  const machines: Machine[] = new Array(machineSpecs.length);
  let totalCores = 0;
  let maxCluster = 0;
  for (let i = 0; i < machineSpecs.length; i++) {
    const field = `spec.machines[${i}]`;
    const m = requireObject(WHERE, field, machineSpecs[i]) as MachineSpec;
    requireKnownKeys(WHERE, field, m, MACHINE_KEYS);
    const cores = m.cores === undefined ? 1 : requireCount(WHERE, `${field}.cores`, m.cores, 1);
    const speed = m.speed === undefined ? 1 : requirePositive(WHERE, `${field}.speed`, m.speed);
    const cluster =
      m.cluster === undefined ? 0 : requireInteger(WHERE, `${field}.cluster`, m.cluster, 0);
    if (m.name !== undefined && typeof m.name !== "string") {
      throw new InvalidInputError(
        WHERE,
        `${field}.name`,
        `is ${describeValue(m.name)}, expected a string`,
      );
    }
    machines[i] = Object.freeze({ id: i, name: m.name ?? `m${i}`, cores, speed, cluster });
    totalCores += cores;
    if (cluster > maxCluster) maxCluster = cluster;
  }

  const clusters: Cluster[] = [];
  if (spec.clusters === undefined) {
    for (let c = 0; c <= maxCluster; c++) clusters.push(Object.freeze({ id: c, name: `c${c}` }));
  } else {
    requireArray(WHERE, "spec.clusters", spec.clusters).forEach((raw, c) => {
      const field = `spec.clusters[${c}]`;
      const cs = requireObject(WHERE, field, raw) as ClusterSpec;
      requireKnownKeys(WHERE, field, cs, CLUSTER_KEYS);
      if (cs.name !== undefined && typeof cs.name !== "string") {
        throw new InvalidInputError(
          WHERE,
          `${field}.name`,
          `is ${describeValue(cs.name)}, expected a string`,
        );
      }
      const cluster: { id: number; name: string; link?: number } = {
        id: c,
        name: cs.name ?? `c${c}`,
      };
      if (cs.link !== undefined) {
        const link = requireInteger(WHERE, `${field}.link`, cs.link, 0);
        if (link >= links.length) {
          throw new InvalidInputError(
            WHERE,
            `${field}.link`,
            `is ${link}, but the platform has ${links.length} links`,
          );
        }
        cluster.link = link;
      }
      clusters.push(Object.freeze(cluster));
    });
    for (const m of machines) {
      if (m.cluster >= clusters.length) {
        throw new InvalidInputError(
          WHERE,
          `spec.machines[${m.id}].cluster`,
          `is ${m.cluster}, but the platform has ${clusters.length} clusters`,
        );
      }
    }
  }

  const licenses: License[] = [];
  const seen = new Set<string>();
  const licenseSpecs =
    spec.licenses === undefined ? [] : requireArray(WHERE, "spec.licenses", spec.licenses);
  licenseSpecs.forEach((raw, i) => {
    const field = `spec.licenses[${i}]`;
    const l = requireObject(WHERE, field, raw) as LicenseSpec;
    requireKnownKeys(WHERE, field, l, LICENSE_KEYS);
    requireLicenseName(WHERE, field, l.name, seen);
    const kind = l.kind ?? "floating";
    requireOneOf(WHERE, `${field}.kind`, kind, ["floating", "node-locked"]);
    const copies = requireCount(WHERE, `${field}.copies`, l.copies, 0);
    const license: {
      name: string;
      kind: "floating" | "node-locked";
      copies: number;
      machines?: readonly number[];
    } = {
      name: l.name,
      kind,
      copies,
    };
    if (l.machines === undefined) {
      if (kind === "node-locked") {
        throw new InvalidInputError(
          WHERE,
          `${field}.machines`,
          "is missing, a node-locked license needs the machines it is installed on",
        );
      }
    } else {
      const list = requireArray(WHERE, `${field}.machines`, l.machines);
      const ms = new Set<number>();
      list.forEach((m, j) => {
        const idx = requireInteger(WHERE, `${field}.machines[${j}]`, m, 0);
        if (idx >= machines.length) {
          throw new InvalidInputError(
            WHERE,
            `${field}.machines[${j}]`,
            `is ${idx}, but the platform has ${machines.length} machines`,
          );
        }
        ms.add(idx);
      });
      license.machines = Object.freeze([...ms].sort((a, b) => a - b));
    }
    licenses.push(Object.freeze(license));
  });

  const platform: Platform = Object.freeze({
    machines: Object.freeze(machines),
    licenses: Object.freeze(licenses),
    clusters: Object.freeze(clusters),
    links: Object.freeze(links),
    referenceSpeed,
    totalCores,
  });
  checkedPlatforms.add(platform);
  return platform;
}

/** Options of {@link identicalPool}. */
export interface IdenticalPoolOptions {
  /** Cores of each machine. @defaultValue `1` */
  readonly cores?: number;
  /** Speed of each machine. @defaultValue `1` */
  readonly speed?: number;
  /** Licenses of the pool. @defaultValue `[]` */
  readonly licenses?: readonly LicenseSpec[];
  /** The benchmark job runtimes refer to. @defaultValue `1` */
  readonly referenceSpeed?: number;
}

/** The keys of {@link IdenticalPoolOptions}, all of them (checked by the compiler). */
const POOL_KEYS = optionKeys<IdenticalPoolOptions>({
  cores: true,
  speed: true,
  licenses: true,
  referenceSpeed: true,
});

/**
 * The most machines {@link identicalPool} builds: 2^24 (16,777,216). Each machine is an object
 * of its own (about 100 bytes, and a few seconds per ten million to build), so a pool of 10^8
 * single-core machines would exhaust Node's default heap with a fatal, uncatchable error; the
 * largest machines in the Parallel Workloads Archive have a few hundred thousand processors.
 */
const MAX_POOL_MACHINES = 2 ** 24;

/**
 * A pool of `n` identical machines, by default single-core of speed 1: the shape of the
 * Parallel Workloads Archive traces (a job of `k` processors takes `k` machines).
 *
 * Complexity: O(n).
 *
 * @throws InvalidInputError when `n` is not an integer from 1 to 2^24 or an option is invalid.
 *
 * @example
 * ```ts
 * identicalPool(100).totalCores; // 100
 * ```
 */
export function identicalPool(n: number, options: IdenticalPoolOptions = {}): Platform {
  requireInteger("@sched/core/identicalPool", "n", n, 1);
  if (n > MAX_POOL_MACHINES) {
    throw new InvalidInputError(
      "@sched/core/identicalPool",
      "n",
      `is ${n}, expected at most ${MAX_POOL_MACHINES} machines (2^24; every machine is an ` +
        "object of its own: for a larger machine give fewer machines more cores, " +
        "identicalPool(machines, { cores }))",
    );
  }
  requireKnownKeys("@sched/core/identicalPool", "options", options, POOL_KEYS);
  const machine: MachineSpec = { cores: options.cores ?? 1, speed: options.speed ?? 1 };
  const machines: MachineSpec[] = new Array(n).fill(machine);
  const spec: {
    machines: MachineSpec[];
    licenses?: readonly LicenseSpec[];
    referenceSpeed?: number;
  } = {
    machines,
  };
  if (options.licenses !== undefined) spec.licenses = options.licenses;
  if (options.referenceSpeed !== undefined) spec.referenceSpeed = options.referenceSpeed;
  return createPlatform(spec);
}

/**
 * Checks that `platform` is internally consistent (what `createPlatform` guarantees), for
 * platforms built by hand or read back from JSON: every machine, license, cluster and link an
 * object with the fields and ranges `createPlatform` gives them, `totalCores` their sum. Returns
 * it unchanged.
 *
 * Complexity: O(machines + clusters + links + sum of license machine lists).
 *
 * @throws InvalidInputError naming `where` and the field (e.g. `platform.machines[3].speed`).
 *
 * @example
 * ```ts
 * validatePlatform({ ...identicalPool(2), totalCores: 5 });
 * // throws: platform.totalCores is 5, but the machines have 2 cores
 * ```
 */
export function validatePlatform(
  platform: Platform,
  where = "@sched/core/validatePlatform",
): Platform {
  if (typeof where !== "string") {
    throw new InvalidInputError(
      "@sched/core/validatePlatform",
      "where",
      `is ${describeValue(where)}, expected a string (the caller's name, for the messages)`,
    );
  }
  return checkPlatform(where, "platform", platform);
}

/**
 * Platforms checked already: every `createPlatform` result, and each platform built by hand once
 * it has passed {@link requirePlatform}. Platforms are immutable data (their type is readonly;
 * eligibility caches per platform too), so one check holds for later calls.
 */
const checkedPlatforms = new WeakSet<object>();

/**
 * `platform` when it is a platform `validatePlatform` accepts, checked once per platform object
 * (later calls cost a WeakSet look-up). Internal: the door of every function that takes a
 * platform.
 */
export function requirePlatform(where: string, label: string, platform: Platform): Platform {
  if (typeof platform === "object" && platform !== null && checkedPlatforms.has(platform)) {
    return platform;
  }
  checkPlatform(where, label, platform);
  checkedPlatforms.add(platform);
  return platform;
}

/**
 * {@link validatePlatform} with the platform named `label` in the messages (`trace.platform`
 * for a trace's). Internal.
 */
export function checkPlatform(where: string, label: string, platform: Platform): Platform {
  requireObject(where, label, platform);
  const machines = requireArray(
    where,
    `${label}.machines`,
    platform.machines,
  ) as readonly Machine[];
  const clusters = requireArray(
    where,
    `${label}.clusters`,
    platform.clusters,
  ) as readonly Cluster[];
  const links = requireArray(where, `${label}.links`, platform.links) as readonly Link[];
  for (let i = 0; i < links.length; i++) {
    const field = `${label}.links[${i}]`;
    const l = requireObject(where, field, links[i]) as Link;
    requireIndex(where, `${field}.id`, l.id, i);
    requirePositive(where, `${field}.bandwidth`, l.bandwidth);
    requireNonNegative(where, `${field}.latency`, l.latency);
  }
  for (let c = 0; c < clusters.length; c++) {
    const field = `${label}.clusters[${c}]`;
    const cl = requireObject(where, field, clusters[c]) as Cluster;
    requireIndex(where, `${field}.id`, cl.id, c);
    requireString(where, `${field}.name`, cl.name);
    if (cl.link !== undefined) {
      const link = requireInteger(where, `${field}.link`, cl.link, 0);
      if (link >= links.length) {
        throw new InvalidInputError(
          where,
          `${field}.link`,
          `is ${link}, but the platform has ${links.length} links`,
        );
      }
    }
  }
  let total = 0;
  for (let i = 0; i < machines.length; i++) {
    const field = `${label}.machines[${i}]`;
    const m = requireObject(where, field, machines[i]) as Machine;
    requireIndex(where, `${field}.id`, m.id, i);
    requireString(where, `${field}.name`, m.name);
    total += requireCount(where, `${field}.cores`, m.cores, 1);
    requirePositive(where, `${field}.speed`, m.speed);
    const cluster = requireInteger(where, `${field}.cluster`, m.cluster, 0);
    if (cluster >= clusters.length) {
      throw new InvalidInputError(
        where,
        `${field}.cluster`,
        `is ${cluster}, but the platform has ${clusters.length} clusters`,
      );
    }
  }
  if (machines.length === 0) {
    throw new InvalidInputError(
      where,
      `${label}.machines`,
      "is empty, expected at least one machine",
    );
  }
  if (platform.totalCores !== total) {
    throw new InvalidInputError(
      where,
      `${label}.totalCores`,
      `is ${describeValue(platform.totalCores)}, but the machines have ${total} cores`,
    );
  }
  requirePositive(where, `${label}.referenceSpeed`, platform.referenceSpeed);
  const names = new Set<string>();
  requireArray(where, `${label}.licenses`, platform.licenses).forEach((raw, i) => {
    const field = `${label}.licenses[${i}]`;
    const l = requireObject(where, field, raw) as License;
    requireLicenseName(where, field, l.name, names);
    requireOneOf(where, `${field}.kind`, l.kind, ["floating", "node-locked"]);
    requireCount(where, `${field}.copies`, l.copies, 0);
    if (l.kind === "node-locked" && l.machines === undefined) {
      throw new InvalidInputError(
        where,
        `${field}.machines`,
        "is missing for a node-locked license",
      );
    }
    if (l.machines !== undefined) {
      const list = requireArray(where, `${field}.machines`, l.machines);
      for (let j = 0; j < list.length; j++) {
        const m = list[j];
        if (typeof m !== "number" || !Number.isInteger(m) || m < 0 || m >= machines.length) {
          throw new InvalidInputError(
            where,
            `${field}.machines[${j}]`,
            `is ${describeValue(m)}, not a machine index (the platform has ${machines.length} machines)`,
          );
        }
      }
    }
  });
  return platform;
}

/** `value` when it is exactly `index` (an element's `id` is its position). */
function requireIndex(where: string, field: string, value: unknown, index: number): void {
  if (value !== index) {
    throw new InvalidInputError(where, field, `is ${describeValue(value)}, expected ${index}`);
  }
}

/** `value` when it is a string. */
function requireString(where: string, field: string, value: unknown): void {
  if (typeof value !== "string") {
    throw new InvalidInputError(where, field, `is ${describeValue(value)}, expected a string`);
  }
}

/**
 * A license's name, checked: a non-empty string not in `seen` (the names of the licenses before
 * it), which it joins. Shared by `createPlatform` and `validatePlatform`.
 * @throws InvalidInputError naming `<field>.name`.
 */
function requireLicenseName(where: string, field: string, name: unknown, seen: Set<string>): void {
  if (typeof name !== "string" || name.length === 0) {
    throw new InvalidInputError(
      where,
      `${field}.name`,
      `is ${describeValue(name)}, expected a non-empty string`,
    );
  }
  if (seen.has(name)) {
    throw new InvalidInputError(where, `${field}.name`, `is ${JSON.stringify(name)}, a duplicate`);
  }
  seen.add(name);
}
