export { deriveSeed, Random } from "./random.js";
