import { InvalidInputError } from "@sched/errors";

/** Internal validation helpers shared by the builders. Not exported from the package. */

export function describeValue(value: unknown): string {
  if (typeof value === "number") return Number.isNaN(value) ? "NaN" : String(value);
  if (typeof value === "string") return JSON.stringify(value);
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value;
}

export function requireFinite(where: string, field: string, value: unknown): number {
  if (typeof value !== "number" || !Number.isFinite(value)) {
    throw new InvalidInputError(
      where,
      field,
      `is ${describeValue(value)}, expected a finite number`,
    );
  }
  return value;
}

export function requirePositive(where: string, field: string, value: unknown): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
    throw new InvalidInputError(
      where,
      field,
      `is ${describeValue(value)}, expected a finite number > 0`,
    );
  }
  return value;
}

export function requireNonNegative(where: string, field: string, value: unknown): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    throw new InvalidInputError(
      where,
      field,
      `is ${describeValue(value)}, expected a finite number >= 0`,
    );
  }
  return value;
}

export function requireInteger(where: string, field: string, value: unknown, min: number): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < min) {
    throw new InvalidInputError(
      where,
      field,
      `is ${describeValue(value)}, expected an integer >= ${min}`,
    );
  }
  return value;
}

export function requireAnyInteger(where: string, field: string, value: unknown): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value)) {
    throw new InvalidInputError(where, field, `is ${describeValue(value)}, expected an integer`);
  }
  return value;
}

export function requireObject(where: string, field: string, value: unknown): object {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new InvalidInputError(where, field, `is ${describeValue(value)}, expected an object`);
  }
  return value;
}

export function requireArray(where: string, field: string, value: unknown): readonly unknown[] {
  if (!Array.isArray(value)) {
    throw new InvalidInputError(where, field, `is ${describeValue(value)}, expected an array`);
  }
  return value;
}
