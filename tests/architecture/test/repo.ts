import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository's root directory. */
export const root = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");

/** A workspace package: its name, its directory, the entry points its exports map declares. */
export interface WorkspacePackage {
  readonly name: string;
  readonly dir: string;
  /** Source files of its public entry points (the `@sched/source` condition of `exports`). */
  readonly entries: readonly string[];
}

/** Every package under packages/ and apps/ (the published packages and the CLI). */
export function workspacePackages(): WorkspacePackage[] {
  const out: WorkspacePackage[] = [];
  for (const group of ["packages", "apps"]) {
    const base = join(root, group);
    if (!existsSync(base)) continue;
    for (const name of readdirSync(base).sort()) {
      const manifest = join(base, name, "package.json");
      if (!existsSync(manifest)) continue;
      const pkg = JSON.parse(readFileSync(manifest, "utf8")) as {
        name: string;
        exports?: Record<string, unknown>;
      };
      const entries: string[] = [];
      for (const target of Object.values(pkg.exports ?? {})) {
        if (typeof target === "object" && target !== null && "@sched/source" in target) {
          entries.push(join(base, name, (target as Record<string, string>)["@sched/source"]!));
        }
      }
      out.push({ name: pkg.name, dir: join(base, name), entries });
    }
  }
  return out;
}

const SKIP = new Set(["node_modules", "dist", ".turbo", "coverage", "fixtures"]);

/** Every file under `dir` whose name ends with one of `extensions`, sorted. */
export function filesUnder(dir: string, extensions: readonly string[]): string[] {
  const out: string[] = [];
  if (!existsSync(dir)) return out;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name.startsWith(".") || SKIP.has(e.name)) continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...filesUnder(p, extensions));
    else if (extensions.some((x) => e.name.endsWith(x))) out.push(p);
  }
  return out.sort();
}

/** The TypeScript sources of a package's `src/`. */
export function sourcesOf(pkg: WorkspacePackage): string[] {
  return filesUnder(join(pkg.dir, "src"), [".ts"]).filter((f) => !f.endsWith(".d.ts"));
}

/**
 * The relative module specifiers a module imports or re-exports (static, type-only and dynamic
 * `import("./x.js")`), resolved to files: `./x.js` is `./x.ts`, a directory its `index.ts`.
 * Comments are stripped first, so an example in TSDoc does not count.
 */
export function relativeImports(file: string): string[] {
  const text = stripComments(readFileSync(file, "utf8"));
  const out: string[] = [];
  const patterns = [
    /(?:^|[\s;}])(?:import|export)\s[^;'"]*?from\s*["'](\.{1,2}\/[^"']+)["']/g,
    /(?:^|[\s;}])import\s*["'](\.{1,2}\/[^"']+)["']/g,
    /\bimport\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g,
  ];
  for (const re of patterns) {
    for (const m of text.matchAll(re)) out.push(resolveModule(dirname(file), m[1]!));
  }
  return out;
}

function resolveModule(from: string, spec: string): string {
  const p = resolve(from, spec);
  for (const candidate of [p.replace(/\.js$/, ".ts"), `${p}.ts`, join(p, "index.ts")]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return p;
}

/** `text` without its block and line comments (string contents are kept). */
export function stripComments(text: string): string {
  let out = "";
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    const next = text[i + 1];
    if (c === "/" && next === "*") {
      const end = text.indexOf("*/", i + 2);
      i = end < 0 ? text.length : end + 2;
    } else if (c === "/" && next === "/") {
      while (i < text.length && text[i] !== "\n") i++;
    } else if (c === '"' || c === "'" || c === "`") {
      let j = i + 1;
      while (j < text.length && text[j] !== c) j += text[j] === "\\" ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}
