import { Random } from "@sched/random";
import { bench, describe } from "vitest";
import { AvailRectList, PE_SELECTIONS, paperPolicies, peWorstFit } from "../src/index.js";

/** 1024 PEs and `reservations` live reservations of 1..64 PEs placed by earliestFit over a long horizon. */
function build(reservations: number, seed = 1): AvailRectList {
  const stream = new Random(seed, "bench/build");
  const r = (): number => stream.next();
  const list = new AvailRectList(1024);
  const horizon = reservations * 40;
  for (let i = 0; i < reservations; i++) {
    const n = 1 + Math.floor(r() * 64);
    const d = 100 + Math.floor(r() * 2000);
    const fit = list.earliestFit({ peCount: n, duration: d, ready: Math.floor(r() * horizon) })!;
    list.addAllocation(fit.start, fit.start + d, fit.pes);
  }
  return list;
}

const small = build(3000);
const large = build(12000);
const stream7 = new Random(7, "bench/requests");
const r = (): number => stream7.next();
const requests = Array.from({ length: 256 }, () => {
  const tr = Math.floor(r() * 3000 * 40);
  const tdu = 100 + Math.floor(r() * 2000);
  return { tr, tdu, tdl: tr + tdu * (1 + 3 * r()), n: 32 * (1 + Math.floor(r() * 8)) };
});
let q = 0;

describe(`findAllocation, 1024 PEs, ${small.size} records (3000 reservations)`, () => {
  for (const policy of paperPolicies) {
    bench(policy.name, () => {
      const req = requests[q++ & 255]!;
      small.findAllocation(
        { ready: req.tr, duration: req.tdu, deadline: req.tdl, peCount: req.n },
        { policy },
      );
    });
  }
});

describe(`findAllocation (PE_W) by peSelection, 1024 PEs, ${small.size} records`, () => {
  for (const peSelection of PE_SELECTIONS) {
    bench(peSelection, () => {
      const req = requests[q++ & 255]!;
      small.findAllocation(
        { ready: req.tr, duration: req.tdu, deadline: req.tdl, peCount: req.n },
        { policy: peWorstFit, peSelection },
      );
    });
  }
});

describe("addAllocation + deleteAllocation (one pair), 1024 PEs", () => {
  for (const [label, list] of [
    [`${small.size} records`, small],
    [`${large.size} records`, large],
  ] as const) {
    const found = requests
      .map((req) =>
        list.findAllocation({
          ready: req.tr,
          duration: req.tdu,
          deadline: req.tdl,
          peCount: req.n,
        }),
      )
      .filter((x) => x !== null);
    let i = 0;
    bench(label, () => {
      const f = found[i++ % found.length]!;
      list.addAllocation(f.start, f.end, f.pes);
      list.deleteAllocation(f.start, f.end, f.pes);
    });
  }
});

describe("earliestFit (backfilling profile query), 1024 PEs", () => {
  bench(`${small.size} records`, () => {
    const req = requests[q++ & 255]!;
    small.earliestFit({ peCount: req.n, duration: req.tdu, ready: req.tr });
  });
});

/** Keeps the representation benchmarks' results alive. */
const sink = new Float64Array(1);

/**
 * Representation of the busy sets: the union of the busy sets of 16 consecutive records and its
 * free count, as bitsets (32 words per record) and as plain byte arrays (1024 bytes per record).
 */
describe("busy-set union over 16 records, 1024 PEs: bitset vs plain array", () => {
  const stream3 = new Random(3, "bench/policies");
  const rr = (): number => stream3.next();
  const bits = Array.from({ length: 16 }, () => {
    const s = new Uint32Array(32);
    for (let k = 0; k < 200; k++) {
      const p = Math.floor(rr() * 1024);
      s[p >>> 5]! |= 1 << (p & 31);
    }
    return s;
  });
  const bytes = bits.map((s) => {
    const b = new Uint8Array(1024);
    for (let p = 0; p < 1024; p++) b[p] = (s[p >>> 5]! >>> (p & 31)) & 1;
    return b;
  });
  const u32 = new Uint32Array(32);
  const u8 = new Uint8Array(1024);
  bench("bitset (Uint32Array words)", () => {
    u32.fill(0);
    for (const s of bits) for (let w = 0; w < 32; w++) u32[w]! |= s[w]!;
    let c = 0;
    for (let w = 0; w < 32; w++) {
      let x = u32[w]!;
      x -= (x >>> 1) & 0x55555555;
      x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
      c += (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) as number;
    }
    sink[0]! += c;
  });
  bench("plain array (Uint8Array per PE)", () => {
    u8.fill(0);
    for (const b of bytes) for (let p = 0; p < 1024; p++) u8[p]! |= b[p]!;
    let c = 0;
    for (let p = 0; p < 1024; p++) c += u8[p]!;
    sink[0]! += c;
  });
});
