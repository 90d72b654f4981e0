import { bench, describe } from "vitest";
import { formatJobJson } from "../src/jobs-json.js";
import { JobsJsonlWriter } from "../src/jobs-jsonl-writer.js";
import { WORKLOAD_MODELS } from "../src/models.js";

// Writing native JSON Lines: the string formatter (`formatJobJson` per job, a string per line)
// against `JobsJsonlWriter` (bytes into one reusable chunk), on the jobs `sched-sim gen lublin`
// writes (100,000 here, 256 processors, seed 1) and on convergent's jobs (licenses, input data).
// Both write the same bytes (checked before the benches; the property tests check it on random jobs).

const lublin = WORKLOAD_MODELS.find((m) => m.name === "lublin")!.generate({
  jobs: 100_000,
  procs: 256,
  seed: 1,
}).jobs;
const convergent = WORKLOAD_MODELS.find((m) => m.name === "convergent")!.generate({
  jobs: 20_000,
  seed: 1,
}).jobs;

function viaStrings(jobs: readonly (typeof lublin)[number][]): number {
  let bytes = 0;
  for (const j of jobs) bytes += Buffer.byteLength(`${formatJobJson(j)}\n`);
  return bytes;
}

function viaWriter(jobs: readonly (typeof lublin)[number][]): number {
  let bytes = 0;
  const writer = new JobsJsonlWriter((chunk) => {
    bytes += chunk.length;
  });
  for (const j of jobs) writer.job(j);
  writer.flush();
  return bytes;
}

for (const [name, jobs] of [
  ["lublin, 100,000 jobs", lublin],
  ["convergent, 20,000 jobs (licenses, input data)", convergent],
] as const) {
  const chunks: Buffer[] = [];
  const writer = new JobsJsonlWriter((chunk) => chunks.push(Buffer.from(chunk)));
  for (const j of jobs) writer.job(j);
  writer.flush();
  const text = jobs.map((j) => `${formatJobJson(j)}\n`).join("");
  if (!Buffer.concat(chunks).equals(Buffer.from(text))) {
    throw new Error(`${name}: the two writers' bytes differ`);
  }
  describe(`native JSON Lines, ${name}`, () => {
    bench("formatJobJson per job (string per line, as UTF-8)", () => {
      viaStrings(jobs);
    });
    bench("JobsJsonlWriter (bytes into a reused chunk)", () => {
      viaWriter(jobs);
    });
  });
}
