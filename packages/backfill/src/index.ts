export { MACHINE_ORDERS, type MachineOrder } from "./allocation.js";
export { type BackfillOptions, type BackfillScheduler, backfill } from "./backfill.js";
export { type EdfOptions, edf } from "./edf.js";
export { type FcfsOptions, fcfs } from "./fcfs.js";
export type {
  OrderComparator,
  OrderName,
  OrderPriority,
  QueueOrder,
} from "./order.js";
export {
  conservative,
  easy,
  type FlexibleOptions,
  flexible,
  type PresetOptions,
} from "./presets.js";
export { AvailabilityProfile } from "./profile.js";
