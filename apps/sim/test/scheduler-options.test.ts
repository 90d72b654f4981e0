import { describe, expect, it } from "vitest";
import {
  booleanOption,
  choiceOption,
  expectedOptionValue,
  integerOption,
  jsonOptionValue,
  numberOption,
  optionsForReport,
  optionValue,
} from "../src/scheduler-options.js";
import { UsageError } from "../src/usage-error.js";

// `--opt key=text` (optionValue) and an experiment file's option values (jsonOptionValue): the
// same values accepted, the same refused, at the bounds too.

const depth = integerOption({ key: "depth", min: 1, description: "d" });
const reservations = integerOption({
  key: "reservations",
  min: 0,
  allowInfinity: true,
  description: "r",
});
const order = choiceOption({ key: "order", choices: ["fcfs", "sjf"], description: "o" });
const weight = numberOption({ key: "weight", description: "w" });
const flagOption = booleanOption({ key: "flag", description: "f" });

/** optionValue's value, or "usage" when it refuses the text. */
function read(spec: Parameters<typeof optionValue>[0], text: string): unknown {
  try {
    return optionValue(spec, text, "--opt x", "run");
  } catch (error) {
    if (error instanceof UsageError) return "usage";
    throw error;
  }
}

describe("optionValue (--opt key=text)", () => {
  it("an integer option takes its min itself and refuses below it; inf only where allowed", () => {
    expect(read(depth, "1")).toBe(1);
    expect(read(depth, "0")).toBe("usage");
    expect(read(depth, "inf")).toBe("usage");
    expect(read(depth, "1.5")).toBe("usage");
    expect(read(reservations, "0")).toBe(0);
    expect(read(reservations, "-1")).toBe("usage");
    expect(read(reservations, "inf")).toBe(Number.POSITIVE_INFINITY);
  });

  it("a choice, a number and a boolean take their values and nothing else", () => {
    expect(read(order, "sjf")).toBe("sjf");
    expect(read(order, "SJF")).toBe("usage");
    expect(read(weight, "-2.5e1")).toBe(-25);
    expect(read(weight, "inf")).toBe("usage");
    expect(read(flagOption, "false")).toBe(false);
    expect(read(flagOption, "no")).toBe("usage");
  });

  it("a number is read in decimal form only; a boolean and a choice take their exact words", () => {
    for (const text of ["", " 5", "0x10", "1_0", "Infinity"]) {
      expect(read(weight, text), text).toBe("usage");
    }
    for (const text of ["1", "0", "TRUE", "yes"])
      expect(read(flagOption, text), text).toBe("usage");
    for (const text of ["sjfx", "fcfs ", "s"]) expect(read(order, text), text).toBe("usage");
  });

  it("says what it expected, in --opt's words", () => {
    const message = (spec: Parameters<typeof optionValue>[0], text: string) => {
      try {
        optionValue(spec, text, "run: option --opt x", "run");
      } catch (error) {
        return (error as Error).message;
      }
      return "accepted";
    };
    expect(message(depth, "0")).toBe("run: option --opt x: expected an integer >= 1");
    expect(message(reservations, "-1")).toBe(
      "run: option --opt x: expected an integer >= 0 or inf",
    );
    expect(message(weight, "x")).toBe("run: option --opt x: expected a finite number");
    expect(message(flagOption, "1")).toBe("run: option --opt x: expected true or false");
    expect(message(order, "x")).toBe("run: option --opt x: expected one of fcfs, sjf");
    expect(expectedOptionValue(depth)).toBe("an integer >= 1");
    expect(expectedOptionValue(reservations)).toBe('an integer >= 0 or "inf"');
    expect(expectedOptionValue(order)).toBe('one of "fcfs", "sjf"');
  });
});

describe("jsonOptionValue (an experiment file's options)", () => {
  it("accepts what --opt accepts, as JSON values of the option's type", () => {
    expect(jsonOptionValue(depth, 1)).toBe(1);
    expect(jsonOptionValue(reservations, "inf")).toBe(Number.POSITIVE_INFINITY);
    expect(jsonOptionValue(order, "fcfs")).toBe("fcfs");
    expect(jsonOptionValue(weight, 0.5)).toBe(0.5);
    expect(jsonOptionValue(flagOption, true)).toBe(true);
  });

  it("refuses what --opt refuses: a fraction or a value below min for an integer, a string not among the choices", () => {
    for (const bad of [0, 1.5, "1", "inf", Number.NaN]) {
      expect(jsonOptionValue(depth, bad), String(bad)).toBeUndefined();
    }
    expect(jsonOptionValue(reservations, 2.5)).toBeUndefined();
    for (const bad of ["SJF", "lifo", "", 1]) {
      expect(jsonOptionValue(order, bad), String(bad)).toBeUndefined();
    }
    expect(jsonOptionValue(weight, "0.5")).toBeUndefined();
    expect(jsonOptionValue(flagOption, "true")).toBeUndefined();
  });
});

describe("optionsForReport", () => {
  it("writes Infinity as inf (metrics.json is JSON, which has no Infinity), other values as they are", () => {
    expect(
      optionsForReport({ reservations: Number.POSITIVE_INFINITY, order: "sjf", w: 0.5 }),
    ).toEqual({ reservations: "inf", order: "sjf", w: 0.5 });
  });
});
