export {
  ConstraintViolationError,
  InvalidInputError,
  LimitExceededError,
  ParseError,
  SchedError,
  type SchedErrorOptions,
} from "./errors.js";
