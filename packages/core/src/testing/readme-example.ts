/** Options of {@link runReadmeExample}. */
export interface ReadmeExampleOptions {
  /** The README's text (Markdown). */
  readonly readme: string;
  /** A string that only the wanted ```` ```ts ```` block contains; the first block holding it runs. */
  readonly contains: string;
  /**
   * The modules the block's `import { a, b } from "x"` lines name, by specifier: each imported
   * name is looked up in its module and passed to the block under that name.
   */
  readonly modules: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /**
   * How one `console.log(...args)` call prints: pass Node's `util.format` to compare with what
   * Node would print.
   */
  readonly format: (...args: unknown[]) => string;
}

/** What {@link runReadmeExample} found and printed. */
export interface ReadmeExample {
  /** The block's non-blank lines, imports and expected-output comments included. */
  readonly lines: number;
  /** One string per `console.log` call of the block, as `format` printed it. */
  readonly printed: readonly string[];
  /** The block's lines that start with `// `, without that prefix: what the README says it prints. */
  readonly expected: readonly string[];
}

const IMPORT = /^import\s*\{([^}]*)\}\s*from\s*"([^"]+)";?\s*$/;

/**
 * Runs a README's example as it is written there, so a test can check that the README says what
 * the code does: the ```` ```ts ```` block holding `contains` is found, its `import { … } from "…"`
 * lines are dropped and the names they import are passed in from `modules`, its `console.log`
 * calls are captured, and its `// ` lines (the output the README shows) are returned beside what
 * it printed. A test then asserts `printed` equals `expected` (and, if it likes, a bound on
 * `lines`).
 *
 * @throws Error naming the block or the import when the block is missing, an import line is not
 *   of the form `import { a, b } from "x"`, or a name is not exported by its module.
 */
export function runReadmeExample(options: ReadmeExampleOptions): ReadmeExample {
  const { readme, contains, modules, format } = options;
  const block = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)]
    .map((m) => m[1] ?? "")
    .find((b) => b.includes(contains));
  if (block === undefined) {
    throw new Error(`runReadmeExample: no \`\`\`ts block of the README contains "${contains}"`);
  }
  const lines = block.split("\n");
  const names: string[] = [];
  const values: unknown[] = [];
  for (const line of lines.filter((l) => l.startsWith("import "))) {
    const m = IMPORT.exec(line);
    if (m === null) {
      throw new Error(
        `runReadmeExample: import line "${line}" is not of the form import { a, b } from "x"`,
      );
    }
    const from = m[2] ?? "";
    const module = modules[from];
    if (module === undefined) {
      throw new Error(`runReadmeExample: "${line}" imports from "${from}", not given in modules`);
    }
    for (const name of (m[1] ?? "").split(",").map((n) => n.trim())) {
      if (name === "") continue;
      if (!(name in module)) {
        throw new Error(
          `runReadmeExample: "${from}" exports no "${name}" (imported by the README)`,
        );
      }
      names.push(name);
      values.push(module[name]);
    }
  }
  const code = lines.filter((l) => !l.startsWith("import ")).join("\n");
  const printed: string[] = [];
  const log = (...args: unknown[]) => {
    printed.push(format(...args));
  };
  new Function(...names, "console", code)(...values, { log });
  return {
    lines: lines.filter((l) => l.trim() !== "").length,
    printed,
    expected: lines.filter((l) => l.startsWith("// ")).map((l) => l.slice(3)),
  };
}
