import { createPlatform, type Job, type LicenseSpec } from "@sched/core";
import { makeView } from "@sched/core/testing";
import { Random } from "@sched/random";
import { bench, describe } from "vitest";
import { allocate, machineOrder } from "../src/allocation.js";

// allocate() for jobs with licenses (the path that reads license availability per machine): a
// 150-machine farm with 4 floating and 2 node-locked licenses, a view with about half the cores
// free, and 200 jobs of 1..16 cores asking for 0..3 licenses, in every machine order and mode.
const random = new Random(7, "backfill/bench/allocation");
const machines = Array.from({ length: 150 }, () => ({
  cores: 1 + Math.floor(random.next() * 8),
  speed: 1 + Math.floor(random.next() * 4),
}));
const licenses: LicenseSpec[] = [
  { name: "f0", copies: 40 },
  { name: "f1", copies: 20, machines: Array.from({ length: 100 }, (_, i) => i) },
  { name: "f2", copies: 10, machines: Array.from({ length: 50 }, (_, i) => 2 * i) },
  { name: "f3", copies: 5 },
  { name: "n0", kind: "node-locked", copies: 2, machines: [3, 30, 60, 90, 120] },
  { name: "n1", kind: "node-locked", copies: 1, machines: [10, 70, 140] },
];
const platform = createPlatform({ machines, licenses });
const names = licenses.map((l) => l.name);
const view = makeView(platform, {
  freeCores: machines.map((m) => Math.floor(random.next() * (m.cores + 1))),
  freeLicenses: (name, m) => {
    const l = licenses.find((x) => x.name === name);
    if (l === undefined || (l.machines !== undefined && !l.machines.includes(m))) return 0;
    return Math.ceil(l.copies / 2);
  },
});
const jobs: Job[] = Array.from({ length: 200 }, (_, id) => {
  const req: Record<string, number> = {};
  const k = Math.floor(random.next() * 4);
  for (let i = 0; i < k; i++) req[names[Math.floor(random.next() * names.length)]!] = 1;
  return {
    id,
    submit: 0,
    runtime: 1,
    estimate: 1,
    cores: 1 + Math.floor(random.next() * 16),
    ...(k === 0 ? {} : { licenses: req }),
  };
});
const index = machineOrder(platform, "index");
const speed = machineOrder(platform, "speed");

describe("allocate, 200 licensed jobs on a 150-machine farm", () => {
  bench("spanning, index order", () => {
    for (const j of jobs) allocate(view, j, index, "index");
  });
  bench("spanning, speed order", () => {
    for (const j of jobs) allocate(view, j, speed, "speed");
  });
  bench("single machine, speed order", () => {
    for (const j of jobs) allocate(view, j, speed, "speed", true);
  });
});
