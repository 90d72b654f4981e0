/**
 * Independent reference simulators for a pool of `procs` identical processors, written
 * directly from the textbook definitions, sharing no code with src/. Each returns job id ->
 * start time. Jobs must be sorted by (submit, id); run times must not exceed estimates.
 */

export interface OracleJob {
  readonly id: number;
  readonly submit: number;
  readonly runtime: number;
  readonly estimate: number;
  readonly cores: number;
}

/** A binary min-heap of [end, procs] pairs. */
class EndHeap {
  private readonly ends: number[] = [];
  private readonly procs: number[] = [];
  get size(): number {
    return this.ends.length;
  }
  peek(): number {
    return this.ends[0]!;
  }
  push(end: number, p: number): void {
    const e = this.ends;
    const q = this.procs;
    e.push(end);
    q.push(p);
    let i = e.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (e[parent]! <= e[i]!) break;
      [e[parent], e[i]] = [e[i]!, e[parent]!];
      [q[parent], q[i]] = [q[i]!, q[parent]!];
      i = parent;
    }
  }
  pop(): number {
    const e = this.ends;
    const q = this.procs;
    const p = q[0]!;
    const lastE = e.pop() as number;
    const lastP = q.pop() as number;
    if (e.length > 0) {
      e[0] = lastE;
      q[0] = lastP;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < e.length && e[l]! < e[m]!) m = l;
        if (r < e.length && e[r]! < e[m]!) m = r;
        if (m === i) break;
        [e[m], e[i]] = [e[i]!, e[m]!];
        [q[m], q[i]] = [q[i]!, q[m]!];
        i = m;
      }
    }
    return p;
  }
}

/**
 * The classic FCFS simulator: a plain loop over the jobs in order with a min-heap of end times.
 * start = max(submit, previous job's start, time when enough processors are free).
 */
export function classicFcfs(jobs: readonly OracleJob[], procs: number): Map<number, number> {
  const starts = new Map<number, number>();
  const heap = new EndHeap();
  let free = procs;
  let t = Number.NEGATIVE_INFINITY;
  for (const j of jobs) {
    if (j.submit > t) t = j.submit;
    while (heap.size > 0 && heap.peek() <= t) free += heap.pop();
    while (free < j.cores) {
      t = heap.peek();
      while (heap.size > 0 && heap.peek() <= t) free += heap.pop();
    }
    starts.set(j.id, t);
    free -= j.cores;
    heap.push(t + j.runtime, j.cores);
  }
  return starts;
}

interface Run {
  id: number;
  cores: number;
  end: number;
  estEnd: number;
}

/**
 * Textbook EASY (Lifka; Mu'alem & Feitelson), event-driven. At every event time (completions
 * and arrivals at that time applied first): start queue jobs in order while the head fits; then
 * the head's shadow time is the earliest estimated end at which enough processors are free, and
 * the extra processors are those free at the shadow time beyond the head's need; each later job
 * (in order) starts if it fits now and either ends (by estimate) by the shadow time or uses no
 * more than the extra processors (which it then consumes).
 */
export function classicEasy(jobs: readonly OracleJob[], procs: number): Map<number, number> {
  const starts = new Map<number, number>();
  const running: Run[] = [];
  const queue: OracleJob[] = [];
  let next = 0;
  let free = procs;
  while (next < jobs.length || queue.length > 0 || running.length > 0) {
    let t = Number.POSITIVE_INFINITY;
    if (next < jobs.length) t = jobs[next]!.submit;
    for (const r of running) if (r.end < t) t = r.end;
    for (let i = running.length - 1; i >= 0; i--) {
      if (running[i]!.end === t) {
        free += running[i]!.cores;
        running.splice(i, 1);
      }
    }
    while (next < jobs.length && jobs[next]!.submit === t) queue.push(jobs[next++]!);
    const begin = (j: OracleJob) => {
      starts.set(j.id, t);
      free -= j.cores;
      running.push({ id: j.id, cores: j.cores, end: t + j.runtime, estEnd: t + j.estimate });
    };
    while (queue.length > 0 && queue[0]!.cores <= free) begin(queue.shift() as OracleJob);
    if (queue.length === 0) continue;
    const head = queue[0]!;
    const byEst = running.slice().sort((a, b) => a.estEnd - b.estEnd);
    let avail = free;
    let shadow = t;
    for (let i = 0; i < byEst.length && avail < head.cores; i++) {
      shadow = byEst[i]!.estEnd;
      avail += byEst[i]!.cores;
    }
    // Everything that ends at the shadow time is free then too.
    let atShadow = free;
    for (const r of byEst) if (r.estEnd <= shadow) atShadow += r.cores;
    let extra = atShadow - head.cores;
    for (let i = 1; i < queue.length; ) {
      const j = queue[i]!;
      if (j.cores <= free) {
        if (t + j.estimate <= shadow) {
          begin(j);
          queue.splice(i, 1);
          continue;
        }
        if (j.cores <= extra) {
          extra -= j.cores;
          begin(j);
          queue.splice(i, 1);
          continue;
        }
      }
      i++;
    }
  }
  return starts;
}

interface Slot {
  id: number;
  cores: number;
  start: number;
  end: number;
}

/**
 * Conservative backfilling, brute force. Reservations are intervals of estimated length; the
 * free count at time x is procs minus the running jobs whose estimated end is after x minus
 * the reservations covering x. At every event time: if a job completed, every reservation in
 * arrival order is removed and put back at the earliest feasible time (compression); then each
 * arrival gets the earliest feasible reservation; then every job reserved at the current time
 * starts.
 */
export function classicConservative(
  jobs: readonly OracleJob[],
  procs: number,
): Map<number, number> {
  const starts = new Map<number, number>();
  const running: Run[] = [];
  let reserved: (Slot & { job: OracleJob })[] = [];
  let next = 0;
  const freeAt = (x: number, skip: number): number => {
    let f = procs;
    for (const r of running) if (r.estEnd > x) f -= r.cores;
    for (const s of reserved) if (s.id !== skip && s.start <= x && x < s.end) f -= s.cores;
    return f;
  };
  const earliest = (now: number, j: OracleJob): number => {
    const cands = new Set<number>([now]);
    for (const r of running) if (r.estEnd > now) cands.add(r.estEnd);
    for (const s of reserved) {
      if (s.start > now) cands.add(s.start);
      if (s.end > now) cands.add(s.end);
    }
    const sorted = [...cands].sort((a, b) => a - b);
    for (const c of sorted) {
      // every breakpoint inside [c, c + estimate) plus c itself
      let ok = freeAt(c, j.id) >= j.cores;
      for (const x of sorted) {
        if (!ok) break;
        if (x > c && x < c + j.estimate && freeAt(x, j.id) < j.cores) ok = false;
      }
      if (ok) return c;
    }
    throw new Error("unreachable: the empty machine fits every job");
  };
  while (next < jobs.length || reserved.length > 0 || running.length > 0) {
    let t = Number.POSITIVE_INFINITY;
    if (next < jobs.length) t = jobs[next]!.submit;
    for (const r of running) if (r.end < t) t = r.end;
    let completed = false;
    for (let i = running.length - 1; i >= 0; i--) {
      if (running[i]!.end === t) {
        running.splice(i, 1);
        completed = true;
      }
    }
    if (completed) {
      for (const s of reserved) {
        s.start = earliest(t, s.job);
        s.end = s.start + s.job.estimate;
      }
    }
    while (next < jobs.length && jobs[next]!.submit === t) {
      const j = jobs[next++]!;
      const start = earliest(t, j);
      reserved.push({ id: j.id, cores: j.cores, start, end: start + j.estimate, job: j });
    }
    const keep: typeof reserved = [];
    for (const s of reserved) {
      if (s.start === t) {
        starts.set(s.id, t);
        running.push({
          id: s.id,
          cores: s.cores,
          end: t + s.job.runtime,
          estEnd: t + s.job.estimate,
        });
      } else {
        keep.push(s);
      }
    }
    reserved = keep;
  }
  return starts;
}
