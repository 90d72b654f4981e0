// @ts-check
/**
 * The tsup preset every @sched package builds with: ESM + CJS + .d.ts, source maps,
 * no minification (libraries are minified by their users' bundlers), clean dist/.
 *
 * Source maps carry no `sourcesContent`: they point at `../src/*.ts`, which the package ships
 * once (`files: ["dist", "src"]`), instead of copying every source into both the `.js.map`
 * and the `.cjs.map` (see the root README, "What a package ships").
 *
 * @param {{ entry: string[] | Record<string, string>, platform?: "neutral" | "node", banner?: Record<string, string>, dts?: boolean, clean?: boolean | string[] }} options
 * @returns {import("tsup").Options}
 */
export function tsupPreset(options) {
  return {
    entry: options.entry,
    format: ["esm", "cjs"],
    dts: options.dts ?? true,
    sourcemap: true,
    clean: options.clean ?? true,
    splitting: false,
    treeshake: true,
    target: "node20",
    platform: options.platform ?? "neutral",
    ...(options.banner ? { banner: options.banner } : {}),
    esbuildOptions(esbuild) {
      esbuild.sourcesContent = false;
    },
  };
}
