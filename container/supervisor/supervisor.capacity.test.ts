/** At the cap, a new computer takes the slot of the least recently used idle one, or gets 503. */
import { afterEach, describe, expect, it } from "vitest";
import { computerName, isAlive, markBusy, startTestSupervisor, type TestSupervisor } from "./testing/harness.ts";

let t: TestSupervisor | undefined;
afterEach(() => t?.close());

describe("capacity", () => {
  it("stops the least recently used idle computer to make room", async () => {
    t = await startTestSupervisor({ daemon: "standin", computersMax: 2 });
    const [a, b, c] = [computerName(), computerName(), computerName()];
    const first = await t.ensure(a);
    await t.ensure(b);
    await new Promise((r) => setTimeout(r, 20));
    // Asking for `a` again makes `b` the least recently used.
    await t.ensure(a);
    const second = (await t.list()).find((x) => x.name === b);
    await t.ensure(c);

    expect((await t.list()).map((x) => x.name).sort()).toEqual([a, c].sort());
    expect(isAlive(second?.pid as number)).toBe(false);
    expect(isAlive(first.pid)).toBe(true);
  });

  it("answers 503 capacity when every computer is busy", async () => {
    t = await startTestSupervisor({ daemon: "standin", computersMax: 2 });
    const [a, b] = [computerName(), computerName()];
    markBusy(t, a);
    markBusy(t, b);
    await t.ensure(a);
    await t.ensure(b);

    const response = await t.call("POST", `/computers/${encodeURIComponent(computerName())}`);
    expect(response.status).toBe(503);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect(await response.json()).toMatchObject({ status: 503, code: "capacity" });
    expect(await t.list()).toHaveLength(2);
    // A computer that already runs is still served at the cap.
    expect((await t.call("POST", `/computers/${encodeURIComponent(a)}`)).status).toBe(200);
  });
});
