import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type Allocation,
  createJob,
  createPlatform,
  firstFitAllocation,
  type Job,
  type Platform,
  ResourceLedger,
} from "../src/index.js";
import { arbPlatform, makeView } from "../src/testing/index.js";

/** A naive model of the ledger: plain arrays and maps, checked the obvious way. */
class NaiveLedger {
  free: number[];
  floating = new Map<string, number>();
  locked = new Map<string, number[]>();
  constructor(readonly platform: Platform) {
    this.free = platform.machines.map((m) => m.cores);
    for (const l of platform.licenses) {
      if (l.kind === "floating") this.floating.set(l.name, l.copies);
      else {
        this.locked.set(
          l.name,
          platform.machines.map((m) => (l.machines!.includes(m.id) ? l.copies : 0)),
        );
      }
    }
  }
  fits(job: Job, alloc: Allocation): boolean {
    const ms = alloc.map((p) => p.machine);
    if (new Set(ms).size !== ms.length) return false;
    if (alloc.reduce((s, p) => s + p.cores, 0) !== job.cores) return false;
    if (alloc.some((p) => p.cores < 1 || p.cores > (this.free[p.machine] ?? -1))) return false;
    for (const [name, copies] of Object.entries(job.licenses ?? {})) {
      const l = this.platform.licenses.find((x) => x.name === name);
      if (l === undefined) return false;
      if (l.kind === "floating") {
        if (l.machines !== undefined && ms.some((m) => !l.machines!.includes(m))) return false;
        if (copies > this.floating.get(name)!) return false;
      } else if (copies > this.locked.get(name)![ms[0]!]!) return false;
    }
    return true;
  }
  apply(job: Job, alloc: Allocation, sign: 1 | -1): void {
    for (const p of alloc) this.free[p.machine]! -= sign * p.cores;
    for (const [name, copies] of Object.entries(job.licenses ?? {})) {
      if (this.floating.has(name))
        this.floating.set(name, this.floating.get(name)! - sign * copies);
      else this.locked.get(name)![alloc[0]!.machine]! -= sign * copies;
    }
  }
}

const scenario = arbPlatform({ shape: "farm" }).chain((platform) => {
  const n = platform.machines.length;
  const names = [...platform.licenses.map((l) => l.name), "ghost"];
  const step = fc.record({
    give: fc.boolean(),
    parts: fc.array(
      fc.record({
        machine: fc.integer({ min: 0, max: n - 1 }),
        cores: fc.integer({ min: 1, max: 4 }),
      }),
      { minLength: 1, maxLength: 3 },
    ),
    licenses: fc.option(
      fc.dictionary(fc.constantFrom(...names), fc.integer({ min: 1, max: 3 }), { maxKeys: 2 }),
      { nil: undefined },
    ),
  });
  return fc.array(step, { maxLength: 40 }).map((steps) => ({ platform, steps }));
});

describe("ResourceLedger (properties)", () => {
  it("accepts exactly what a naive model accepts, and keeps the same free counts", () => {
    fc.assert(
      fc.property(scenario, ({ platform, steps }) => {
        const ledger = new ResourceLedger(platform);
        const naive = new NaiveLedger(platform);
        const held: { job: Job; alloc: Allocation }[] = [];
        steps.forEach((s, i) => {
          if (s.give && held.length > 0) {
            const h = held.shift()!;
            ledger.give(h.job, h.alloc);
            naive.apply(h.job, h.alloc, -1);
            return;
          }
          const cores = s.parts.reduce((a, p) => a + p.cores, 0);
          const job = createJob(
            s.licenses === undefined || Object.keys(s.licenses).length === 0
              ? { id: i, submit: 0, runtime: 1, cores }
              : { id: i, submit: 0, runtime: 1, cores, licenses: s.licenses },
          );
          const expected = naive.fits(job, s.parts);
          let ok = true;
          try {
            ledger.take(job, s.parts);
          } catch {
            ok = false;
          }
          expect(ok).toBe(expected);
          if (ok) {
            naive.apply(job, s.parts, 1);
            held.push({ job, alloc: s.parts });
          }
          for (let m = 0; m < platform.machines.length; m++) {
            expect(ledger.freeCores(m)).toBe(naive.free[m]);
            for (const l of platform.licenses) {
              const want =
                l.kind === "floating"
                  ? l.machines === undefined || l.machines.includes(m)
                    ? naive.floating.get(l.name)
                    : 0
                  : naive.locked.get(l.name)![m];
              expect(ledger.freeLicenses(l.name, m)).toBe(want);
            }
          }
          expect(ledger.totalFreeCores).toBe(naive.free.reduce((a, b) => a + b, 0));
        });
      }),
      { numRuns: 100 },
    );
  });

  it("nextFreeMachine and firstFitAllocation agree with a linear scan", () => {
    fc.assert(
      fc.property(scenario, fc.integer({ min: 1, max: 20 }), ({ platform, steps }, want) => {
        const ledger = new ResourceLedger(platform);
        steps.forEach((s, i) => {
          const cores = s.parts.reduce((a, p) => a + p.cores, 0);
          try {
            ledger.take(createJob({ id: i, submit: 0, runtime: 1, cores }), s.parts);
          } catch {
            // a step that does not fit is skipped
          }
        });
        const n = platform.machines.length;
        for (let from = 0; from <= n; from++) {
          let m = from;
          while (m < n && ledger.freeCores(m) === 0) m++;
          expect(ledger.nextFreeMachine(from)).toBe(m < n ? m : -1);
        }
        // makeView scans the free cores linearly; the ledger reads its bitset of free machines.
        const base = makeView(platform, {
          freeCores: platform.machines.map((_, m) => ledger.freeCores(m)),
        });
        const fast = firstFitAllocation(
          { ...base, nextFreeMachine: (f: number) => ledger.nextFreeMachine(f) },
          want,
        );
        expect(fast).toEqual(firstFitAllocation(base, want));
        // The definition: machines in index order, each giving what it has free until enough.
        const expected: { machine: number; cores: number }[] = [];
        let need = want;
        for (let m = 0; m < n && need > 0; m++) {
          const take = Math.min(need, ledger.freeCores(m));
          if (take > 0) expected.push({ machine: m, cores: take });
          need -= take;
        }
        expect(fast).toEqual(need > 0 ? null : expected);
        if (fast !== null) {
          expect(fast.reduce((a, p) => a + p.cores, 0)).toBe(want);
          for (const p of fast) expect(p.cores).toBeLessThanOrEqual(ledger.freeCores(p.machine));
        } else {
          expect(ledger.totalFreeCores).toBeLessThan(want);
        }
      }),
      { numRuns: 100 },
    );
  });

  it("keeps nextFreeMachine exact under many-part takes and gives in any part order", () => {
    // Up to 100 machines of 1-3 cores; allocations of up to 40 parts, parts shuffled (the
    // ledger turns a machine's bit only when its free cores turn 0 or positive).
    const arb = fc
      .array(fc.integer({ min: 1, max: 3 }), { minLength: 1, maxLength: 100 })
      .chain((cores) =>
        fc
          .array(
            fc.record({
              give: fc.boolean(),
              machines: fc.uniqueArray(fc.integer({ min: 0, max: cores.length - 1 }), {
                minLength: 1,
                maxLength: 40,
              }),
              sizes: fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 40, maxLength: 40 }),
            }),
            { maxLength: 30 },
          )
          .map((steps) => ({ cores, steps })),
      );
    fc.assert(
      fc.property(arb, ({ cores, steps }) => {
        const platform = createPlatform({ machines: cores.map((c) => ({ cores: c })) });
        const ledger = new ResourceLedger(platform);
        const free = [...cores];
        const held: { job: Job; alloc: Allocation }[] = [];
        steps.forEach((s, i) => {
          if (s.give && held.length > 0) {
            const h = held.splice(i % held.length, 1)[0]!;
            ledger.give(h.job, h.alloc);
            for (const p of h.alloc) free[p.machine]! += p.cores;
          } else {
            const alloc = s.machines
              .map((m, k) => ({ machine: m, cores: Math.min(s.sizes[k]!, free[m]!) }))
              .filter((p) => p.cores > 0);
            if (alloc.length === 0) return;
            const job = createJob({
              id: i,
              submit: 0,
              runtime: 1,
              cores: alloc.reduce((a, p) => a + p.cores, 0),
            });
            ledger.take(job, alloc);
            for (const p of alloc) free[p.machine]! -= p.cores;
            held.push({ job, alloc });
          }
          const n = cores.length;
          for (let m = 0; m < n; m++) expect(ledger.freeCores(m)).toBe(free[m]);
          expect(ledger.totalFreeCores).toBe(free.reduce((a, b) => a + b, 0));
          for (let from = 0; from <= n; from++) {
            let m = from;
            while (m < n && free[m] === 0) m++;
            expect(ledger.nextFreeMachine(from)).toBe(m < n ? m : -1);
          }
        });
      }),
      { numRuns: 100 },
    );
  });
});
