import { execFile } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "./helpers.js";
import { type SlurmCluster, slurmUnavailable, startSlurm } from "./slurm-cluster.js";
import { smallExperiment, writeExperiment } from "./sweep-helpers.js";

const run = promisify(execFile);
const appDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const unavailable = slurmUnavailable();
if (unavailable !== undefined) {
  console.warn(`slurm.test.ts skipped: ${unavailable}`);
}

describe.skipIf(unavailable !== undefined)(
  "sweep --emit slurm on a real one-node Slurm (Debian's slurm-wlm and munge, on the loopback)",
  () => {
    let cluster: SlurmCluster | undefined;
    let cli = "";
    let dir = "";

    beforeAll(async () => {
      dir = await tempDir();
      const outDir = await tempDir();
      await run("pnpm", ["exec", "tsup", "--out-dir", outDir, "--silent"], { cwd: appDir });
      cli = join(outDir, "cli.js");
      cluster = await startSlurm(join(dir, "slurm"), 2);
    }, 90_000);

    afterAll(async () => {
      await cluster?.stop();
    });

    it("the array of 3 shards it writes runs under sbatch, a dependent merge job finishes it, and the results equal a local sweep byte for byte", async () => {
      const c = cluster as SlurmCluster;
      const file = await writeExperiment(smallExperiment([0.4, 0.7], 3)); // 2 x 3 x 2 = 12 runs
      const local = join(dir, "local");
      const onSlurm = join(dir, "on-slurm");
      await run(process.execPath, [cli, "sweep", file, "--out", local, "--jobs", "1", "--quiet"]);
      const emitted = await run(process.execPath, [
        cli,
        ...["sweep", file, "--out", onSlurm, "--emit", "slurm", "--shards", "3", "--jobs", "1"],
        ...["--command", `${process.execPath} ${cli}`],
      ]);
      const script = emitted.stdout;
      expect(script).toMatch(/^#SBATCH --array=0-2$/m);
      const array = await c.sbatch(script);
      const merge = await c.sbatch(
        `#!/bin/bash\nexec ${process.execPath} ${cli} sweep ${file} --out ${onSlurm} --quiet\n`,
        [
          `--dependency=afterany:${array}`,
          "--job-name=merge",
          `--output=${join(dir, "merge.out")}`,
        ],
      );
      expect(merge).toMatch(/^\d+$/);
      try {
        await c.drain(60_000);
      } catch (error) {
        throw new Error(`${(error as Error).message}\n${await c.logs()}`);
      }
      const shardLogs = (await readdir(join(dir, "slurm"))).filter((f) => f.endsWith(".out"));
      expect(shardLogs, await c.logs()).toHaveLength(3);
      const statuses = await readdir(join(onSlurm, "shards"));
      expect(statuses.sort()).toEqual(["0-of-3.json", "1-of-3.json", "2-of-3.json"]);
      for (const f of ["results.csv", "runs.csv"]) {
        expect(await readFile(join(onSlurm, f), "utf8"), f).toBe(
          await readFile(join(local, f), "utf8"),
        );
      }
      expect(
        (await readdir(join(onSlurm, "runs"))).filter((f) => f.endsWith(".json")),
      ).toHaveLength(12);
    }, 120_000);
  },
);
