/** A computer's memory limit on real cgroup v1: OOM kills, which command they count against, and no swap. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { launch, shellStatus, smallLimits, useComputers } from "../testing/cgroups.ts";

const computers = useComputers();
const MIB = 1024 * 1024;

/** `tail` keeps a line in memory until it ends, so a stream without newlines is held whole. */
const allocate = (mib: number) => `head -c ${mib}m /dev/zero | tail`;

describe("memory limit", () => {
  it("OOM-kills a command that allocates past it, and says memory_limit", async () => {
    const computer = await computers.open();
    const command = await computer.forCommand("ex_oom");
    const run = await launch(command.procsFiles, allocate(200)).exited;
    expect(shellStatus(run)).toBe(137);
    expect(command.limitHit()).toBe("memory_limit");
    expect(command.pidsLimitEvents()).toBe(0);
  });

  it("reports nothing for a command that stays under it", async () => {
    const computer = await computers.open();
    const command = await computer.forCommand("ex_small");
    const run = await launch(command.procsFiles, `${allocate(8)} | wc -c`).exited;
    expect(run).toMatchObject({ code: 0, stdout: `${8 * MIB}\n` });
    expect(command.limitHit()).toBeNull();
  });

  it("bounds the computer's commands together, and tells which one was killed", async () => {
    const computer = await computers.open();
    const first = await computer.forCommand("ex_first");
    const second = await computer.forCommand("ex_second");
    // Each holds 20 MiB until it ends: alone each fits in 32 MiB, together they do not.
    const hold = "{ head -c 20m /dev/zero; sleep 2; } | tail";
    const runs = await Promise.all([
      launch(first.procsFiles, hold).exited,
      launch(second.procsFiles, `sleep 0.5; ${hold}`).exited,
    ]);
    const hits = [first.limitHit(), second.limitHit()];
    expect(runs.some((r) => shellStatus(r) === 137)).toBe(true);
    runs.forEach((run, i) => {
      expect(hits[i]).toBe(shellStatus(run) === 137 ? "memory_limit" : null);
    });
  });

  it("closes swap off and gives each command the computer's limit", async () => {
    const computer = await computers.open();
    const command = await computer.forCommand("ex_files");
    const memoryDir = computer.dirs.find((d) => d.includes("/memory/")) as string;
    for (const dir of [memoryDir, join(memoryDir, "cmd-ex_files")]) {
      expect(Number(readFileSync(join(dir, "memory.limit_in_bytes"), "utf8"))).toBe(smallLimits.memoryBytesMax);
      expect(Number(readFileSync(join(dir, "memory.memsw.limit_in_bytes"), "utf8"))).toBe(smallLimits.memoryBytesMax);
    }
    expect(command.procsFiles).toContain(join(memoryDir, "cmd-ex_files", "cgroup.procs"));
  });
});
