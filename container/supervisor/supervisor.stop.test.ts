/**
 * A stopped computer leaves nothing behind: its daemon, anything running in its
 * namespaces (even a process that joined them from outside with nsenter), and its mount,
 * which the host never saw in the first place.
 */
import { spawn } from "node:child_process";
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  computerName,
  isAlive,
  mountPoints,
  pidsInNamespace,
  startTestSupervisor,
  type TestSupervisor,
  waitFor,
} from "./testing/harness.ts";

let t: TestSupervisor;

function heldNamespaces(): string[] {
  return readdirSync("/proc/self/fd").map((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      return "";
    }
  });
}
beforeAll(async () => {
  t = await startTestSupervisor();
});
afterAll(() => t.close());

describe(`stopping a computer (${process.env.CUBICLE_TEST_COMPUTERD ?? "default daemon"})`, () => {
  it("ends its whole process tree and its mount, which only its namespace ever saw", async () => {
    const name = computerName();
    const computer = await t.ensure(name);
    expect(isAlive(computer.pid)).toBe(true);
    const pidNs = readlinkSync(`/proc/${computer.pid}/ns/pid`);
    expect(heldNamespaces()).toContain(pidNs);
    expect(pidNs).not.toBe(readlinkSync("/proc/self/ns/pid"));
    expect(mountPoints(`/proc/${computer.pid}/mounts`)).toContain("/workspace");
    expect(mountPoints("/proc/self/mounts")).not.toContain("/workspace");

    // A long-lived process inside the computer's namespaces, whose parent is outside them.
    const nsenter = spawn("nsenter", ["-t", String(computer.pid), "-m", "-p", "--", "sleep", "1000"], {
      detached: true,
      stdio: "ignore",
    });
    nsenter.unref();
    const sleeper = await waitFor(
      () =>
        pidsInNamespace(pidNs).find((pid) => readFileSync(`/proc/${pid}/cmdline`, "utf8") === "sleep\u00001000\u0000"),
      "the sleep inside the namespace",
    );

    const response = await t.call("DELETE", `/computers/${encodeURIComponent(name)}`);
    expect(response.status).toBe(204);
    expect(isAlive(computer.pid)).toBe(false);
    expect(isAlive(sleeper)).toBe(false);
    expect(pidsInNamespace(pidNs)).toEqual([]);
    expect(mountPoints("/proc/self/mounts")).not.toContain("/workspace");
    expect(await t.list()).toEqual([]);
    // The supervisor let go of the namespaces it held, so the kernel freed them.
    expect(heldNamespaces()).not.toContain(pidNs);
  });

  it("answers 204 for a computer that is not running", async () => {
    const response = await t.call("DELETE", `/computers/${encodeURIComponent(computerName())}`);
    expect(response.status).toBe(204);
  });

  it("gives each computer its own mount: two run side by side at the same path", async () => {
    const [a, b] = await Promise.all([t.ensure(computerName()), t.ensure(computerName())]);
    expect(readlinkSync(`/proc/${a.pid}/ns/mnt`)).not.toBe(readlinkSync(`/proc/${b.pid}/ns/mnt`));
    expect(mountPoints(`/proc/${a.pid}/mounts`)).toContain("/workspace");
    expect(mountPoints(`/proc/${b.pid}/mounts`)).toContain("/workspace");
    await t.supervisor.close();
    expect([isAlive(a.pid), isAlive(b.pid)]).toEqual([false, false]);
  });
});
