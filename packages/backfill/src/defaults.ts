import type { MachineOrder } from "./allocation.js";
import type { OrderName } from "./order.js";

/**
 * The defaults of `backfill`'s options, which `easy`, `conservative`, `fcfs` and `flexible` share
 * where they have the option (`easy` and `conservative` fix `reservations`). Frozen; read it to
 * show or compare a default, never to configure a policy.
 *
 * @example BACKFILL_DEFAULTS.order // "fcfs"
 */
export const BACKFILL_DEFAULTS: Readonly<{
  reservations: number;
  order: OrderName;
  keepReservations: boolean;
  machineOrder: MachineOrder;
  singleMachine: boolean;
  exclusive: boolean;
}> = Object.freeze({
  reservations: 1,
  order: "fcfs",
  keepReservations: false,
  machineOrder: "index",
  singleMachine: false,
  exclusive: false,
});

/**
 * The defaults of `edf`'s options. Frozen.
 *
 * @example EDF_DEFAULTS.machineOrder // "speed"
 */
export const EDF_DEFAULTS: Readonly<{
  preemption: boolean;
  machineOrder: MachineOrder;
  exclusive: boolean;
  deadlineOrder: "increasing" | "decreasing";
  undatedFactor: number;
  preemptFor: "arrivals" | "waiting";
}> = Object.freeze({
  preemption: true,
  machineOrder: "speed",
  exclusive: false,
  deadlineOrder: "increasing",
  undatedFactor: Number.POSITIVE_INFINITY,
  preemptFor: "arrivals",
});
