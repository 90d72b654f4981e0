import manifest from "../package.json" with { type: "json" };

/** The version of sched-sim, from its package.json (inlined by the bundler). */
export const VERSION: string = manifest.version;
