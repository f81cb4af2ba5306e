/**
 * Test helpers for sandbox/cgroup.ts: computers with unique names that are removed after
 * each test (and swept after the file, should a test have failed halfway), and a launcher
 * that joins a command's cgroups exactly as the box's launcher does before it runs a script.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { constants as osConstants } from "node:os";
import { afterAll, afterEach } from "vitest";
import type { ContainerResources } from "../../wire/index.ts";
import { type ComputerCgroups, openComputerCgroups } from "../sandbox/cgroup.ts";
import { childCgroups, locateOwnCgroups, type OwnCgroups } from "../sandbox/cgroupfs.ts";

const MIB = 1024 * 1024;

/** Small limits keep the tests fast: a 32 MiB computer fills in milliseconds. */
export const smallLimits: ContainerResources = {
  memoryBytesMax: 32 * MIB,
  pidsMax: 32,
  cpuMillicores: 1_000,
  tmpBytesMax: 16 * MIB,
};

export function ownCgroups(): OwnCgroups {
  return locateOwnCgroups(readFileSync("/proc/self/mountinfo", "utf8"), readFileSync("/proc/self/cgroup", "utf8"));
}

const prefix = `t${process.pid}-`;
let counter = 0;

/** Opens computers for a test file and removes them after each test; the log lines land in `logs`. */
export function useComputers() {
  const open: ComputerCgroups[] = [];
  const logs: string[] = [];
  afterEach(async () => {
    for (const computer of open.splice(0)) await computer.remove();
    logs.length = 0;
  });
  afterAll(async () => {
    // Whatever a failed test left: open it again (which empties its commands) and remove it.
    const names = new Set<string>();
    for (const dir of Object.values(ownCgroups().v1)) {
      for (const child of await childCgroups(dir, `cubicle-${prefix}`))
        names.add(child.split("cubicle-").pop() as string);
    }
    for (const name of names) await (await openComputerCgroups(name, smallLimits, { log: () => {} }))?.remove();
  });
  return {
    logs,
    name: () => `${prefix}${++counter}`,
    async open(limits: ContainerResources = smallLimits, name = `${prefix}${++counter}`): Promise<ComputerCgroups> {
      const computer = await openComputerCgroups(name, limits, { log: (m) => logs.push(m) });
      if (!computer) throw new Error(`no cgroups on this machine: ${logs.join("; ")}`);
      open.push(computer);
      return computer;
    },
  };
}

export interface Launched {
  pid: number;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
}

/**
 * Runs `script` with bash after joining every cgroup in `procsFiles`, the way the box's
 * launcher does (sandbox/box.ts): a join that fails ends it with 125 before the script runs,
 * so a fork flood can never start outside its pids limit.
 */
export function launch(procsFiles: string[], script: string): Launched {
  const launcher = 'for f in $CUBICLE_CGROUP_PROCS; do echo $$ > "$f" || exit 125; done; exec "$@"';
  const child = spawn("bash", ["-c", launcher, "launcher", "bash", "-c", script], {
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", CUBICLE_CGROUP_PROCS: procsFiles.join(" ") },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => {
    stdout += d;
  });
  child.stderr.on("data", (d) => {
    stderr += d;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>(
    (resolve) => child.once("close", (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { pid: child.pid as number, exited };
}

/**
 * The exit status a shell would report: 128 + n for a process killed by signal n. The OOM
 * killer picks whichever process of the cgroup is largest at that moment, which may be the
 * launching shell itself rather than the command it waits on, so a test must accept both.
 */
export function shellStatus(run: { code: number | null; signal: NodeJS.Signals | null }): number | null {
  return run.code ?? (run.signal ? 128 + (osConstants.signals[run.signal] ?? 0) : null);
}

/** Resolves once `check` is true, polling; rejects after `timeoutMs`. */
export async function until(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 20));
  }
}
