import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";

const dir = join(dirname(fileURLToPath(import.meta.url)), "..", "fixtures");

/** The four traces in `fixtures/` (see fixtures/README.md). */
export const TRACES = {
  kth: "KTH-SP2-1996-2.1-cln.swf",
  hpc2n: "hpc2n-alea-3171.swf",
  nasa: "NASA-iPSC-1993-3.1-cln.swf.gz",
  lublin: "lublin_256.swf",
} as const;

/** Path of a fixture file. */
export function fixturePath(name: string): string {
  return join(dir, name);
}

/** Text of a fixture trace, gunzipped when it ends in `.gz`. */
export function fixtureText(name: string): string {
  const bytes = readFileSync(fixturePath(name));
  return (name.endsWith(".gz") ? gunzipSync(bytes) : bytes).toString("utf8");
}
