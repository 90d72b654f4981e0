import { InvalidInputError, SchedError } from "@sched/core";
import { optionKeys, requireKnownKeys } from "@sched/errors";
import loadHighs, { type Highs, type InitOptions } from "highs";

const WHERE = "@sched/multicluster/loadSolver";

/**
 * Where {@link loadSolver} finds HiGHS' WebAssembly binary (`highs.wasm`, shipped by the `highs`
 * package as `highs/runtime`, i.e. `node_modules/highs/build/highs.wasm`). Give at most one field.
 */
export interface SolverOptions {
  /**
   * Maps the file name (`"highs.wasm"`) to the URL (browser) or path (Node) to load it from, e.g.
   * `(file) => new URL(\`/assets/${file}\`, location.href).href`.
   * @defaultValue Node: the file inside the installed `highs` package. Browser: `highs.wasm`
   * relative to the document's base URL (`document.baseURI`; in a worker, the worker script's
   * URL), i.e. served beside the page.
   */
  readonly locateFile?: (file: string) => string;
  /**
   * The binary itself, e.g. bytes your bundler imported or you fetched.
   * @defaultValue undefined (the file is loaded as {@link SolverOptions.locateFile} says)
   */
  readonly wasmBinary?: InitOptions["wasmBinary"];
  /**
   * The binary already compiled, e.g. `await WebAssembly.compileStreaming(fetch(url))`.
   * @defaultValue undefined (the file is loaded as {@link SolverOptions.locateFile} says)
   */
  readonly wasmModule?: InitOptions["wasmModule"];
}

/** The keys of {@link SolverOptions}, all of them (checked by the compiler). */
const SOLVER_KEYS = optionKeys<SolverOptions>({
  locateFile: true,
  wasmBinary: true,
  wasmModule: true,
});

let solver: Promise<Highs> | undefined;

/** True in Node (and runtimes that present themselves as Node), as HiGHS' loader decides. */
function isNode(): boolean {
  const p = (globalThis as { process?: { versions?: { node?: string }; type?: string } }).process;
  return typeof p?.versions?.node === "string" && p.type !== "renderer";
}

/** The browser default: `file` relative to the document's (or worker's) base URL. */
function besidePage(file: string): string {
  const g = globalThis as { document?: { baseURI?: string }; location?: { href?: string } };
  const base = g.document?.baseURI ?? g.location?.href;
  if (base === undefined) {
    throw new InvalidInputError(
      WHERE,
      "options.locateFile",
      `is missing and this runtime has neither a document nor a location to find ${file} from; pass locateFile, wasmBinary or wasmModule`,
    );
  }
  return new URL(file, base).href;
}

/** The options handed to the HiGHS loader: the caller's, else the platform's default. */
function loaderOptions(options: SolverOptions): InitOptions {
  const given = (["locateFile", "wasmBinary", "wasmModule"] as const).filter(
    (k) => options[k] !== undefined,
  );
  if (given.length > 1) {
    throw new InvalidInputError(
      WHERE,
      "options",
      `gives ${given.join(" and ")}, expected at most one way to find highs.wasm`,
    );
  }
  if (options.locateFile !== undefined && typeof options.locateFile !== "function") {
    throw new InvalidInputError(
      WHERE,
      "options.locateFile",
      `is ${typeof options.locateFile}, expected a function (file) => URL or path`,
    );
  }
  if (options.wasmBinary !== undefined) return { wasmBinary: options.wasmBinary };
  if (options.wasmModule !== undefined) return { wasmModule: options.wasmModule };
  if (options.locateFile !== undefined) return { locateFile: options.locateFile };
  return isNode() ? {} : { locateFile: besidePage };
}

/** The file the loader will read, for error messages. */
function describeSource(init: InitOptions): string {
  if (init.wasmBinary !== undefined) return "the given wasmBinary";
  if (init.wasmModule !== undefined) return "the given wasmModule";
  if (init.locateFile !== undefined) {
    try {
      return init.locateFile("highs.wasm");
    } catch {
      return "the locateFile result";
    }
  }
  return "highs.wasm in the installed highs package";
}

/**
 * The HiGHS WebAssembly runtime, loaded once per process (page, worker) and shared by every
 * solve (each solve creates its own model and disposes it). `solveOas` calls it
 * without options; call it first with options to say where `highs.wasm` is.
 *
 * In Node nothing is needed: the binary is read from the installed `highs` package. In a browser
 * the binary must be served: by default `highs.wasm` beside the page (copy `highs/runtime`, i.e.
 * `node_modules/highs/build/highs.wasm`, to your static files), or anywhere with `locateFile`,
 * or handed over as `wasmBinary` / `wasmModule`.
 *
 * Complexity: the first call compiles the Wasm module (tens to hundreds of ms); later calls are
 * O(1).
 *
 * @param options - where `highs.wasm` is; read by the first call only.
 * @throws InvalidInputError when options are given after HiGHS started loading (they could not take
 * effect) or give more than one source. A failed load rejects with a SchedError (code
 * `SOLVER_LOAD`) naming the file it tried, and is forgotten, so a later call may retry.
 *
 * @example
 * ```ts
 * await loadSolver(); // Node: warm-up, e.g. before timing solves
 * await loadSolver({ locateFile: (file) => `/assets/${file}` }); // browser: served from /assets
 * ```
 */
export function loadSolver(options?: SolverOptions): Promise<Highs> {
  if (solver !== undefined) {
    if (options !== undefined) {
      return Promise.reject(
        new InvalidInputError(
          WHERE,
          "options",
          "were given after HiGHS started loading, so they cannot take effect; pass them to the first loadSolver call, before any solve",
        ),
      );
    }
    return solver;
  }
  let init: InitOptions;
  try {
    init = loaderOptions(requireKnownKeys(WHERE, "options", options, SOLVER_KEYS) ?? {});
  } catch (e) {
    return Promise.reject(e);
  }
  const loading = loadHighs(init).catch((cause: unknown) => {
    if (solver === loading) solver = undefined;
    throw new SchedError(
      "SOLVER_LOAD",
      WHERE,
      `could not load HiGHS from ${describeSource(init)}: ${cause instanceof Error ? cause.message : String(cause)}. ` +
        "Serve highs.wasm (the highs package's build/highs.wasm) there, or pass locateFile, wasmBinary or wasmModule to loadSolver() before the first solve",
      { cause },
    );
  });
  solver = loading;
  return loading;
}
