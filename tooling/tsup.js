// @ts-check
/**
 * The tsup preset every @sched package builds with: ESM + CJS + .d.ts, source maps,
 * no minification (libraries are minified by their users' bundlers), clean dist/.
 *
 * @param {{ entry: string[] | Record<string, string>, platform?: "neutral" | "node", banner?: Record<string, string>, dts?: boolean }} options
 * @returns {import("tsup").Options}
 */
export function tsupPreset(options) {
  return {
    entry: options.entry,
    format: ["esm", "cjs"],
    dts: options.dts ?? true,
    sourcemap: true,
    clean: true,
    splitting: false,
    treeshake: true,
    target: "node20",
    platform: options.platform ?? "neutral",
    ...(options.banner ? { banner: options.banner } : {}),
  };
}
