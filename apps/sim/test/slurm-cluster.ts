import { execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { join } from "node:path";
import { promisify } from "node:util";

const exec = promisify(execFile);

/** The Debian programs a one-node Slurm needs (packages slurm-wlm and munge). */
const PROGRAMS = {
  munged: "/usr/sbin/munged",
  slurmctld: "/usr/sbin/slurmctld",
  slurmd: "/usr/sbin/slurmd",
  sbatch: "/usr/bin/sbatch",
  sinfo: "/usr/bin/sinfo",
  squeue: "/usr/bin/squeue",
} as const;

/**
 * Why a one-node Slurm cannot be started here, or undefined when it can: the programs of
 * Debian's slurm-wlm and munge must be installed (`.ci/run` installs them when it is root with
 * apt), and the daemons run as root (slurmd launches jobs as their user).
 */
export function slurmUnavailable(): string | undefined {
  const missing = Object.values(PROGRAMS).filter((p) => !existsSync(p));
  if (missing.length > 0) {
    return `Slurm is not installed (missing ${missing.join(", ")}; Debian: apt-get install slurm-wlm munge)`;
  }
  if (typeof process.getuid === "function" && process.getuid() !== 0) {
    return "the one-node Slurm of this test runs its daemons as root, and this is not root";
  }
  return undefined;
}

/** A free TCP port on the loopback. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/** A running one-node Slurm cluster on the loopback, with its own munge, ports and state. */
export interface SlurmCluster {
  /** The environment that makes `sbatch`, `squeue`, … talk to this cluster (`SLURM_CONF`). */
  readonly env: NodeJS.ProcessEnv;
  /** Submit a batch script from the cluster's directory (relative log paths land there); resolves to the job id. */
  sbatch(script: string, args?: readonly string[]): Promise<string>;
  /** Resolves when no job of the cluster is pending or running (or rejects after `timeoutMs`). */
  drain(timeoutMs: number): Promise<void>;
  /** The daemons' logs, for a failure message. */
  logs(): Promise<string>;
  /** Stops the daemons. */
  stop(): Promise<void>;
}

/**
 * Start munged, slurmctld and slurmd in `dir` (keys, sockets, state, spool, logs all inside it; free
 * ports on 127.0.0.1), one node with `cpus` CPUs, and wait until the node is idle.
 *
 * @throws Error with the daemons' logs when the node does not come up within 20 s.
 */
export async function startSlurm(dir: string, cpus: number): Promise<SlurmCluster> {
  await mkdir(join(dir, "state"), { recursive: true });
  await mkdir(join(dir, "spool"), { recursive: true });
  const key = join(dir, "munge.key");
  const sock = join(dir, "munge.sock");
  await writeFile(key, Buffer.from(Array.from({ length: 1024 }, (_, i) => (i * 7919 + 13) % 256)));
  await chmod(key, 0o600);
  await chmod(dir, 0o700);
  const pids: number[] = [];
  const daemon = async (program: string, args: readonly string[]) => {
    const child = spawn(program, args, { stdio: "ignore", detached: true });
    child.unref();
    if (child.pid !== undefined) pids.push(child.pid);
    await new Promise((r) => setTimeout(r, 50));
  };
  await exec(PROGRAMS.munged, [
    "--force",
    `--key-file=${key}`,
    `--socket=${sock}`,
    `--pid-file=${join(dir, "munged.pid")}`,
    `--log-file=${join(dir, "munged.log")}`,
    `--seed-file=${join(dir, "munged.seed")}`,
  ]);
  const [ctld, slurmd] = [await freePort(), await freePort()];
  const conf = join(dir, "slurm.conf");
  await writeFile(
    conf,
    [
      "ClusterName=schedsimtest",
      "SlurmctldHost=localhost",
      `SlurmctldPort=${ctld}`,
      `SlurmdPort=${slurmd}`,
      "AuthType=auth/munge",
      `AuthInfo=socket=${sock}`,
      "CredType=cred/munge",
      "SlurmUser=root",
      "SlurmdUser=root",
      `StateSaveLocation=${join(dir, "state")}`,
      `SlurmdSpoolDir=${join(dir, "spool")}`,
      `SlurmctldPidFile=${join(dir, "slurmctld.pid")}`,
      `SlurmdPidFile=${join(dir, "slurmd.pid")}`,
      `SlurmctldLogFile=${join(dir, "slurmctld.log")}`,
      `SlurmdLogFile=${join(dir, "slurmd.log")}`,
      "ProctrackType=proctrack/linuxproc",
      "TaskPlugin=task/none",
      "JobAcctGatherType=jobacct_gather/none",
      "AccountingStorageType=accounting_storage/none",
      "SelectType=select/cons_tres",
      "SelectTypeParameters=CR_CPU",
      "SchedulerType=sched/backfill",
      "ReturnToService=2",
      "MpiDefault=none",
      `NodeName=localhost NodeHostname=localhost NodeAddr=127.0.0.1 CPUs=${cpus} RealMemory=1000 State=UNKNOWN`,
      "PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP",
      "",
    ].join("\n"),
  );
  const env = { ...process.env, SLURM_CONF: conf };
  const logs = async () => {
    const parts: string[] = [];
    for (const f of ["slurmctld.log", "slurmd.log", "munged.log"]) {
      const text = await readFile(join(dir, f), "utf8").catch(() => "(none)");
      parts.push(`--- ${f}\n${text.split("\n").slice(-15).join("\n")}`);
    }
    return parts.join("\n");
  };
  const stop = async () => {
    for (const f of ["slurmd.pid", "slurmctld.pid", "munged.pid"]) {
      const pid = Number((await readFile(join(dir, f), "utf8").catch(() => "")).trim());
      if (pid > 0) pids.push(pid);
    }
    for (const pid of new Set(pids)) {
      try {
        process.kill(pid, "SIGTERM");
      } catch {
        // already gone
      }
    }
  };
  await daemon(PROGRAMS.slurmctld, ["-f", conf, "-i"]);
  await daemon(PROGRAMS.slurmd, ["-f", conf]);
  const deadline = Date.now() + 20_000;
  for (;;) {
    const state = await exec(PROGRAMS.sinfo, ["-h", "-o", "%T"], { env })
      .then((r) => r.stdout.trim())
      .catch(() => "");
    if (state === "idle") break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the one-node Slurm did not come up (sinfo: '${state}')\n${await logs()}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    env,
    async sbatch(script, args = []) {
      const path = join(dir, `job-${Date.now()}.sbatch`);
      await writeFile(path, script);
      const r = await exec(PROGRAMS.sbatch, ["--parsable", ...args, path], { env, cwd: dir });
      return r.stdout.trim().split(";")[0] as string;
    },
    async drain(timeoutMs) {
      const end = Date.now() + timeoutMs;
      for (;;) {
        const r = await exec(PROGRAMS.squeue, ["-h", "-o", "%i %T"], { env });
        if (r.stdout.trim() === "") return;
        if (Date.now() > end) {
          throw new Error(`Slurm jobs still queued after ${timeoutMs} ms:\n${r.stdout}`);
        }
        await new Promise((res) => setTimeout(res, 200));
      }
    },
    logs,
    stop,
  };
}
