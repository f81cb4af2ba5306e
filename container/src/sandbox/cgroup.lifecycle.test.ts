/** A computer's cgroups from open to remove: layout, plan changes, restarts, and hosts without cgroups. */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { launch, ownCgroups, smallLimits, until, useComputers } from "../testing/cgroups.ts";
import { openComputerCgroups } from "./cgroup.ts";

const computers = useComputers();
const MIB = 1024 * 1024;
const read = (dir: string, file: string) => readFileSync(join(dir, file), "utf8").trim();
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Every directory named `cubicle-<name>` anywhere in the host's cgroup hierarchies, whichever controller. */
function leftovers(name: string): string[] {
  const found = execFileSync("find", ["/sys/fs/cgroup", "-maxdepth", "6", "-type", "d", "-name", `cubicle-${name}`]);
  return found.toString().split("\n").filter(Boolean);
}

describe("computer cgroups", () => {
  it("nest under the daemon's own cgroup in memory, pids, cpu and freezer, with a command's inside", async () => {
    const computer = await computers.open();
    const command = await computer.forCommand("ex_layout");
    const own = ownCgroups();
    expect(computer.dirs.sort()).toEqual(
      Object.values(own.v1)
        .map((dir) => join(dir, `cubicle-${computer.name}`))
        .sort(),
    );
    expect(command.procsFiles.sort()).toEqual(
      computer.dirs.map((dir) => join(dir, "cmd-ex_layout/cgroup.procs")).sort(),
    );
    const run = await launch(command.procsFiles, "cat /proc/self/cgroup").exited;
    for (const controller of ["memory", "pids", "cpu", "freezer"]) {
      expect(run.stdout).toMatch(new RegExp(`:${controller}:.*/cubicle-${computer.name}/cmd-ex_layout\\n`));
    }
  });

  it("remove() leaves nothing behind, killing what a command left running", async () => {
    const computer = await computers.open();
    const command = await computer.forCommand("ex_leftover");
    // A daemonised child: out of the command's process group and reparented, but not out of its cgroup.
    const run = await launch(command.procsFiles, "setsid sleep 300 >/dev/null 2>&1 < /dev/null & echo $!").exited;
    const orphan = Number(run.stdout.trim());
    expect(alive(orphan)).toBe(true);
    expect(leftovers(computer.name)).toHaveLength(4);
    await computer.remove();
    expect(leftovers(computer.name)).toEqual([]);
    await until(() => !alive(orphan));
  });

  it("applies new limits to the next command and the computer, and leaves running ones their memory", async () => {
    const computer = await computers.open({ ...smallLimits, memoryBytesMax: 64 * MIB, cpuMillicores: 1_000 });
    const before = await computer.forCommand("ex_before");
    await computer.update({ ...smallLimits, memoryBytesMax: 48 * MIB, pidsMax: 8, cpuMillicores: 500 });
    const after = await computer.forCommand("ex_after");
    const dir = (command: typeof before, controller: string) =>
      (command.procsFiles.find((f) => f.includes(`/${controller}/`)) as string).replace("/cgroup.procs", "");
    expect(Number(read(dir(before, "memory"), "memory.limit_in_bytes"))).toBe(64 * MIB);
    expect(Number(read(dir(after, "memory"), "memory.limit_in_bytes"))).toBe(48 * MIB);
    expect(Number(read(join(dir(after, "memory"), ".."), "memory.limit_in_bytes"))).toBe(48 * MIB);
    expect(read(dir(after, "pids"), "pids.max")).toBe("8");
    // v1 refuses a parent quota below a child's, so the running command's CPU is cut too.
    for (const command of [before, after]) expect(read(dir(command, "cpu"), "cpu.cfs_quota_us")).toBe("50000");
    expect(read(join(dir(after, "cpu"), ".."), "cpu.cfs_quota_us")).toBe("50000");
  });

  it("after a daemon restart, takes its computer over and empties the old commands", async () => {
    const name = computers.name();
    const first = await computers.open(smallLimits, name);
    const command = await first.forCommand("ex_old");
    const run = launch(command.procsFiles, "sleep 300");
    await until(() => readFileSync(command.procsFiles[0] as string, "utf8").trim() !== "");
    // The old daemon is gone without removing anything; a new one opens the same computer.
    const second = await computers.open(smallLimits, name);
    expect((await run.exited).signal).toBe("SIGKILL");
    expect(second.dirs.some((dir) => existsSync(join(dir, "cmd-ex_old")))).toBe(false);
    await (await second.forCommand("ex_old")).remove();
  });

  it("refuses unsafe names and ids, an exec id twice, and limits no plan can mean", async () => {
    await expect(openComputerCgroups("../escape", smallLimits)).rejects.toThrow(/safe cgroup name/);
    const computer = await computers.open();
    await expect(computer.forCommand("a b")).rejects.toThrow(/safe cgroup name/);
    const twice = await Promise.allSettled([computer.forCommand("ex_twice"), computer.forCommand("ex_twice")]);
    expect(twice.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    await expect(computer.update({ ...smallLimits, memoryBytesMax: 1 })).rejects.toThrow(/memoryBytesMax/);
  });
});

describe("hosts without usable cgroups", () => {
  it("run without limits, saying so, when no cgroup hierarchy is mounted", async () => {
    const logs: string[] = [];
    const computer = await openComputerCgroups("none", smallLimits, {
      log: (m) => logs.push(m),
      own: { v1: {}, unified: null },
    });
    expect(computer).toBeNull();
    expect(logs.join("\n")).toMatch(/no cgroup v1 memory and pids hierarchies.*without memory, pids or CPU limits/);
  });

  it("say that cgroup v2 is not supported yet rather than run half-tested limits", async () => {
    const unified = mkdtempSync(join(tmpdir(), "cubicle-unified-"));
    try {
      writeFileSync(join(unified, "cgroup.controllers"), "cpuset cpu io memory hugetlb pids rdma misc\n");
      const logs: string[] = [];
      const computer = await openComputerCgroups("v2", smallLimits, {
        log: (m) => logs.push(m),
        own: { v1: {}, unified },
      });
      expect(computer).toBeNull();
      expect(logs.join("\n")).toMatch(/cgroup v2 .* is not supported yet/);
    } finally {
      rmSync(unified, { recursive: true });
    }
  });

  it("run without limits when the hierarchy cannot be written", async () => {
    const logs: string[] = [];
    const own = { v1: { memory: "/proc/self", pids: "/proc/self" }, unified: null };
    const computer = await openComputerCgroups("readonly", smallLimits, { log: (m) => logs.push(m), own });
    expect(computer).toBeNull();
    expect(logs.join("\n")).toMatch(/cannot set up readonly: .*commands run without limits/);
  });
});
