// Preloaded (`node --require`) into a measured process by the whole-process benchmarks: at exit,
// writes one line to stderr with the CPU seconds of the main thread and of every other thread of
// the process (V8's background threads: optimizing compiler and parallel GC; libuv's pool), read
// from /proc (Linux). A `node` process spends much of a short run compiling on those threads,
// which /usr/bin/time counts but a JavaScript profile does not show. Nothing else is changed.
"use strict";
const { readFileSync } = require("node:fs");

/** Clock ticks per second of /proc's utime and stime (USER_HZ, 100 on Linux). */
const TICKS = 100;

/** User + system CPU seconds in a /proc stat line (fields 14 and 15; the command name, in
 * parentheses, may hold spaces). */
function cpuOf(stat) {
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / TICKS;
}

process.on("exit", () => {
  let total;
  let main;
  try {
    // The process's line counts every thread, also those that have ended.
    total = cpuOf(readFileSync("/proc/self/stat", "utf8"));
    main = cpuOf(readFileSync(`/proc/self/task/${process.pid}/stat`, "utf8"));
  } catch {
    return; // not Linux: say nothing
  }
  process.stderr.write(`@@threads ${main} ${Math.max(0, total - main)}\n`);
});
