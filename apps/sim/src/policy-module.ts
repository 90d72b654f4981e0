import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { Scheduler } from "@sched/core";
import { describeFsError } from "./atomic.js";
import type { OptionValue } from "./scheduler-options.js";
import type { SchedulerChoice } from "./schedulers.js";
import { UsageError } from "./usage-error.js";

/**
 * Whether `--scheduler NAME` names a file of the user's rather than a registered policy: a path
 * (it holds a `/`) or a JavaScript module name (`.js`, `.mjs`, `.cjs`).
 */
export function isPolicyModule(name: string): boolean {
  return name.includes("/") || name.includes("\\") || /\.(c|m)?js$/.test(name);
}

function isScheduler(x: unknown): x is Scheduler {
  return (
    typeof x === "object" &&
    x !== null &&
    typeof (x as Scheduler).schedule === "function" &&
    typeof (x as Scheduler).name === "string"
  );
}

/**
 * A policy from an ES module of the user's (`--scheduler ./my-policy.mjs`): its default export,
 * else its `createScheduler` export, is either a `Scheduler` (`{ name, schedule(ctx) }`) or a
 * function that returns a fresh one given the `--opt key=value` words as an object of strings.
 * The engine's guards apply to it as to any policy: a policy that never lets the run end is
 * stopped with an error naming it.
 *
 * @throws UsageError naming the option when the module cannot be loaded or exports no policy.
 */
export async function loadPolicyModule(
  path: string,
  optWords: readonly string[],
  command: string,
): Promise<SchedulerChoice> {
  const where = `${command}: option --scheduler ${path}`;
  const options: Record<string, string> = {};
  for (const word of optWords) {
    const eq = word.indexOf("=");
    if (eq <= 0)
      throw new UsageError(`${command}: option --opt ${word}: expected key=value`, command);
    const key = word.slice(0, eq);
    if (key in options)
      throw new UsageError(`${command}: option --opt ${word}: '${key}' given twice`, command);
    options[key] = word.slice(eq + 1);
  }
  // a missing file said as such, not as Node's "Cannot find module … imported from <our bundle>"
  let isFile: boolean;
  try {
    isFile = (await stat(resolve(path))).isFile();
  } catch (error) {
    throw new UsageError(`${where}: ${describeFsError(error)}`, command);
  }
  if (!isFile) throw new UsageError(`${where}: not a file`, command);
  let module: Record<string, unknown>;
  try {
    module = (await import(pathToFileURL(resolve(path)).href)) as Record<string, unknown>;
  } catch (error) {
    const detail = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw new UsageError(`${where}: cannot load the module: ${detail}`, command);
  }
  const exported = module.default ?? module.createScheduler;
  const create = (): Scheduler => {
    const s =
      typeof exported === "function"
        ? (exported as (o: unknown) => unknown)({ ...options })
        : exported;
    if (!isScheduler(s)) {
      throw new UsageError(
        `${where}: the module's default export (or createScheduler) must be a scheduler { name, schedule(ctx) } or a function returning one`,
        command,
      );
    }
    return s;
  };
  const first = create();
  const keys = Object.keys(options).sort();
  const label =
    keys.length === 0 ? path : `${path}(${keys.map((k) => `${k}=${options[k]}`).join(",")})`;
  let used = false;
  return {
    entry: {
      name: first.name,
      description: `policy from ${path}`,
      options: [],
      create: () => {
        // The instance made to check the module serves the first run.
        if (!used) {
          used = true;
          return first;
        }
        return create();
      },
    },
    options: options as Record<string, OptionValue>,
    label,
  };
}
