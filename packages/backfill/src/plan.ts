import type { Job, License, Platform, SchedulerView } from "@sched/core";
import { UncheckedProfile } from "./profile.js";
import { ReleaseSet } from "./releases.js";

const NONE: readonly PlannedInterval[] = [];

/** A planned interval: `job` holds its cores (and licenses) during `[start, end)`. */
export interface PlannedInterval {
  readonly job: Job;
  readonly start: number;
  readonly end: number;
}

/**
 * The availability plan of one scheduling event: one {@link UncheckedProfile} of free cores
 * and one per license of the platform (floating: the shared pool; node-locked: the copies summed
 * over the machines that hold it, a necessary condition only). Running jobs release what they
 * hold at their `estimatedEnd` (or now, when they have overrun it); reservations hold their
 * interval.
 *
 * Internal to the package; one instance per scheduler, rebuilt in place at every event.
 * Building: without reservations, O(R) plus O(D) per running job that started or ended since
 * the previous build (the releases are kept sorted between builds, see {@link ReleaseSet}, for
 * D distinct release times); with V reservations, O((R + V) log(R + V)).
 */
export class PooledPlan {
  readonly cores = new UncheckedProfile(0, 0);
  private readonly licenses = new Map<string, UncheckedProfile>();
  private hasLicenses = false;
  // Reused scratch buffers: the cores profile's change times and amounts (typed, grown by
  // doubling), and per license its change lists.
  private ct = new Float64Array(64);
  private ca = new Float64Array(64);
  private readonly lt = new Map<string, number[]>();
  private readonly la = new Map<string, number[]>();
  private readonly licNow = new Map<string, number>();
  private readonly releases = new ReleaseSet();

  /**
   * Rebuilds the plan in place at `view.now` from the running jobs plus `reservations`,
   * reusing its buffers (no allocation once they are large enough, for a platform without
   * licenses).
   */
  rebuild(view: SchedulerView, reservations: readonly PlannedInterval[] = NONE): this {
    const now = view.now;
    const platform = view.platform;
    const running = view.running;
    const nr = running.length;
    const nv = reservations.length;
    const hasLicenses = platform.licenses.length > 0;
    this.hasLicenses = hasLicenses;
    if (nv === 0) {
      // The common case (the finite-depth policies): the running jobs' releases, kept sorted
      // between events.
      const rel = this.releases;
      rel.sync(running);
      this.cores.loadSorted(now, view.totalFreeCores, rel.times, rel.cores, rel.size);
      if (hasLicenses) this.rebuildLicenses(view, platform, running, reservations);
      return this;
    }
    const need = nr + 2 * nv;
    if (this.ct.length < need) {
      let cap = this.ct.length * 2;
      while (cap < need) cap *= 2;
      this.ct = new Float64Array(cap);
      this.ca = new Float64Array(cap);
    }
    const ct = this.ct;
    const ca = this.ca;
    let n = 0;
    let coresNow = view.totalFreeCores;
    // Running jobs already hold their cores: only their release is a change.
    for (let i = 0; i < nr; i++) {
      const r = running[i]!;
      ct[n] = r.estimatedEnd;
      ca[n] = r.job.cores;
      n++;
    }
    for (let i = 0; i < nv; i++) {
      const r = reservations[i]!;
      const cores = r.job.cores;
      if (r.start > now) {
        ct[n] = r.start;
        ca[n] = -cores;
        n++;
      } else {
        coresNow -= cores;
      }
      ct[n] = r.end;
      ca[n] = cores;
      n++;
    }
    this.cores.load(now, coresNow, ct, ca, n);
    if (hasLicenses) this.rebuildLicenses(view, platform, running, reservations);
    return this;
  }

  /** The license part of {@link PooledPlan.rebuild}. */
  private rebuildLicenses(
    view: SchedulerView,
    platform: Platform,
    running: SchedulerView["running"],
    reservations: readonly PlannedInterval[],
  ): void {
    const now = view.now;
    if (
      this.licenses.size !== platform.licenses.length ||
      !platform.licenses.every((l) => this.licenses.has(l.name))
    ) {
      this.licenses.clear();
      this.lt.clear();
      this.la.clear();
      for (const l of platform.licenses) {
        this.licenses.set(l.name, new UncheckedProfile(0, 0));
        this.lt.set(l.name, []);
        this.la.set(l.name, []);
      }
    }
    for (const arr of this.lt.values()) arr.length = 0;
    for (const arr of this.la.values()) arr.length = 0;
    const licNow = this.licNow;
    licNow.clear();
    for (let i = 0; i < running.length; i++) {
      const r = running[i]!;
      const lic = r.job.licenses;
      if (lic === undefined) continue;
      for (const name in lic) {
        const copies = lic[name]!;
        const t = this.lt.get(name);
        const a = this.la.get(name);
        if (t === undefined || a === undefined || !(copies > 0)) continue;
        t.push(r.estimatedEnd);
        a.push(copies);
      }
    }
    for (let i = 0; i < reservations.length; i++) {
      const r = reservations[i]!;
      const lic = r.job.licenses;
      if (lic === undefined) continue;
      for (const name in lic) {
        const copies = lic[name]!;
        const t = this.lt.get(name);
        const a = this.la.get(name);
        if (t === undefined || a === undefined || !(copies > 0)) continue;
        if (r.start > now) {
          t.push(r.start);
          a.push(-copies);
        } else {
          licNow.set(name, (licNow.get(name) ?? 0) - copies);
        }
        t.push(r.end);
        a.push(copies);
      }
    }
    for (const l of platform.licenses) {
      const t = this.lt.get(l.name) ?? [];
      const a = this.la.get(l.name) ?? [];
      const free = freeCopies(view, platform, l) + (licNow.get(l.name) ?? 0);
      this.licenses.get(l.name)?.load(now, free, t, a, t.length);
    }
  }

  /** Drops everything before `t` from every profile (see {@link UncheckedProfile.trimBefore}). */
  trimBefore(t: number): void {
    this.cores.trimBefore(t);
    if (this.hasLicenses) for (const p of this.licenses.values()) p.trimBefore(t);
  }

  /** True when `job` fits in every profile it needs during `[start, end)`. */
  fits(job: Job, start: number, end: number): boolean {
    if (!this.cores.fits(start, end, job.cores)) return false;
    if (job.licenses === undefined || !this.hasLicenses) return true;
    for (const name in job.licenses) {
      const p = this.licenses.get(name);
      const copies = job.licenses[name]!;
      if (p !== undefined && copies > 0 && !p.fits(start, end, copies)) return false;
    }
    return true;
  }

  /**
   * True when some profile is below zero at or after `t`: more is planned than the platform
   * has (reservations kept from a plan made before a running job's end moved later). O(1)
   * while no change has made an amount negative, otherwise O(S).
   */
  overbookedFrom(t: number): boolean {
    if (!this.cores.nonNegative(t, Number.POSITIVE_INFINITY)) return true;
    if (!this.hasLicenses) return false;
    for (const p of this.licenses.values()) {
      if (!p.nonNegative(t, Number.POSITIVE_INFINITY)) return true;
    }
    return false;
  }

  /** True when `job` needs nothing but cores from this plan (no license profile applies). */
  coresOnly(job: Job): boolean {
    return job.licenses === undefined || !this.hasLicenses;
  }

  /**
   * True when no profile `job` uses is below zero during `[start, end)`: what `job` holds there
   * could be given back and taken again at the same place.
   */
  holds(job: Job, start: number, end: number): boolean {
    if (!this.cores.nonNegative(start, end)) return false;
    if (job.licenses === undefined || !this.hasLicenses) return true;
    for (const name in job.licenses) {
      const p = this.licenses.get(name);
      const copies = job.licenses[name]!;
      if (p !== undefined && copies > 0 && !p.nonNegative(start, end)) return false;
    }
    return true;
  }

  /**
   * Earliest `t >= from` where `job` fits during `[t, t + duration)` in every profile;
   * `Infinity` if never, or (with `limit`) if no such `t` is before `limit`. With `ownStart`
   * (`limit <= ownStart`), for a job that holds what it needs over `[ownStart, ownStart +
   * duration)`, as if it had given that back, without changing the plan: each profile's
   * `earliestStartBefore` with the job's own amount (the same answers as giving back first).
   */
  earliest(
    job: Job,
    duration: number,
    from: number,
    limit = Number.POSITIVE_INFINITY,
    ownStart = Number.NaN,
  ): number {
    let t = scan(this.cores, job.cores, duration, from, limit, ownStart);
    if (job.licenses === undefined || !this.hasLicenses) return t;
    // Until one start fits every profile: a profile that moves the start makes every other one
    // (cores, and the licenses checked before it) look again from there.
    for (;;) {
      if (t === Number.POSITIVE_INFINITY) return t;
      let moved = false;
      for (const name in job.licenses) {
        const p = this.licenses.get(name);
        const copies = job.licenses[name]!;
        if (p === undefined || !(copies > 0)) continue;
        const u = scan(p, copies, duration, t, limit, ownStart);
        if (u > t) {
          t = u;
          moved = true;
        }
      }
      if (!moved) return t;
      t = scan(this.cores, job.cores, duration, t, limit, ownStart);
    }
  }

  /**
   * Moves what `job` holds over `[oldStart, oldEnd)` to `[newStart, newEnd)`, both of one
   * length, `newStart < oldStart`: the same plan as giving back and taking again. Where the two
   * overlap the two changes cancel out, so only `[newStart, oldStart)` and `[newEnd, oldEnd)`
   * change (amounts are sums of whole counts: the same segments as the two changes).
   */
  move(job: Job, oldStart: number, oldEnd: number, newStart: number, newEnd: number): void {
    moveHeld(this.cores, oldStart, oldEnd, newStart, newEnd, job.cores);
    if (job.licenses === undefined || !this.hasLicenses) return;
    for (const name in job.licenses) {
      const p = this.licenses.get(name);
      const copies = job.licenses[name]!;
      if (p !== undefined && copies > 0) moveHeld(p, oldStart, oldEnd, newStart, newEnd, copies);
    }
  }

  /** Takes (`sign` = -1) or gives back (`sign` = +1) what `job` needs over `[start, end)`. */
  change(job: Job, start: number, end: number, sign: -1 | 1): void {
    this.cores.add(start, end, sign * job.cores);
    if (job.licenses === undefined || !this.hasLicenses) return;
    for (const name in job.licenses) {
      const p = this.licenses.get(name);
      const copies = job.licenses[name]!;
      if (p !== undefined && copies > 0) p.add(start, end, sign * copies);
    }
  }
}

/**
 * The earliest start of `amount` for `duration` in `p` from `from`, before `limit`: with
 * `ownStart` NaN a plain scan, else one that counts `amount` as held from `ownStart` on.
 */
function scan(
  p: UncheckedProfile,
  amount: number,
  duration: number,
  from: number,
  limit: number,
  ownStart: number,
): number {
  return Number.isNaN(ownStart)
    ? p.earliestStart(amount, duration, from, limit)
    : p.earliestStartBefore(amount, duration, from, limit, ownStart, amount);
}

/**
 * `amount` held in `p` over `[oldStart, oldEnd)` moved to the earlier `[newStart, newEnd)` of the
 * same length: only where the two intervals differ (see {@link PooledPlan.move}).
 */
export function moveHeld(
  p: UncheckedProfile,
  oldStart: number,
  oldEnd: number,
  newStart: number,
  newEnd: number,
  amount: number,
): void {
  if (newEnd > oldStart) {
    p.add(newStart, oldStart, -amount);
    if (oldEnd > newEnd) p.add(newEnd, oldEnd, amount);
  } else {
    p.add(oldStart, oldEnd, amount);
    p.add(newStart, newEnd, -amount);
  }
}

/**
 * Free copies of license `l` now: the pool for a floating license (the view gives it on every
 * machine where the license is usable, so one machine is asked), the sum over machines for a
 * node-locked one.
 */
function freeCopies(view: SchedulerView, platform: Platform, l: License): number {
  const machines = l.machines;
  if (l.kind === "floating") {
    const m =
      machines === undefined ? (platform.machines.length > 0 ? 0 : -1) : (machines[0] ?? -1);
    return m < 0 ? 0 : Math.max(0, view.freeLicenses(l.name, m));
  }
  let sum = 0;
  if (machines === undefined) {
    for (let m = 0; m < platform.machines.length; m++) sum += view.freeLicenses(l.name, m);
  } else {
    for (let k = 0; k < machines.length; k++) sum += view.freeLicenses(l.name, machines[k]!);
  }
  return sum;
}
