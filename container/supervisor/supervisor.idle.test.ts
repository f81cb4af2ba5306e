/** Idle computers are stopped; busy ones are not. Policy tests: the stand-in can be made busy. */
import { afterEach, describe, expect, it } from "vitest";
import { computerName, isAlive, markBusy, startTestSupervisor, type TestSupervisor } from "./testing/harness.ts";

let t: TestSupervisor | undefined;
afterEach(() => t?.close());

describe("idle stop", () => {
  it("stops a computer idle past the limit and keeps one running a command", async () => {
    t = await startTestSupervisor({ daemon: "standin", idleMsMax: 300, healthPollMs: 50 });
    const idle = await t.ensure(computerName());
    const busyName = computerName();
    markBusy(t, busyName);
    const busy = await t.ensure(busyName);

    await t.waitFor(() => !isAlive(idle.pid), "the idle computer to stop");
    // Several polls later the busy one still runs.
    await new Promise((r) => setTimeout(r, 500));
    expect((await t.list()).map((c) => c.name)).toEqual([busyName]);
    expect(isAlive(busy.pid)).toBe(true);
    expect(t.logs.join("\n")).toMatch(/idle/);
  });
});
