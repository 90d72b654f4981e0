import { InvalidInputError } from "@sched/errors";
import { describe, expect, it } from "vitest";
import { imfs, mfs } from "../src/index.js";

describe("imfs refuses unknown option keys", () => {
  it("names the misspelt key and the one meant, and accepts the known ones", () => {
    const matrix = { rows: 1, cols: 1, weights: new Float64Array([1]) };
    const previous = mfs(matrix);
    expect(() => imfs(matrix, previous, { changedRow: [0] } as never)).toThrow(InvalidInputError);
    expect(() => imfs(matrix, previous, { changedRow: [0] } as never)).toThrow(
      "@sched/matching/imfs: options.changedRow is not a known key (did you mean `changedRows`?)",
    );
    expect(imfs(matrix, previous, { changedRows: [0] }).rowToCol).toEqual(previous.rowToCol);
  });
});
