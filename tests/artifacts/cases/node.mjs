// Runs every case in plain Node against the built packages (their "import" export condition) and
// prints { [package]: JSON of its result }. Used by test/browser.test.ts as the reference.
import { readdirSync } from "node:fs";

const dir = new URL(".", import.meta.url);
const out = {};
for (const file of readdirSync(dir)
  .filter((f) => f.endsWith(".js"))
  .sort()) {
  const { compute } = await import(new URL(file, dir).href);
  out[file.slice(0, -3)] = JSON.stringify(await compute());
}
process.stdout.write(JSON.stringify(out));
