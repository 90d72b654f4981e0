import { execFile } from "node:child_process";
import { copyFile, cp, mkdir, readFile, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VERSION } from "../src/version.js";
import { tempDir } from "./helpers.js";
import { appDir, buildCli } from "./queue-helpers.js";

// The `sched-sim` command as a user gets it: the package packed into a tarball (bin launcher and
// bundle), installed into a fresh project outside the repository, run through its bin link, with
// `pnpm exec` and with `npx`. Machine-readable output must be only that on stdout.

const run = promisify(execFile);
let project = "";
let removeBuild: () => Promise<void> = async () => {};

beforeAll(async () => {
  const { cli, remove } = await buildCli();
  removeBuild = remove;
  // The package as `pnpm pack` would see it once built, without the workspace's dev-only fields.
  const pkg = await tempDir();
  const manifest = JSON.parse(await readFile(join(appDir, "package.json"), "utf8"));
  delete manifest.devDependencies;
  delete manifest.scripts;
  await writeFile(join(pkg, "package.json"), JSON.stringify(manifest, null, 2));
  await mkdir(join(pkg, "bin"));
  await copyFile(join(appDir, "bin", "sched-sim.js"), join(pkg, "bin", "sched-sim.js"));
  await cp(join(cli, ".."), join(pkg, "dist"), { recursive: true });
  const packed = await run("pnpm", ["pack", "--pack-destination", pkg], { cwd: pkg });
  // pnpm prints the tarball's name, or its path: either way, it is in `pkg`.
  const tarball = join(pkg, basename(packed.stdout.trim().split("\n").at(-1) as string));
  expect(tarball).toMatch(/\.tgz$/);
  project = await tempDir();
  await writeFile(
    join(project, "package.json"),
    JSON.stringify({ name: "sched-sim-install-check", private: true }),
  );
  await run("pnpm", ["add", tarball, "--prefer-offline", "--reporter=silent"], {
    cwd: project,
    env: { ...process.env, CI: "true" },
  });
}, 180_000);

afterAll(async () => {
  await removeBuild();
});

describe("sched-sim installed from its tarball", () => {
  it("runs through its bin link, `pnpm exec` and `npx`", async () => {
    const bin = join(project, "node_modules", ".bin", "sched-sim");
    expect((await run(bin, ["--version"])).stdout).toBe(`${VERSION}\n`);
    const exec = await run("pnpm", ["exec", "sched-sim", "--version"], { cwd: project });
    expect(exec.stdout).toBe(`${VERSION}\n`);
    const npx = await run("npx", ["--no", "--", "sched-sim", "--version"], { cwd: project });
    expect(npx.stdout).toBe(`${VERSION}\n`);
  });

  it("`pnpm exec sched-sim demo --format json` writes nothing but the JSON document on stdout", async () => {
    const r = await run(
      "pnpm",
      ["exec", "sched-sim", "demo", "--jobs", "200", "--format", "json"],
      {
        cwd: project,
      },
    );
    const doc = JSON.parse(r.stdout);
    expect(doc.workload.jobs).toBe(200);
    expect(Object.keys(doc.results).length).toBeGreaterThan(0);
  });
});

describe("the bin launcher in the repository", () => {
  it("says how to build when the bundle is missing", async () => {
    const dir = await tempDir();
    await mkdir(join(dir, "bin"));
    await copyFile(join(appDir, "bin", "sched-sim.js"), join(dir, "bin", "sched-sim.js"));
    await writeFile(join(dir, "package.json"), JSON.stringify({ type: "module" }));
    const r = await run(process.execPath, [join(dir, "bin", "sched-sim.js"), "--version"]).then(
      () => ({ code: 0, stderr: "" }),
      (e: { code: number; stderr: string }) => e,
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("run `pnpm build` first");
  });

  it("is what the repository root links: `pnpm sched-sim` runs the bin, with no script banner", async () => {
    const root = JSON.parse(await readFile(join(appDir, "..", "..", "package.json"), "utf8"));
    expect(root.devDependencies["@sched/sim"]).toBe("workspace:*");
    // A root script of that name would make pnpm print its "> script" banner on stdout.
    expect(root.scripts["sched-sim"]).toBeUndefined();
    const own = JSON.parse(await readFile(join(appDir, "package.json"), "utf8"));
    expect(own.bin).toEqual({ "sched-sim": "./bin/sched-sim.js" });
  });
});
