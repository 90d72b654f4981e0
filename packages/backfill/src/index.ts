export { MACHINE_ORDERS, type MachineOrder } from "./allocation.js";
export { AvailabilityProfile } from "./availability-profile.js";
export { backfill } from "./backfill.js";
export { BACKFILL_DEFAULTS, EDF_DEFAULTS } from "./defaults.js";
export { edf } from "./edf.js";
export { fcfs } from "./fcfs.js";
export type {
  BackfillOptions,
  EdfOptions,
  FcfsOptions,
  FlexibleOptions,
  PresetOptions,
} from "./options.js";
export type {
  OrderComparator,
  OrderName,
  OrderPriority,
  QueueOrder,
} from "./order.js";
export {
  type BackfillDecision,
  type BackfillPassOptions,
  type BackfillPlatformForm,
  type BackfillPoolForm,
  type BackfillState,
  type BackfillStateFields,
  backfillPass,
  type QueuedJob,
  type RunningJobState,
} from "./pass.js";
export { conservative, easy, flexible } from "./presets.js";
export type { BackfillScheduler, Reservation } from "./strategy.js";
