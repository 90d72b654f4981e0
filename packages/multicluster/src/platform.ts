import { createPlatform, InvalidInputError, MAX_RESOURCE_COUNT, type Platform } from "@sched/core";
import { describeValue, optionKeys, requireKnownKeys, requireObject } from "@sched/errors";

/** One cluster of a multi-cluster platform: `nodes` identical nodes joined to the central switch by one link. */
export interface ClusterDescription {
  /** Number of nodes (machines), an integer >= 1. */
  readonly nodes: number;
  /** Cores (processors) per node, an integer >= 1. @defaultValue `1` */
  readonly coresPerNode?: number;
  /**
   * Speed of every node of the cluster, relative to the platform's `referenceSpeed`; with the
   * default reference 1 this is the OAS paper's effective power `Gamma` (1 = full speed).
   * @defaultValue `1`
   */
  readonly speed?: number;
  /** Bandwidth of the cluster's link to the central switch, bytes/s. @defaultValue `125e6` (Gigabit) */
  readonly bandwidth?: number;
  /** Latency of that link, seconds. @defaultValue `0` */
  readonly latency?: number;
  /** Cluster name. @defaultValue `"c<index>"` */
  readonly name?: string;
}

/** The keys of {@link ClusterDescription}, all of them (checked by the compiler). */
const CLUSTER_KEYS = optionKeys<ClusterDescription>({
  nodes: true,
  coresPerNode: true,
  speed: true,
  bandwidth: true,
  latency: true,
  name: true,
});

/** Options of {@link multiClusterPlatform}. */
export interface MultiClusterPlatformOptions {
  /** The benchmark that job run times refer to. @defaultValue `1` */
  readonly referenceSpeed?: number;
}

/** The keys of {@link MultiClusterPlatformOptions}, all of them (checked by the compiler). */
const PLATFORM_KEYS = optionKeys<MultiClusterPlatformOptions>({
  referenceSpeed: true,
});

const WHERE = "@sched/multicluster/multiClusterPlatform";

/** The most nodes a platform may hold in all, as core's `identicalPool` caps its machines. */
const MAX_NODES = 2 ** 24;

/**
 * Builds a multi-cluster platform with core's `createPlatform`: cluster `k` gets `nodes`
 * machines (numbered cluster by cluster), each of `coresPerNode` cores and speed `speed`, and
 * link `k` (bandwidth, latency) that joins it to the central switch.
 *
 * Complexity: O(total nodes).
 *
 * @throws InvalidInputError when the list is empty or a field is out of range (core's
 * validation names the field).
 *
 * @example
 * ```ts
 * const p = multiClusterPlatform([
 *   { nodes: 2, speed: 1 }, { nodes: 2, speed: 0.75 }, { nodes: 2, speed: 0.5 },
 * ]);
 * p.machines.length; // 6
 * p.links[1].bandwidth; // 125000000
 * ```
 */
export function multiClusterPlatform(
  clusters: readonly ClusterDescription[],
  options: MultiClusterPlatformOptions = {},
): Platform {
  requireKnownKeys(WHERE, "options", options, PLATFORM_KEYS);
  if (!Array.isArray(clusters)) {
    throw new InvalidInputError(
      WHERE,
      "clusters",
      `is ${describeValue(clusters)}, expected an array of clusters`,
    );
  }
  if (clusters.length === 0) {
    throw new InvalidInputError(WHERE, "clusters", "is empty, expected at least one cluster");
  }
  const machines: { cores: number; speed: number; cluster: number; name: string }[] = [];
  const links: { bandwidth: number; latency: number }[] = [];
  const clusterSpecs: { name: string; link: number }[] = [];
  let total = 0;
  clusters.forEach((c, k) => {
    requireObject(WHERE, `clusters[${k}]`, c);
    requireKnownKeys(WHERE, `clusters[${k}]`, c, CLUSTER_KEYS);
    if (!Number.isInteger(c.nodes) || c.nodes < 1) {
      throw new InvalidInputError(
        WHERE,
        `clusters[${k}].nodes`,
        `is ${describeValue(c.nodes)}, expected an integer >= 1`,
      );
    }
    if (
      c.coresPerNode !== undefined &&
      (!Number.isInteger(c.coresPerNode) ||
        c.coresPerNode < 1 ||
        c.coresPerNode > MAX_RESOURCE_COUNT)
    ) {
      throw new InvalidInputError(
        WHERE,
        `clusters[${k}].coresPerNode`,
        `is ${describeValue(c.coresPerNode)}, expected an integer in [1, ${MAX_RESOURCE_COUNT}]`,
      );
    }
    if (c.name !== undefined && typeof c.name !== "string") {
      throw new InvalidInputError(
        WHERE,
        `clusters[${k}].name`,
        `is ${describeValue(c.name)}, expected a string`,
      );
    }
    // One machine object per node: 1e308 nodes ran out of memory instead of failing. The cap is
    // core's identicalPool's (2^24 machines).
    total += c.nodes;
    if (total > MAX_NODES) {
      throw new InvalidInputError(
        WHERE,
        `clusters[${k}].nodes`,
        `is ${c.nodes}, which makes ${total} nodes in all, expected at most ${MAX_NODES} (2^24)`,
      );
    }
    const name = c.name ?? `c${k}`;
    for (let i = 0; i < c.nodes; i++) {
      machines.push({
        cores: c.coresPerNode ?? 1,
        speed: c.speed ?? 1,
        cluster: k,
        name: `${name}n${i}`,
      });
    }
    links.push({ bandwidth: c.bandwidth ?? 125e6, latency: c.latency ?? 0 });
    clusterSpecs.push({ name, link: k });
  });
  return createPlatform({
    machines,
    links,
    clusters: clusterSpecs,
    referenceSpeed: options.referenceSpeed ?? 1,
  });
}

/**
 * The bandwidth of each cluster's uplink (bytes/s), `Infinity` for a cluster without a link.
 * Indexed by cluster.
 *
 * Complexity: O(clusters).
 */
export function clusterBandwidths(platform: Platform): Float64Array {
  const out = new Float64Array(platform.clusters.length);
  for (let k = 0; k < out.length; k++) {
    const link = platform.clusters[k]!.link;
    out[k] = link === undefined ? Number.POSITIVE_INFINITY : platform.links[link]!.bandwidth;
  }
  return out;
}
