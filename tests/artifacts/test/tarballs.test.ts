import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkPackage, createPackageFromTarballData, type Package } from "@arethetypeswrong/core";
import { publint } from "publint";
import { formatMessage } from "publint/utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PUBLISHED, pnpm, ROOT } from "./helpers.js";

// What npm users get: every published package packed by pnpm (as `changeset publish` does), then
// its tarball checked. Source maps carry no sourcesContent and point into the shipped src/, so each
// source ships once (root README, "What a package ships").

let dir = "";
const tarballs = new Map<string, Uint8Array>();
const packages = new Map<string, Package>();
const rootManifest = JSON.parse(await readFile(join(ROOT, "package.json"), "utf8"));
const rootLicense = await readFile(join(ROOT, "LICENSE"), "utf8");

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "sched-tarballs-"));
  await pnpm(["-r", "--filter", "./packages/*", "pack", "--pack-destination", dir], ROOT);
  for (const p of PUBLISHED) {
    const file = `${p.name.slice(1).replace("/", "-")}-${p.version}.tgz`;
    const data = new Uint8Array(await readFile(join(dir, file)));
    tarballs.set(p.name, data);
    packages.set(p.name, createPackageFromTarballData(data));
  }
}, 120_000);

afterAll(async () => {
  if (dir !== "") await rm(dir, { recursive: true, force: true });
});

/** The tarball's files, relative to the package root. */
function filesOf(name: string): string[] {
  const pkg = packages.get(name) as Package;
  const prefix = `/node_modules/${name}/`;
  return pkg
    .listFiles()
    .map((f) => f.slice(prefix.length))
    .sort();
}

describe.each(PUBLISHED)("$name tarball", ({ name, dir: pkgDir, manifest }) => {
  it("ships its own LICENSE, identical to the root one", () => {
    expect(filesOf(name)).toContain("LICENSE");
    const pkg = packages.get(name) as Package;
    expect(pkg.readFile(`/node_modules/${name}/LICENSE`)).toBe(rootLicense);
  });

  it("declares keywords, the MIT license and the root's engines", () => {
    expect(Array.isArray(manifest.keywords) && manifest.keywords.length > 0).toBe(true);
    expect(manifest.license).toBe("MIT");
    expect(manifest.engines).toEqual(rootManifest.engines);
    expect(manifest.repository).toMatchObject({ directory: `packages/${pkgDir}` });
  });

  it("ships only package.json, README, LICENSE, dist/ and src/ (and a folder per subpath export, for node10)", () => {
    const top = new Set(filesOf(name).map((f) => f.split("/")[0]));
    const subpaths = Object.keys(manifest.exports ?? {})
      .filter((k) => k !== "." && k !== "./package.json")
      .map((k) => k.slice(2).split("/")[0]);
    const allowed = new Set(["package.json", "README.md", "LICENSE", "dist", "src", ...subpaths]);
    expect([...top].filter((t) => !allowed.has(t))).toEqual([]);
    expect(top.has("dist") && top.has("src")).toBe(true);
  });

  it("ships each source once: maps without sourcesContent, pointing at shipped files", () => {
    const files = new Set(filesOf(name));
    const pkg = packages.get(name) as Package;
    const maps = [...files].filter((f) => f.endsWith(".map"));
    expect(maps.length).toBeGreaterThan(0);
    for (const map of maps) {
      const parsed = JSON.parse(pkg.readFile(`/node_modules/${name}/${map}`)) as {
        sources: string[];
        sourcesContent?: unknown[];
      };
      expect(parsed.sourcesContent ?? [], map).toEqual([]);
      const base = map.split("/").slice(0, -1);
      for (const source of parsed.sources) {
        // Virtual modules of a bundle (e.g. "highs:build/highs.mjs") are named, not shipped.
        if (/^[a-z-]+:/.test(source)) continue;
        const parts = [...base];
        for (const seg of source.split("/")) {
          if (seg === "..") parts.pop();
          else if (seg !== ".") parts.push(seg);
        }
        expect(files.has(parts.join("/")), `${map} -> ${source}`).toBe(true);
      }
    }
  });

  it("passes publint --strict on the tarball", async () => {
    const data = tarballs.get(name) as Uint8Array;
    const { messages, pkg } = await publint({
      pack: { tarball: data.slice().buffer },
      strict: true,
      level: "warning",
    });
    expect(messages.map((m) => formatMessage(m, pkg, { color: false }))).toEqual([]);
  });

  it("passes @arethetypeswrong (node10, node16 from CJS and ESM, bundler)", async () => {
    const result = await checkPackage(packages.get(name) as Package);
    expect(result.types).not.toBe(false);
    const problems = "problems" in result ? result.problems : [];
    expect(
      problems.map((p) =>
        [
          p.kind,
          "entrypoint" in p ? p.entrypoint : "",
          "resolutionKind" in p ? p.resolutionKind : "",
        ]
          .filter(Boolean)
          .join(" "),
      ),
    ).toEqual([]);
  });
});
