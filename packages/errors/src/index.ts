export {
  ConstraintViolationError,
  InvalidInputError,
  LimitExceededError,
  ParseError,
  PolicyError,
  type PolicyErrorContext,
  SchedError,
  type SchedErrorOptions,
} from "./errors.js";
