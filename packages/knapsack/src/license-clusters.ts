import { describeValue, InvalidInputError } from "@sched/errors";

/**
 * A job as the clustering sees it: an id and the license copies it holds while it runs.
 * Structurally a subset of `@sched/core`'s `Job`, so core jobs can be passed as they are.
 */
export interface LicenseJob {
  /** Unique id. */
  readonly id: number;
  /** License name -> copies needed (finite, >= 0; 0 means "does not ask for it"). */
  readonly licenses?: Readonly<Record<string, number>>;
}

/** License name -> copies that can be active at once (finite, >= 0). A license missing here has 0 copies. */
export type LicenseCopies = Readonly<Record<string, number>>;

/** One cluster: jobs that (transitively) share critical licenses. */
export interface LicenseCluster {
  /** Job ids, in input (arrival) order. */
  readonly jobs: readonly number[];
  /** The critical licenses the cluster's jobs ask for, sorted by name (code-unit order). */
  readonly licenses: readonly string[];
}

/** The clustering of a set of jobs. */
export interface LicenseClustering {
  /** `rho[l]` = copies requested / copies available, for every license requested or available (`Infinity` when requested with 0 copies, 0 when not requested). */
  readonly rho: Readonly<Record<string, number>>;
  /** Licenses with `rho > 1`, sorted by name. */
  readonly critical: readonly string[];
  /** The clusters, ordered by their first job; a job on no critical license is in none. */
  readonly clusters: readonly LicenseCluster[];
}

function checkCopies(where: string, field: string, x: unknown): number {
  if (typeof x !== "number" || !Number.isFinite(x) || x < 0) {
    const shown = typeof x === "number" ? String(x) : typeof x;
    throw new InvalidInputError(where, field, `is ${shown}, expected a finite number >= 0`);
  }
  return x;
}

const byName = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

interface Tracked {
  /** [license, copies] with copies > 0, sorted by license name. */
  readonly needs: readonly (readonly [string, number])[];
  /** The slot of each license of `needs` (see `LicenseClusters#slot`), same order. */
  readonly slots: Int32Array;
  /** The copies of each license of `needs`, same order. */
  readonly copies: Float64Array;
}

/** A job asking for nothing (what an untracked id weighs). */
const UNTRACKED: Tracked = { needs: [], slots: new Int32Array(0), copies: new Float64Array(0) };

/** Error prefix for the next `LicenseClusters` built by a package function (see `clustersFor`). */
let nextWhere: string | undefined;

/** A cluster's knapsack weights by item (see {@link clusterWeights}). */
export interface ItemWeights {
  /** Item `i`'s weights are at [start[i], start[i + 1]). */
  readonly start: Int32Array;
  /** The constraint (index in `licenses`) of each weight, ascending within an item. */
  readonly k: Int32Array;
  /** The copies asked for (> 0). */
  readonly w: Float64Array;
}

type WeightsReader = (
  clusters: LicenseClusters,
  licenses: readonly string[],
  ids: readonly number[],
) => ItemWeights;

/** Set by the class's static block (it alone sees the private fields). */
let readWeights: WeightsReader | undefined;

/**
 * A cluster's knapsack weights, by item: for each tracked job `ids[i]`, the licenses of
 * `licenses` (sorted by name) it asks for and the copies, from the requests the clustering
 * checked when the job was added; the licenses it does not ask for weigh 0 and are left out.
 * Internal (for `preMatch`): O(the jobs' requests + licenses), where looking every license up in
 * every job's record costs O(licenses x jobs) keyed loads.
 */
export function clusterWeights(
  clusters: LicenseClusters,
  licenses: readonly string[],
  ids: readonly number[],
): ItemWeights {
  return (readWeights as WeightsReader)(clusters, licenses, ids);
}

/** Builds a {@link LicenseClusters} whose errors name `where` (the calling package function). */
export function clustersFor(
  where: string,
  copies: LicenseCopies,
  jobs: Iterable<LicenseJob>,
): LicenseClusters {
  nextWhere = where;
  try {
    return new LicenseClusters(copies, jobs);
  } finally {
    nextWhere = undefined;
  }
}

/**
 * License clustering kept up to date as jobs arrive and leave (the paper's hypergraph whose nodes
 * are licenses and whose arcs are jobs, section 4.2). A license `l` is critical when
 * `rho_l = (copies requested by the tracked jobs) / (copies available) > 1`; critical licenses
 * asked for by a common job are in one component, and a job belongs to the cluster of its
 * critical licenses. Adding a job can make licenses critical and merge clusters; removing one (or
 * raising a license's copies) can split them. Only the touched components are recomputed.
 *
 * Complexity: `add` is O(k + q² + the requesters of licenses that turn critical) (k = keys of
 * the job's record; its q requests are sorted by insertion: a job asks for a few), `remove`
 * O(q + the requesters of its licenses + the requests a bridge search visits), plus the requests
 * inside the components it re-splits: those that lost a critical license, or that the departing
 * job was a bridge of (q = licenses the job asks for); `clusters()` is O(total license requests +
 * sorting names).
 *
 * @throws InvalidInputError on bad copies, a duplicate job id, or a bad license request.
 * @example
 * const lc = new LicenseClusters({ cad: 1, fem: 1, sim: 5 });
 * lc.add({ id: 1, licenses: { cad: 1 } });
 * lc.add({ id: 2, licenses: { cad: 1, fem: 1 } });
 * lc.add({ id: 3, licenses: { fem: 1, sim: 1 } });
 * lc.clusters(); // => [{ jobs: [1, 2, 3], licenses: ["cad", "fem"] }]
 * lc.remove(2);
 * lc.clusters(); // => [] (no license is over-requested any more)
 */
export class LicenseClusters {
  readonly #where = nextWhere ?? "@sched/knapsack/LicenseClusters";
  readonly #copies = new Map<string, number>();
  readonly #demand = new Map<string, number>();
  /** license -> (id of a tracked job asking for it -> copies), in arrival order. */
  readonly #requesters = new Map<string, Map<number, number>>();
  /** Tracked jobs in arrival order. */
  readonly #jobs = new Map<number, Tracked>();
  /** critical license -> component id. */
  readonly #component = new Map<string, number>();
  /** license -> slot: a small integer per license name seen, in order of first sight. */
  readonly #slots = new Map<string, number>();
  /** slot -> component id of the license, -1 when it is not critical (mirrors `#component`). */
  readonly #componentAt: number[] = [];
  /** component id -> its critical licenses. */
  readonly #members = new Map<number, Set<string>>();
  #nextComponent = 0;

  static {
    readWeights = (clusters, licenses, ids) => {
      const n = ids.length;
      const rowAt = new Int32Array(clusters.#componentAt.length).fill(-1);
      for (let k = 0; k < licenses.length; k++) {
        const slot = clusters.#slots.get(licenses[k] as string);
        if (slot !== undefined) rowAt[slot] = k;
      }
      const tracked: Tracked[] = [];
      let size = 0;
      for (let i = 0; i < n; i++) {
        const t = clusters.#jobs.get(ids[i] as number) ?? UNTRACKED;
        tracked.push(t);
        size += t.slots.length;
      }
      const start = new Int32Array(n + 1);
      const k = new Int32Array(size);
      const w = new Float64Array(size);
      let p = 0;
      for (let i = 0; i < n; i++) {
        start[i] = p;
        // Requests and licenses are both sorted by name: constraints come out ascending.
        const { slots, copies } = tracked[i] as Tracked;
        for (let q = 0; q < slots.length; q++) {
          const row = rowAt[slots[q] as number] as number;
          if (row < 0) continue;
          k[p] = row;
          w[p++] = copies[q] as number;
        }
      }
      start[n] = p;
      return { start, k, w };
    };
  }

  /** Starts with the given available copies and, optionally, jobs (added in order). */
  constructor(copies: LicenseCopies, jobs?: Iterable<LicenseJob>) {
    if (copies === null || typeof copies !== "object" || Array.isArray(copies)) {
      throw new InvalidInputError(
        this.#where,
        "copies",
        "is not an object, expected license name -> copies",
      );
    }
    for (const name of Object.keys(copies).sort(byName)) {
      this.#copies.set(name, checkCopies(this.#where, `copies.${name}`, copies[name]));
    }
    if (jobs !== undefined) {
      // A string is iterable (by characters): never a list of jobs, even the empty one.
      if (
        typeof jobs === "string" ||
        typeof (jobs as { [Symbol.iterator]?: unknown } | null)?.[Symbol.iterator] !== "function"
      ) {
        throw new InvalidInputError(
          this.#where,
          "jobs",
          `is ${jobs === null ? "null" : typeof jobs}, expected an iterable of { id, licenses? }`,
        );
      }
      let index = 0;
      for (const job of jobs) {
        this.#add(job, `jobs[${index}]`);
        index++;
      }
    }
  }

  /** Number of tracked jobs. */
  get size(): number {
    return this.#jobs.size;
  }

  /** Whether job `id` is tracked. */
  has(id: number): boolean {
    return this.#jobs.has(id);
  }

  /** `rho_l` = requested / available copies (Infinity when requested with 0 copies, 0 when not requested). */
  rho(license: string): number {
    const d = this.#demand.get(license) ?? 0;
    if (d === 0) return 0;
    const c = this.#copies.get(license) ?? 0;
    return c === 0 ? Number.POSITIVE_INFINITY : d / c;
  }

  /** Whether `license` is critical (`rho > 1`). */
  isCritical(license: string): boolean {
    return this.#component.has(license);
  }

  /** The critical licenses, sorted by name. */
  critical(): string[] {
    return [...this.#component.keys()].sort(byName);
  }

  /** Starts tracking `job`; may merge clusters. O(q log q + requesters of newly critical licenses). */
  add(job: LicenseJob): void {
    this.#add(job, "job");
  }

  /** Stops tracking job `id` (returns false when it was not tracked); may split clusters. */
  remove(id: number): boolean {
    const tracked = this.#jobs.get(id);
    if (tracked === undefined) return false;
    this.#jobs.delete(id);
    // Components that lost a critical license (`#refresh` adds them): split from scratch.
    const dirty = new Set<number>();
    // The critical licenses the job linked, per component: the job's arc is gone.
    const linked = new Map<number, string[]>();
    for (const [license] of tracked.needs) {
      const comp = this.#component.get(license);
      if (comp !== undefined) {
        const list = linked.get(comp);
        if (list === undefined) linked.set(comp, [license]);
        else list.push(license);
      }
      this.#requesters.get(license)?.delete(id);
      this.#recomputeDemand(license);
      this.#refresh(license, dirty);
    }
    // A component that lost only the job's arc (no license) stays connected unless that arc
    // was a bridge: every part it could fall into holds one of the licenses the arc linked, so
    // it is whole when they still reach one another. Components are sets of licenses (their ids
    // are never shown), so skipping the split changes nothing when it would find one part.
    for (const [comp, licenses] of linked) {
      if (licenses.length < 2 || dirty.has(comp) || !this.#members.has(comp)) continue;
      if (!this.#reaches(licenses)) dirty.add(comp);
    }
    this.#split(dirty);
    return true;
  }

  /** Changes the available copies of `license`; may merge or split clusters. */
  setCopies(license: string, copies: number): void {
    this.#copies.set(license, checkCopies(this.#where, `copies.${license}`, copies));
    const dirty = new Set<number>();
    this.#refresh(license, dirty);
    this.#split(dirty);
  }

  /** The current clustering (same conventions as {@link clusterLicenses}). O(total requests). */
  snapshot(): LicenseClustering {
    const rho: Record<string, number> = {};
    const names = new Set<string>([...this.#copies.keys(), ...this.#demand.keys()]);
    for (const name of [...names].sort(byName)) rho[name] = this.rho(name);
    return { rho, critical: this.critical(), clusters: this.clusters() };
  }

  /** The clusters, ordered by their first job (arrival order); jobs in arrival order. */
  clusters(): LicenseCluster[] {
    const jobsOf = new Map<number, number[]>();
    const componentAt = this.#componentAt;
    for (const [id, tracked] of this.#jobs) {
      const slots = tracked.slots;
      for (let q = 0; q < slots.length; q++) {
        const comp = componentAt[slots[q] as number] as number;
        if (comp < 0) continue;
        let list = jobsOf.get(comp);
        if (list === undefined) {
          list = [];
          jobsOf.set(comp, list);
        }
        list.push(id);
        break;
      }
    }
    const out: LicenseCluster[] = [];
    for (const [comp, jobs] of jobsOf) {
      const licenses = [...(this.#members.get(comp) as Set<string>)].sort(byName);
      out.push({ jobs, licenses });
    }
    return out;
  }

  #add(job: LicenseJob, field: string): void {
    if (job === null || typeof job !== "object") {
      throw new InvalidInputError(
        this.#where,
        field,
        "is not an object, expected { id, licenses? }",
      );
    }
    if (typeof job.id !== "number" || Number.isNaN(job.id)) {
      throw new InvalidInputError(
        this.#where,
        `${field}.id`,
        `is ${describeValue(job.id)}, expected a number`,
      );
    }
    if (this.#jobs.has(job.id)) {
      throw new InvalidInputError(
        this.#where,
        `${field}.id`,
        `is ${job.id}, which is already tracked (ids must be unique)`,
      );
    }
    const needs: [string, number][] = [];
    if (job.licenses !== undefined) {
      if (
        job.licenses === null ||
        typeof job.licenses !== "object" ||
        Array.isArray(job.licenses)
      ) {
        throw new InvalidInputError(
          this.#where,
          `${field}.licenses`,
          "is not an object, expected license name -> copies",
        );
      }
      // Checked in key order and only the requests (copies > 0) sorted: a job record may list
      // every license of the platform. A bad value is reported as the name-ordered check finds
      // it (the first bad license by name).
      const licenses = job.licenses;
      const names = Object.keys(licenses);
      let valid = true;
      for (const name of names) {
        const x = licenses[name];
        if (typeof x !== "number" || !(x >= 0 && x < Number.POSITIVE_INFINITY)) {
          valid = false;
          break;
        }
        if (x > 0) needs.push([name, x]);
      }
      if (!valid) {
        for (const name of names.sort(byName))
          checkCopies(this.#where, `${field}.licenses.${name}`, licenses[name]);
      }
      // Insertion sort by name: a job asks for a few licenses.
      for (let q = 1; q < needs.length; q++) {
        const need = needs[q] as [string, number];
        let r = q - 1;
        for (; r >= 0 && byName((needs[r] as [string, number])[0], need[0]) > 0; r--)
          needs[r + 1] = needs[r] as [string, number];
        needs[r + 1] = need;
      }
    }
    const slots = new Int32Array(needs.length);
    const copies = new Float64Array(needs.length);
    for (let q = 0; q < needs.length; q++) {
      const [license, x] = needs[q] as [string, number];
      slots[q] = this.#slot(license);
      copies[q] = x;
    }
    this.#jobs.set(job.id, { needs, slots, copies });
    for (const [license, copies] of needs) {
      let requesters = this.#requesters.get(license);
      if (requesters === undefined) {
        requesters = new Map();
        this.#requesters.set(license, requesters);
      }
      requesters.set(job.id, copies);
      // Adding in arrival order gives the same sum as a fresh computation.
      this.#demand.set(license, (this.#demand.get(license) ?? 0) + copies);
      this.#refresh(license, new Set());
    }
    // The new job links all of its critical licenses.
    let first: string | undefined;
    for (const [license] of needs) {
      if (!this.#component.has(license)) continue;
      if (first === undefined) first = license;
      else this.#union(first, license);
    }
  }

  /** Demand summed in arrival order, so it is bit-identical to a fresh computation. */
  #recomputeDemand(license: string): void {
    let d = 0;
    for (const copies of this.#requesters.get(license)?.values() ?? []) d += copies;
    if (d === 0) this.#demand.delete(license);
    else this.#demand.set(license, d);
  }

  /** Brings `license`'s critical status up to date; components that lose it go into `dirty`. */
  #refresh(license: string, dirty: Set<number>): void {
    const critical = this.rho(license) > 1;
    const comp = this.#component.get(license);
    if (critical && comp === undefined) {
      const id = this.#nextComponent++;
      this.#setComponent(license, id);
      this.#members.set(id, new Set([license]));
      for (const jobId of this.#requesters.get(license)?.keys() ?? []) {
        for (const [other] of (this.#jobs.get(jobId) as Tracked).needs) {
          if (other !== license && this.#component.has(other)) this.#union(license, other);
        }
      }
    } else if (!critical && comp !== undefined) {
      this.#component.delete(license);
      this.#componentAt[this.#slot(license)] = -1;
      const members = this.#members.get(comp) as Set<string>;
      members.delete(license);
      if (members.size === 0) this.#members.delete(comp);
      else dirty.add(comp);
    }
  }

  /** The slot of `license` (assigned at first sight). */
  #slot(license: string): number {
    let slot = this.#slots.get(license);
    if (slot === undefined) {
      slot = this.#componentAt.length;
      this.#slots.set(license, slot);
      this.#componentAt.push(-1);
    }
    return slot;
  }

  /** Puts critical `license` in component `id` (both maps). */
  #setComponent(license: string, id: number): void {
    this.#component.set(license, id);
    this.#componentAt[this.#slot(license)] = id;
  }

  #union(a: string, b: string): void {
    const ca = this.#component.get(a) as number;
    const cb = this.#component.get(b) as number;
    if (ca === cb) return;
    const ma = this.#members.get(ca) as Set<string>;
    const mb = this.#members.get(cb) as Set<string>;
    const [keep, gone, keepId, goneId] = ma.size >= mb.size ? [ma, mb, ca, cb] : [mb, ma, cb, ca];
    for (const license of gone) {
      keep.add(license);
      this.#setComponent(license, keepId);
    }
    this.#members.delete(goneId);
  }

  /**
   * Whether `licenses[0]` still reaches every other license of `licenses` (all critical, in one
   * component) through the tracked jobs: a search that stops as soon as all are found.
   */
  #reaches(licenses: readonly string[]): boolean {
    const start = licenses[0] as string;
    const wanted = new Set<string>(licenses);
    wanted.delete(start);
    const seen = new Set<string>([start]);
    const queue = [start];
    while (queue.length > 0) {
      const license = queue.pop() as string;
      for (const jobId of this.#requesters.get(license)?.keys() ?? []) {
        const needs = (this.#jobs.get(jobId) as Tracked).needs;
        for (let q = 0; q < needs.length; q++) {
          const other = (needs[q] as readonly [string, number])[0];
          if (seen.has(other) || !this.#component.has(other)) continue;
          seen.add(other);
          if (wanted.delete(other) && wanted.size === 0) return true;
          queue.push(other);
        }
      }
    }
    return false;
  }

  /** Recomputes the connected components of each dirty component (breadth-first over jobs). */
  #split(dirty: Set<number>): void {
    for (const comp of dirty) {
      const members = this.#members.get(comp);
      if (members === undefined) continue;
      this.#members.delete(comp);
      const unseen = new Set(members);
      for (const start of members) {
        if (!unseen.has(start)) continue;
        const id = this.#nextComponent++;
        const part = new Set<string>();
        const queue = [start];
        unseen.delete(start);
        while (queue.length > 0) {
          const license = queue.pop() as string;
          part.add(license);
          this.#setComponent(license, id);
          for (const jobId of this.#requesters.get(license)?.keys() ?? []) {
            for (const [other] of (this.#jobs.get(jobId) as Tracked).needs) {
              if (unseen.has(other)) {
                unseen.delete(other);
                queue.push(other);
              }
            }
          }
        }
        this.#members.set(id, part);
      }
    }
  }
}

/**
 * Clusters jobs by the critical licenses they share (convergent scheduling, section 4.2):
 * `rho_l` = copies of `l` requested by all `jobs` / `copies[l]` (the paper counts jobs, i.e.
 * one copy each; we sum the copies asked for), `l` is critical when `rho_l > 1`, and two jobs
 * are in one cluster when a chain of jobs links them through shared critical licenses. Jobs on
 * no critical license are in no cluster. Each cluster is one MKP for the pre-matching.
 *
 * Complexity: O(total license requests · α) plus sorting license names.
 *
 * @throws InvalidInputError on duplicate job ids, NaN / negative / infinite copies.
 * @example
 * clusterLicenses(
 *   [{ id: 1, licenses: { cad: 1 } }, { id: 2, licenses: { cad: 1, fem: 1 } }, { id: 3, licenses: { sim: 1 } }],
 *   { cad: 1, fem: 4, sim: 4 },
 * );
 * // => { rho: { cad: 2, fem: 0.25, sim: 0.25 }, critical: ["cad"], clusters: [{ jobs: [1, 2], licenses: ["cad"] }] }
 */
export function clusterLicenses(
  jobs: Iterable<LicenseJob>,
  copies: LicenseCopies,
): LicenseClustering {
  return clustersFor("@sched/knapsack/clusterLicenses", copies, jobs).snapshot();
}
