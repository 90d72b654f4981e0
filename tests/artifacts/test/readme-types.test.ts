import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { HERE, PUBLISHED, ROOT } from "./helpers.js";

// What a user gets who copies a README example into a strict TypeScript project: every ```ts
// block of a package README that imports from @sched compiles with `strict` against the built
// declarations (dist/*.d.ts as ES module, dist/*.d.cts as CommonJS), as published. (A user
// trial found one that did not: knapsack's jobs literal, inferred as `{ cad: number; fem?:
// undefined }`, is not a license request; and one that dereferenced a possible null.) A name that
// comes from the surrounding text (a workload, a page's platform) is declared in the block
// itself (`declare const jobs: readonly Job[];`), so every such block is checked, none skipped.

interface Example {
  readonly name: string;
  readonly code: string;
}

function examples(): Example[] {
  const out: Example[] = [];
  for (const p of PUBLISHED) {
    const readme = readFileSync(join(ROOT, "packages", p.dir, "README.md"), "utf8");
    let n = 0;
    for (const m of readme.matchAll(/```ts\n([\s\S]*?)```/g)) {
      n++;
      const code = m[1] ?? "";
      if (!/^(?:import|} from) .*"@sched\//m.test(code)) continue;
      out.push({ name: `${p.dir}-${n}`, code });
    }
  }
  return out;
}

/** Compiles the examples as in-memory files under this workspace (so @sched/* resolve). */
function diagnostics(files: ReadonlyMap<string, string>): string[] {
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ["lib.es2023.d.ts", "lib.dom.d.ts"],
    types: ["node"],
    skipLibCheck: true,
  };
  const host = ts.createCompilerHost(options);
  const read = host.readFile.bind(host);
  const exists = host.fileExists.bind(host);
  const source = host.getSourceFile.bind(host);
  host.readFile = (f) => files.get(f) ?? read(f);
  host.fileExists = (f) => files.has(f) || exists(f);
  host.getSourceFile = (f, language, onError, create) => {
    const text = files.get(f);
    return text === undefined
      ? source(f, language, onError, create)
      : ts.createSourceFile(f, text, language);
  };
  const program = ts.createProgram([...files.keys()], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const text = ts.flattenDiagnosticMessageText(d.messageText, "\n").split("\n")[0];
    if (d.file === undefined || d.start === undefined) return text ?? "";
    const { line } = d.file.getLineAndCharacterOfPosition(d.start);
    return `${d.file.fileName.slice(HERE.length)}:${line + 1}: ${text}`;
  });
}

describe("README examples type-check as published", () => {
  const all = examples();

  it("finds the examples (each package's headline example among them)", () => {
    expect(all.length).toBeGreaterThanOrEqual(18);
    for (const p of PUBLISHED) {
      if (p.dir === "errors" || p.dir === "random" || p.dir === "workload") continue;
      expect(all.some((e) => e.name.startsWith(`${p.dir}-`))).toBe(true);
    }
  });

  it("every one compiles under strict, as an ES module and (without top-level await) as CommonJS", () => {
    const files = new Map<string, string>();
    for (const e of all) {
      files.set(join(HERE, "readme-examples", `${e.name}.mts`), `${e.code}\nexport {};\n`);
      // CommonJS has no top-level await: those examples are ES modules only.
      if (!/^(?:const .*= )?await /m.test(e.code)) {
        files.set(join(HERE, "readme-examples", `${e.name}.cts`), e.code);
      }
    }
    expect(diagnostics(files)).toEqual([]);
  });

  it("can fail: a wrong type in an example is reported with its file and line", () => {
    const files = new Map([
      [
        join(HERE, "readme-examples", "bad.mts"),
        'import { mfs } from "@sched/matching";\nmfs({ rows: 1, cols: 1, weights: "1" });\nexport {};\n',
      ],
    ]);
    expect(diagnostics(files)).toEqual([
      expect.stringMatching(/^readme-examples\/bad\.mts:2: Type 'string' is not assignable/),
    ]);
  });
});
