export { type ImfsOptions, imfs } from "./imfs.js";
export { mfs } from "./mfs.js";
export { mis } from "./mis.js";
export type { ExactMatching, Matching, MatchingInput, MatchingState } from "./types.js";
