/** A computer's process limit on real cgroup v1: fork floods and fork bombs stop at pids.max and are killed. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { launch, smallLimits, until, useComputers } from "../testing/cgroups.ts";
import { listPids } from "./cgroupfs.ts";

const computers = useComputers();
const limits = { ...smallLimits, pidsMax: 16 };

function pidsDir(procsFiles: string[]): string {
  const file = procsFiles.find((f) => f.includes("/pids/"));
  // The flood below must never start outside a pids limit.
  if (!file) throw new Error("no pids cgroup among the procs files");
  return file.replace(/\/cgroup\.procs$/, "");
}

describe("pids limit", () => {
  it("stops a fork flood at pids.max, reports pids_limit to a watcher and after the run", async () => {
    const computer = await computers.open(limits);
    const command = await computer.forCommand("ex_flood");
    const dir = pidsDir(command.procsFiles);
    const hit = new Promise<string>((resolve) => command.watch(resolve));
    const run = launch(command.procsFiles, "for i in $(seq 1 64); do sleep 30 & done; wait");
    expect(await hit).toBe("pids_limit");
    await command.kill();
    const ended = await run.exited;
    expect(ended.signal ?? ended.code).toBe("SIGKILL");
    expect(command.pidsLimitEvents()).toBeGreaterThan(0);
    expect(command.limitHit()).toBe("pids_limit");
    expect(Number(readFileSync(join(dir, "pids.peak"), "utf8"))).toBeLessThanOrEqual(16);
    expect(listPids([dir])).toEqual([]);
  });

  it("kills a real fork bomb through the freezer, leaving its cgroup empty", async () => {
    const computer = await computers.open(limits);
    const command = await computer.forCommand("ex_bomb");
    const dir = pidsDir(command.procsFiles);
    const hit = new Promise<void>((resolve) => command.watchPids(resolve));
    const run = launch(command.procsFiles, "bomb() { bomb | bomb & }; bomb; wait");
    await hit;
    await command.kill();
    await run.exited;
    expect(listPids(command.procsFiles.map((f) => f.replace(/\/cgroup\.procs$/, "")))).toEqual([]);
    expect(command.limitHit()).toBe("pids_limit");
    const freezer = command.procsFiles.find((f) => f.includes("/freezer/")) as string;
    expect(readFileSync(freezer.replace("cgroup.procs", "freezer.state"), "utf8").trim()).toBe("THAWED");
    // The bomb's cgroup can go at once: nothing is left in it.
    await command.remove();
    await until(() => {
      try {
        readFileSync(join(dir, "pids.max"));
        return false;
      } catch {
        return true;
      }
    });
  });

  it("reports nothing for a command that stays under it", async () => {
    const computer = await computers.open(limits);
    const command = await computer.forCommand("ex_few");
    const run = await launch(command.procsFiles, "for i in 1 2 3 4; do sleep 0.1 & done; wait; echo ok").exited;
    expect(run).toMatchObject({ code: 0, stdout: "ok\n" });
    expect(command.pidsLimitEvents()).toBe(0);
    expect(command.limitHit()).toBeNull();
    expect(readFileSync(join(pidsDir(command.procsFiles), "pids.max"), "utf8").trim()).toBe("16");
  });
});
