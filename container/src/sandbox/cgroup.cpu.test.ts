/**
 * A computer's CPU limit on real cgroup v1. Assertions are upper bounds on CPU time used
 * (other work on the machine can only lower it) and the kernel's own throttle counter.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { launch, smallLimits, useComputers } from "../testing/cgroups.ts";
import { keyedValue } from "./cgroupfs.ts";

const computers = useComputers();

/**
 * Runs `spinners` busy loops for `seconds` of wall time in the command's cgroups and
 * returns the cores they used on average: their CPU time (bash's `times`, children's user +
 * system) over the wall time the script measured itself.
 */
async function spin(procsFiles: string[], spinners: number, seconds: number): Promise<number> {
  const script = `s=$EPOCHREALTIME; for i in $(seq 1 ${spinners}); do timeout ${seconds} bash -c 'while :; do :; done' & done; wait; e=$EPOCHREALTIME; echo "$s $e"; times`;
  const run = await launch(procsFiles, script).exited;
  const [wall, , children] = run.stdout.trim().split("\n") as [string, string, string];
  const [start, end] = wall.split(" ").map(Number) as [number, number];
  const seconds_ = (field: string) => {
    const [, m, s] = /^(\d+)m([\d.]+)s$/.exec(field) as unknown as [string, string, string];
    return Number(m) * 60 + Number(s);
  };
  const [user, system] = children.split(" ") as [string, string];
  return (seconds_(user) + seconds_(system)) / (end - start);
}

const cpuDir = (procsFiles: string[]) =>
  (procsFiles.find((f) => f.includes("/cpu/")) as string).replace(/\/cgroup\.procs$/, "");
const read = (dir: string, file: string) => readFileSync(join(dir, file), "utf8").trim();

/**
 * On a busy machine a computer's fair share can fall below its quota, and then the quota
 * never bites. The largest weight makes the quota the only thing holding the test's
 * computers back, for the second they spin.
 */
const outweighTheMachine = (commandCpuDir: string) => writeFileSync(join(commandCpuDir, "..", "cpu.shares"), "262144");

describe("cpu limit", () => {
  it("keeps one computer to its core when its command wants every core", async () => {
    const computer = await computers.open({ ...smallLimits, cpuMillicores: 1_000 });
    const command = await computer.forCommand("ex_hog");
    outweighTheMachine(cpuDir(command.procsFiles));
    const used = await spin(command.procsFiles, 2, 1);
    expect(used).toBeLessThan(1.1);
    // The quota held it back: the kernel counted throttled periods.
    expect(keyedValue(read(cpuDir(command.procsFiles), "cpu.stat"), "nr_throttled")).toBeGreaterThan(0);
  });

  it("gives two computers one core each, side by side", async () => {
    const one = { ...smallLimits, cpuMillicores: 1_000 };
    const [a, b] = [await computers.open(one), await computers.open(one)];
    const [ca, cb] = [await a.forCommand("ex_spin"), await b.forCommand("ex_spin")];
    for (const command of [ca, cb]) {
      const dir = cpuDir(command.procsFiles);
      for (const d of [dir, join(dir, "..")]) {
        expect(read(d, "cpu.cfs_quota_us")).toBe("100000");
        expect(read(d, "cpu.cfs_period_us")).toBe("100000");
        expect(read(d, "cpu.shares")).toBe("1024");
      }
    }
    const cores = await Promise.all([spin(ca.procsFiles, 2, 1), spin(cb.procsFiles, 2, 1)]);
    for (const used of cores) expect(used).toBeLessThan(1.1);
  });

  it("holds a quarter-core computer to a quarter core", async () => {
    const computer = await computers.open({ ...smallLimits, cpuMillicores: 250 });
    const command = await computer.forCommand("ex_quarter");
    expect(read(cpuDir(command.procsFiles), "cpu.shares")).toBe("256");
    outweighTheMachine(cpuDir(command.procsFiles));
    const used = await spin(command.procsFiles, 1, 1);
    expect(used).toBeLessThan(0.35);
    expect(keyedValue(read(cpuDir(command.procsFiles), "cpu.stat"), "nr_throttled")).toBeGreaterThan(0);
  });
});
