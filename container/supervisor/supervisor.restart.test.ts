/** A daemon that dies unasked is started again on the same state dir, up to a crash-loop cap. */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { stateDirFor } from "./names.ts";
import { computerName, isAlive, startTestSupervisor, type TestSupervisor } from "./testing/harness.ts";

let t: TestSupervisor | undefined;
afterEach(() => t?.close());

describe("crash restart", () => {
  it("serves the same name from a new daemon after the old one is killed, counting the restart", async () => {
    t = await startTestSupervisor({ restartBackoffMs: 10 });
    const name = computerName();
    const first = await t.ensure(name);
    process.kill(first.pid, "SIGKILL");

    const [again] = await t.waitFor(async () => {
      const list = await (t as TestSupervisor).list();
      return list.length === 1 && list[0]?.pid !== first.pid ? list : null;
    }, "the restarted daemon");
    expect(again).toMatchObject({ name, restarts: 1 });
    expect(isAlive(again?.pid as number)).toBe(true);
    expect(await t.ensure(name)).toMatchObject({ pid: again?.pid, port: again?.port, restarts: 1 });
    if (t.daemon === "standin") {
      // Both daemons appended to the same state dir's `starts`: the restart resumed it.
      const starts = readFileSync(`${stateDirFor(t.stateRoot, name)}/starts`, "utf8")
        .trim()
        .split("\n");
      expect(starts).toHaveLength(2);
    }
  });

  it("gives up on a computer that crashes more often than the cap allows", async () => {
    t = await startTestSupervisor({ restartBackoffMs: 10, restartsPerMinuteMax: 1 });
    const name = computerName();
    const first = await t.ensure(name);
    process.kill(first.pid, "SIGKILL");
    const second = await t.waitFor(async () => {
      const [c] = await (t as TestSupervisor).list();
      return c && c.pid !== first.pid ? c : null;
    }, "the restarted daemon");
    process.kill(second.pid, "SIGKILL");
    await t.waitFor(async () => (await (t as TestSupervisor).list()).length === 0, "the supervisor to give up");
    expect(t.logs.join("\n")).toMatch(/giving up/);
    // A new request starts it afresh.
    const third = await t.ensure(name);
    expect(third.restarts).toBe(0);
  });

  it("retries a restart that fails, as one more crash", async () => {
    t = await startTestSupervisor({ daemon: "standin", restartBackoffMs: 10 });
    const name = computerName();
    const first = await t.ensure(name);
    const failStart = `${stateDirFor(t.stateRoot, name)}/fail-start`;
    writeFileSync(failStart, "");
    process.kill(first.pid, "SIGKILL");
    await t.waitFor(() => t?.logs.some((line) => line.includes("fail-start is set")), "a failed restart");
    rmSync(failStart);

    const [again] = await t.waitFor(async () => {
      const list = await (t as TestSupervisor).list();
      return list.length === 1 && list[0]?.pid !== first.pid ? list : null;
    }, "the restarted daemon");
    expect(again?.restarts).toBeGreaterThanOrEqual(2);
  });

  it("does not restart a computer that was stopped on request", async () => {
    t = await startTestSupervisor({ restartBackoffMs: 10 });
    const name = computerName();
    const computer = await t.ensure(name);
    expect(await t.supervisor.stop(name)).toBe(true);
    await new Promise((r) => setTimeout(r, 100));
    expect(await t.list()).toEqual([]);
    expect(isAlive(computer.pid)).toBe(false);
  });
});
