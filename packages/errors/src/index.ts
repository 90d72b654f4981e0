export {
  ConstraintViolationError,
  InvalidInputError,
  LimitExceededError,
  type LimitExceededErrorOptions,
  ParseError,
  PolicyError,
  type PolicyErrorContext,
  SchedError,
  type SchedErrorOptions,
} from "./errors.js";
export {
  editDistance,
  type KeyRecord,
  type OptionKeys,
  optionKeys,
  refuseMisspeltKeys,
  requireKnownKeys,
} from "./known-keys.js";
export {
  describeChoices,
  describeValue,
  requireAnyInteger,
  requireArray,
  requireBoolean,
  requireFinite,
  requireInteger,
  requireNonNegative,
  requireObject,
  requireOneOf,
  requirePositive,
} from "./validate.js";
