#!/usr/bin/env python3
"""Textbook EASY backfilling (Lifka 1995; Mu'alem & Feitelson 2001), a reference implementation.

A deliberately plain, event-driven simulator written for this package from the textbook
definition, to time a straightforward Python simulator against @sched/backfill and to check
both give the same schedule (an extra oracle). Standard library only.

Usage: python3 easy.py TRACE.swf[.gz] PROCESSORS [--starts OUT.tsv] [--runtime-estimates]

Workload: the conventional SWF clean-up (as test/support/swf.ts): jobs whose run time,
allocated processors (field 5) or requested time (field 9) is not positive are dropped; the run
time is capped at the requested time; the estimate is the requested time; jobs are queued in
(submit, id) order. With --runtime-estimates (logs without requested times, such as the NASA
iPSC/860 log) the estimate is the run time and field 9 is ignored. A .gz trace is read gunzipped.

Rules at every event time t:
1. every job whose run ends at t releases its processors; every job submitted at t joins the
   back of the queue;
2. jobs start from the head of the queue while the head fits in the free processors;
3. if the queue is not empty, the head's shadow time is the earliest estimated end of a running
   job at which enough processors are free for it (walking the running jobs by estimated end),
   and the extra processors are those free at the shadow time beyond the head's need (every job
   whose estimated end is at or before the shadow time counts as free);
4. each later job, in queue order, starts now if it fits in the free processors and either its
   estimated end is at or before the shadow time, or it needs no more than the extra processors
   (which it then uses up).

Prints the number of jobs, mean wait, mean bounded slowdown (10 s bound) and the CPU time of the
simulation (time.process_time, parsing excluded).
"""

import gzip
import heapq
import sys
import time


def read_clean_swf(path, runtime_estimates=False):
    jobs = []
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        for line in f:
            s = line.strip()
            if not s or s.startswith(";"):
                continue
            fields = s.split()
            job_id = int(fields[0])
            submit = float(fields[1])
            runtime = float(fields[3])
            procs = int(fields[4])
            requested = runtime if runtime_estimates else float(fields[8])
            if runtime <= 0 or procs <= 0 or requested <= 0:
                continue
            jobs.append((submit, job_id, min(runtime, requested), requested, procs))
    jobs.sort(key=lambda j: (j[0], j[1]))
    return jobs


def easy(jobs, procs):
    """Returns {job id: start time}."""
    starts = {}
    free = procs
    queue = []  # waiting jobs in (submit, id) order
    ends = []  # heap of (actual end, id, procs)
    running_est = {}  # id -> (estimated end, procs)
    n = len(jobs)
    nxt = 0
    while nxt < n or queue or ends:
        t = jobs[nxt][0] if nxt < n else float("inf")
        if ends and ends[0][0] < t:
            t = ends[0][0]
        while ends and ends[0][0] == t:
            _, jid, p = heapq.heappop(ends)
            free += p
            del running_est[jid]
        while nxt < n and jobs[nxt][0] == t:
            queue.append(jobs[nxt])
            nxt += 1

        def start(job):
            nonlocal free
            submit, jid, runtime, estimate, p = job
            starts[jid] = t
            free -= p
            heapq.heappush(ends, (t + runtime, jid, p))
            running_est[jid] = (t + estimate, p)

        i = 0
        while i < len(queue) and queue[i][4] <= free:
            start(queue[i])
            i += 1
        if i:
            del queue[:i]
        if not queue:
            continue

        head_procs = queue[0][4]
        by_est = sorted(running_est.values())
        avail = free
        shadow = t
        for est_end, p in by_est:
            if avail >= head_procs:
                break
            shadow = est_end
            avail += p
        at_shadow = free
        for est_end, p in by_est:
            if est_end > shadow:
                break
            at_shadow += p
        extra = at_shadow - head_procs

        keep = [queue[0]]
        for job in queue[1:]:
            p = job[4]
            if p <= free:
                if t + job[3] <= shadow:
                    start(job)
                    continue
                if p <= extra:
                    extra -= p
                    start(job)
                    continue
            keep.append(job)
        queue = keep
    return starts


def main():
    args = [a for a in sys.argv[1:] if a != "--runtime-estimates"]
    if len(args) < 2:
        sys.exit(__doc__)
    jobs = read_clean_swf(args[0], runtime_estimates="--runtime-estimates" in sys.argv[1:])
    procs = int(args[1])
    c0 = time.process_time()
    w0 = time.perf_counter()
    starts = easy(jobs, procs)
    cpu = time.process_time() - c0
    wall = time.perf_counter() - w0
    waits = []
    slowdowns = []
    for submit, jid, runtime, _, _ in jobs:
        wait = starts[jid] - submit
        waits.append(wait)
        slowdowns.append(max(1.0, (wait + runtime) / max(runtime, 10.0)))
    print(f"jobs {len(jobs)}")
    print(f"mean wait {sum(waits) / len(waits):.4f} s")
    print(f"mean bounded slowdown (10 s) {sum(slowdowns) / len(slowdowns):.4f}")
    print(f"cpu {cpu * 1000:.0f} ms, wall {wall * 1000:.0f} ms")
    if len(args) >= 4 and args[2] == "--starts":
        with open(args[3], "w") as out:
            for _, jid, _, _, _ in jobs:
                out.write(f"{jid}\t{starts[jid]!r}\n")


if __name__ == "__main__":
    main()
