import { createJob, type Job } from "@sched/core";
import { stableJson } from "./format.js";

/**
 * Batsim's JSON workload: `nb_res` (resources), `jobs` (`id`, `subtime`, `walltime`, `res`,
 * `profile`) and `profiles` (name -> `{type, ...}`). Only `delay` profiles (a fixed run time)
 * carry over to @sched jobs; other profile types model the application and have no run time of
 * their own.
 */
export interface BatsimWorkload {
  readonly nb_res: number;
  readonly jobs: readonly {
    readonly id: number;
    readonly subtime: number;
    readonly walltime: number;
    readonly res: number;
    readonly profile: string;
  }[];
  readonly profiles: Readonly<Record<string, { readonly type: "delay"; readonly delay: number }>>;
}

/**
 * Jobs as a Batsim JSON workload: each job's run time becomes a shared `delay` profile named
 * `delay<runtime>`, its estimate the `walltime`, its cores `res`. Deterministic (sorted keys).
 * @returns the text and the Job fields that Batsim's format cannot hold (dropped), by name.
 */
export function jobsToBatsim(
  jobs: readonly Job[],
  nbRes: number,
): { text: string; dropped: readonly string[] } {
  const profiles: Record<string, { type: "delay"; delay: number }> = {};
  const dropped = new Set<string>();
  const kept = new Set(["id", "submit", "runtime", "estimate", "cores"]);
  const out = jobs.map((j) => {
    for (const [k, v] of Object.entries(j)) if (v !== undefined && !kept.has(k)) dropped.add(k);
    const profile = `delay${j.runtime}`;
    profiles[profile] = { type: "delay", delay: j.runtime };
    return { id: j.id, subtime: j.submit, walltime: j.estimate, res: j.cores, profile };
  });
  const doc: BatsimWorkload = { nb_res: nbRes, jobs: out, profiles };
  return {
    text: stableJson(doc as unknown as Parameters<typeof stableJson>[0]),
    dropped: [...dropped].sort(),
  };
}

/**
 * Read a Batsim JSON workload as @sched jobs (submit = `subtime`, runtime = the `delay` of its
 * profile, estimate = `walltime`, or the runtime when `walltime` is absent or negative, cores =
 * `res`).
 * @throws Error naming `source`, the job and what is wrong (not JSON, a missing field, a profile
 *   that is not `delay`, an id that is not an integer).
 */
export function batsimToJobs(
  text: string,
  source: string,
): { jobs: Job[]; nbRes: number | undefined } {
  let doc: Record<string, unknown>;
  try {
    doc = JSON.parse(text) as Record<string, unknown>;
  } catch (error) {
    throw new Error(
      `${source}: not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const jobs = doc.jobs;
  const profiles = (doc.profiles ?? {}) as Record<string, { type?: unknown; delay?: unknown }>;
  if (!Array.isArray(jobs))
    throw new Error(`${source}: jobs: expected an array (a Batsim workload)`);
  const nbRes = typeof doc.nb_res === "number" ? doc.nb_res : undefined;
  const out = jobs.map((raw: Record<string, unknown>, i) => {
    const where = `${source}: jobs[${i}]`;
    const id = typeof raw.id === "string" && /^\d+$/.test(raw.id) ? Number(raw.id) : raw.id;
    if (typeof id !== "number" || !Number.isSafeInteger(id)) {
      throw new Error(`${where}.id: expected an integer id, got ${JSON.stringify(raw.id)}`);
    }
    const name = String(raw.profile);
    const profile = profiles[name];
    if (profile === undefined)
      throw new Error(`${where}.profile: no profile '${name}' in profiles`);
    if (profile.type !== "delay" || typeof profile.delay !== "number") {
      throw new Error(
        `${where}: profile '${name}' is of type ${JSON.stringify(profile.type)}; only "delay" profiles have a run time`,
      );
    }
    const runtime = profile.delay;
    const walltime = typeof raw.walltime === "number" && raw.walltime >= 0 ? raw.walltime : runtime;
    try {
      return createJob({
        id,
        submit: Number(raw.subtime),
        runtime,
        estimate: walltime,
        cores: Number(raw.res),
      });
    } catch (error) {
      throw new Error(`${where}: ${error instanceof Error ? error.message : String(error)}`);
    }
  });
  return { jobs: out, nbRes };
}
