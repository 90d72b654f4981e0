import type { Job, Platform, SchedulerView } from "@sched/core";
import { UncheckedProfile } from "./profile.js";

/** A planned interval on one machine: `job` holds its cores there during `[start, end)`. */
export interface MachineInterval {
  readonly job: Job;
  readonly machine: number;
  readonly start: number;
  readonly end: number;
}

interface LicenseInfo {
  readonly floating: boolean;
  /** Floating: usable on machine m; node-locked: copies held on machine m (0: none). */
  readonly perMachine: Float64Array;
}

/**
 * The availability plan of the single-machine policies (`singleMachine: true`): one
 * {@link UncheckedProfile} of free cores per machine, one per floating license (the shared
 * pool) and one per node-locked license and machine that holds it. Because every job runs on
 * one machine, a reservation is a machine and a time, and the plan is exact where the pooled
 * {@link PooledPlan} is only a necessary condition (a reservation that the pooled plan admits may need
 * cores spread over machines).
 *
 * Running jobs release the cores of each part of their allocation on its machine, their
 * node-locked copies on the allocation's first machine (the engine's rule) and their floating
 * copies in the pool, at their `estimatedEnd` (or now, when they have overrun it).
 *
 * With `exclusive` (machine-exclusive placement), a machine's profile counts one slot, not its
 * cores: it is free while the machine runs no job, comes back at the latest estimated end of
 * the jobs on it, and every job or reservation takes it whole.
 *
 * Internal to the package. Building: O(M + (R + V) log(R + V)) for M machines, R running jobs
 * and V reservations; queries and changes cost what `UncheckedProfile`'s do, times the
 * licenses of the job; `earliest` tries every machine that could host the job.
 */
export class MachinePlan {
  /**
   * Machine-exclusive (`exclusive: true`): each machine's profile counts one slot instead of its
   * cores (1 while it runs no job), and every job takes the slot of its machine.
   */
  private readonly exclusive: boolean;
  private cores: UncheckedProfile[] = [];
  private readonly floating = new Map<string, UncheckedProfile>();
  private readonly locked = new Map<string, (UncheckedProfile | undefined)[]>();
  private readonly info = new Map<string, LicenseInfo>();
  private platform: Platform | null = null;
  // Scratch change lists, per profile.
  private readonly changes = new Map<UncheckedProfile, [number[], number[]]>();
  private latestEnd: Float64Array = new Float64Array(0);

  constructor(exclusive = false) {
    this.exclusive = exclusive;
  }

  /** What `job` takes of its machine's profile: its cores, or the one slot when exclusive. */
  private need(job: Job): number {
    return this.exclusive ? 1 : job.cores;
  }

  /** Rebuilds the plan at `view.now` from the running jobs plus `reservations`. */
  rebuild(view: SchedulerView, reservations: Iterable<MachineInterval> = []): this {
    const platform = view.platform;
    if (platform !== this.platform) this.prepare(platform);
    const now = view.now;
    const level = new Map<UncheckedProfile, number>();
    for (const [, [t, a]] of this.changes) {
      t.length = 0;
      a.length = 0;
    }
    const ms = platform.machines;
    const ex = this.exclusive;
    for (let m = 0; m < ms.length; m++) {
      const free = view.freeCores(m);
      level.set(this.cores[m]!, ex ? (free >= ms[m]!.cores ? 1 : 0) : free);
    }
    for (const l of platform.licenses) {
      const info = this.info.get(l.name) as LicenseInfo;
      if (info.floating) {
        let best = 0;
        for (let m = 0; m < ms.length; m++) {
          if (info.perMachine[m]! > 0) best = Math.max(best, view.freeLicenses(l.name, m));
        }
        level.set(this.floating.get(l.name) as UncheckedProfile, best);
      } else {
        const per = this.locked.get(l.name) as (UncheckedProfile | undefined)[];
        for (let m = 0; m < ms.length; m++) {
          const p = per[m];
          if (p !== undefined) level.set(p, view.freeLicenses(l.name, m));
        }
      }
    }
    const push = (p: UncheckedProfile | undefined, time: number, amount: number) => {
      if (p === undefined) return;
      const c = this.changes.get(p) as [number[], number[]];
      c[0].push(time);
      c[1].push(amount);
    };
    if (ex) this.latestEnd.fill(Number.NEGATIVE_INFINITY);
    for (const r of view.running) {
      if (ex) {
        // The machine's slot comes back when the last job on it is estimated to end.
        for (const part of r.allocation) {
          if (r.estimatedEnd > this.latestEnd[part.machine]!)
            this.latestEnd[part.machine] = r.estimatedEnd;
        }
      } else {
        for (const part of r.allocation) push(this.cores[part.machine], r.estimatedEnd, part.cores);
      }
      const first = r.allocation[0]?.machine ?? -1;
      this.eachLicense(r.job, first, (p, copies) => push(p, r.estimatedEnd, copies));
    }
    if (ex) {
      for (let m = 0; m < ms.length; m++) {
        const end = this.latestEnd[m]!;
        if (end !== Number.NEGATIVE_INFINITY && level.get(this.cores[m]!) === 0)
          push(this.cores[m], end, 1);
      }
    }
    for (const r of reservations) {
      const hold = (p: UncheckedProfile | undefined, amount: number) => {
        if (p === undefined) return;
        if (r.start > now) push(p, r.start, -amount);
        else level.set(p, (level.get(p) ?? 0) - amount);
        push(p, r.end, amount);
      };
      hold(this.cores[r.machine], this.need(r.job));
      this.eachLicense(r.job, r.machine, hold);
    }
    for (const [p, [t, a]] of this.changes) p.load(now, level.get(p) ?? 0, t, a, t.length);
    return this;
  }

  /** Drops everything before `t` from every profile. */
  trimBefore(t: number): void {
    for (const p of this.changes.keys()) p.trimBefore(t);
  }

  /**
   * True when some profile is below zero at or after `t`: more is planned than a machine or a
   * license has (reservations kept from a plan made before a running job's end moved later).
   */
  overbookedFrom(t: number): boolean {
    for (const p of this.changes.keys())
      if (!p.nonNegative(t, Number.POSITIVE_INFINITY)) return true;
    return false;
  }

  /**
   * True when machine `m` could ever host `job` alone: enough cores, its floating licenses
   * usable there, and the node-locked copies it needs held there.
   */
  canHost(job: Job, m: number): boolean {
    const platform = this.platform as Platform;
    if (platform.machines[m]!.cores < job.cores) return false;
    const lic = job.licenses;
    if (lic === undefined) return true;
    for (const name in lic) {
      const copies = lic[name]!;
      if (!(copies > 0)) continue;
      const info = this.info.get(name);
      if (info === undefined) return false;
      if (info.floating ? info.perMachine[m] === 0 : info.perMachine[m]! < copies) return false;
    }
    return true;
  }

  /** True when `job` fits on machine `m` during `[start, end)` in every profile it uses. */
  fitsOn(job: Job, m: number, start: number, end: number): boolean {
    if (!this.cores[m]!.fits(start, end, this.need(job))) return false;
    let ok = true;
    this.eachLicense(job, m, (p, copies) => {
      if (ok && p !== undefined && !p.fits(start, end, copies)) ok = false;
    });
    return ok;
  }

  /**
   * Earliest `t >= from` where `job` fits on machine `m` during `[t, t + duration)` in every
   * profile, or `Infinity` (with `limit`: none before `limit`).
   */
  earliestOn(job: Job, m: number, duration: number, from: number, limit: number): number {
    const cores = this.cores[m]!;
    const need = this.need(job);
    let t = cores.earliestStart(need, duration, from, limit);
    if (job.licenses === undefined) return t;
    // Until one start fits every profile: a profile that moves the start makes every other one
    // (cores, and the licenses checked before it) look again from there.
    for (;;) {
      if (t === Number.POSITIVE_INFINITY) return t;
      let moved = false;
      this.eachLicense(job, m, (p, copies) => {
        if (p === undefined) return;
        const u = p.earliestStart(copies, duration, t, limit);
        if (u > t) {
          t = u;
          moved = true;
        }
      });
      if (!moved) return t;
      t = cores.earliestStart(need, duration, t, limit);
    }
  }

  /** Takes (`sign` = -1) or gives back (+1) what `job` needs on machine `m` over `[start, end)`. */
  change(job: Job, m: number, start: number, end: number, sign: -1 | 1): void {
    this.cores[m]!.add(start, end, sign * this.need(job));
    this.eachLicense(job, m, (p, copies) => p?.add(start, end, sign * copies));
  }

  /** Calls `f` with each license profile `job` uses when it runs on machine `m` (first machine). */
  private eachLicense(
    job: Job,
    m: number,
    f: (p: UncheckedProfile | undefined, copies: number) => void,
  ): void {
    const lic = job.licenses;
    if (lic === undefined) return;
    for (const name in lic) {
      const copies = lic[name]!;
      if (!(copies > 0)) continue;
      const fl = this.floating.get(name);
      if (fl !== undefined) f(fl, copies);
      else if (m >= 0) f(this.locked.get(name)?.[m], copies);
    }
  }

  private prepare(platform: Platform): void {
    this.platform = platform;
    this.changes.clear();
    this.floating.clear();
    this.locked.clear();
    this.info.clear();
    const n = platform.machines.length;
    this.cores = [];
    this.latestEnd = new Float64Array(n);
    for (let m = 0; m < n; m++) {
      const p = new UncheckedProfile(0, 0);
      this.cores.push(p);
      this.changes.set(p, [[], []]);
    }
    for (const l of platform.licenses) {
      const perMachine = new Float64Array(n);
      if (l.kind === "node-locked") {
        const per: (UncheckedProfile | undefined)[] = new Array(n).fill(undefined);
        for (const m of l.machines ?? []) {
          perMachine[m] = l.copies;
          const p = new UncheckedProfile(0, 0);
          per[m] = p;
          this.changes.set(p, [[], []]);
        }
        this.locked.set(l.name, per);
        this.info.set(l.name, { floating: false, perMachine });
      } else {
        if (l.machines === undefined) perMachine.fill(1);
        else for (const m of l.machines) perMachine[m] = 1;
        const p = new UncheckedProfile(0, 0);
        this.floating.set(l.name, p);
        this.changes.set(p, [[], []]);
        this.info.set(l.name, { floating: true, perMachine });
      }
    }
  }
}
