import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  ConstraintViolationError,
  InvalidInputError,
  LimitExceededError,
  ParseError,
  SchedError,
} from "../src/index.js";

const text = fc.string({ minLength: 1, maxLength: 40 });

describe("@sched/errors (properties)", () => {
  it("every error's message starts with `where: ` and keeps the detail verbatim", () => {
    fc.assert(
      fc.property(text, text, text, fc.integer(), (where, field, detail, id) => {
        const errors: SchedError[] = [
          new InvalidInputError(where, field, detail),
          new ParseError(where, { source: field }, detail),
          new ConstraintViolationError(where, id, field, detail),
          new LimitExceededError(where, detail),
        ];
        for (const e of errors) {
          expect(e).toBeInstanceOf(SchedError);
          expect(e.where).toBe(where);
          expect(e.message.startsWith(`${where}: `)).toBe(true);
          expect(e.message.endsWith(detail)).toBe(true);
        }
      }),
    );
  });

  it("ParseError names the line only when given, its column only with it, and the field after", () => {
    fc.assert(
      fc.property(
        text,
        fc.option(fc.integer({ min: 1, max: 1e9 }), { nil: undefined }),
        fc.option(fc.integer({ min: 1, max: 1e9 }), { nil: undefined }),
        fc.option(text, { nil: undefined }),
        (source, line, column, field) => {
          const location: { source: string; line?: number; column?: number; field?: string } = {
            source,
          };
          if (line !== undefined) location.line = line;
          if (column !== undefined) location.column = column;
          if (field !== undefined) location.field = field;
          const e = new ParseError("w", location, "bad");
          const col = line === undefined || column === undefined ? "" : `:${column}`;
          const at = `${source}${line === undefined ? "" : `:${line}`}${col}${field === undefined ? "" : ` ${field}`}`;
          expect(e.message).toBe(`w: ${at}: bad`);
          expect(e.line).toBe(line);
          expect(e.column).toBe(line === undefined ? undefined : column);
          expect(e.field).toBe(field);
        },
      ),
    );
  });
});
