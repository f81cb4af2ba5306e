/**
 * Writes a computer's ContainerResources into cgroup v1 directories: memory (with swap
 * closed off), pids, and CPU bandwidth and weight. The same function serves the computer's
 * cgroup (the sum of its commands) and each command's own (so its counters say which
 * command hit what).
 */
import { join } from "node:path";
import type { ContainerResources } from "../../wire/index.ts";
import { cgroupLimits } from "../limits.ts";
import { readNumber, type V1Controller, writeValue } from "./cgroupfs.ts";

export type V1Dirs = Partial<Record<V1Controller, string>>;

/** Throws on limits no plan can mean: they come from the object, and a bad one is a bug there. */
export function assertResources(limits: ContainerResources): void {
  const { memoryBytesMax, pidsMax, cpuMillicores } = limits;
  if (!Number.isSafeInteger(memoryBytesMax) || memoryBytesMax < cgroupLimits.memoryBytesMin)
    throw new RangeError(`memoryBytesMax must be an integer ≥ ${cgroupLimits.memoryBytesMin}, not ${memoryBytesMax}`);
  if (!Number.isSafeInteger(pidsMax) || pidsMax < 1) throw new RangeError(`pidsMax must be ≥ 1, not ${pidsMax}`);
  if (!Number.isSafeInteger(cpuMillicores) || cpuMillicores < cgroupLimits.cpuMillicoresMin)
    throw new RangeError(`cpuMillicores must be an integer ≥ ${cgroupLimits.cpuMillicoresMin}, not ${cpuMillicores}`);
}

/**
 * memory.limit_in_bytes, and memory.memsw.limit_in_bytes where the kernel accounts swap, so
 * swap cannot stretch the limit. The kernel keeps memsw ≥ the memory limit at every step,
 * so a raise writes memsw first and a cut writes it last.
 */
export async function setMemory(dir: string, bytes: number): Promise<void> {
  const limitFile = join(dir, "memory.limit_in_bytes");
  const swapFile = join(dir, "memory.memsw.limit_in_bytes");
  const current = await readNumber(limitFile);
  const hasSwapFile = (await readNumber(swapFile)) !== null;
  const raise = current !== null && bytes > current;
  if (raise && hasSwapFile) await writeValue(swapFile, bytes);
  await writeValue(limitFile, bytes);
  if (!raise && hasSwapFile) await writeValue(swapFile, bytes);
}

/**
 * CFS bandwidth (quota per period: at most `cpuMillicores` thousandths of a core, however
 * many cores the machine has) and weight (cpu.shares, for how computers share the CPU when
 * all want more). v1 refuses a quota above an ancestor's (EINVAL): the daemon's own cgroup
 * may already be capped, and then this cgroup is left to inherit that cap.
 */
export async function setCpu(dir: string, millicores: number, log: (message: string) => void): Promise<void> {
  const periodUs = cgroupLimits.cpuPeriodUs;
  await writeValue(join(dir, "cpu.cfs_period_us"), periodUs);
  try {
    await writeValue(join(dir, "cpu.cfs_quota_us"), Math.round((millicores * periodUs) / 1000));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EINVAL") throw error;
    log(`cgroups: ${dir}: a quota of ${millicores} millicores is above an enclosing cgroup's; it inherits that one`);
    await writeValue(join(dir, "cpu.cfs_quota_us"), -1);
  }
  const shares = Math.max(2, Math.round((millicores * cgroupLimits.cpuSharesPerCore) / 1000));
  await writeValue(join(dir, "cpu.shares"), shares);
}

/** Applies every limit whose controller `dirs` has. */
export async function applyLimits(dirs: V1Dirs, limits: ContainerResources, log: (message: string) => void) {
  if (dirs.memory) await setMemory(dirs.memory, limits.memoryBytesMax);
  if (dirs.pids) await writeValue(join(dirs.pids, "pids.max"), limits.pidsMax);
  if (dirs.cpu) await setCpu(dirs.cpu, limits.cpuMillicores, log);
}
