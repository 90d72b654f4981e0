import { InvalidInputError } from "@sched/core";

/** Throws unless `value` is a finite number. @internal */
export function requireFinite(where: string, field: string, value: number): void {
  if (typeof value !== "number" || !Number.isFinite(value)) {
    throw new InvalidInputError(where, field, `is ${String(value)}, expected a finite number`);
  }
}

/** Throws unless `value` is a finite number > 0. @internal */
export function requirePositive(where: string, field: string, value: number): void {
  requireFinite(where, field, value);
  if (value <= 0) {
    throw new InvalidInputError(where, field, `is ${value}, expected a number > 0`);
  }
}

/** Throws unless `value` is a safe integer (a seed of @sched/random). @internal */
export function requireSeed(where: string, field: string, value: number): void {
  if (typeof value !== "number" || !Number.isSafeInteger(value)) {
    throw new InvalidInputError(where, field, `is ${String(value)}, expected a safe integer`);
  }
}

/** Throws unless `value` is an integer >= `min`. @internal */
export function requireInteger(where: string, field: string, value: number, min: number): void {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min) {
    throw new InvalidInputError(where, field, `is ${String(value)}, expected an integer >= ${min}`);
  }
}
