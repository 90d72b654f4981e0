export { deriveSeed, Random } from "./random.js";
export { indexHash } from "./seed-hash.js";
