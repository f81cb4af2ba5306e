/** The API's edge: the bearer, strict names, routes, and one start shared by concurrent requests. */
import { existsSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stateDirFor } from "./names.ts";
import type { ComputerInfo } from "./supervisor.ts";
import { computerName, startTestSupervisor, type TestSupervisor } from "./testing/harness.ts";

let t: TestSupervisor;
beforeAll(async () => {
  t = await startTestSupervisor();
});
afterAll(() => t.close());

describe("supervisor API", () => {
  it.each([
    ["no credential", null],
    ["a wrong secret", "not-the-secret"],
    ["an empty secret", ""],
  ])("answers 401 problem+json to %s", async (_, secret) => {
    for (const [method, path] of [
      ["POST", `/computers/${computerName()}`],
      ["DELETE", `/computers/${computerName()}`],
      ["GET", "/computers"],
    ] as const) {
      const response = await t.call(method, path, { secret });
      expect(response.status).toBe(401);
      expect(response.headers.get("content-type")).toBe("application/problem+json");
      expect(await response.json()).toMatchObject({ status: 401, code: "unauthorized" });
    }
    expect(await t.list()).toEqual([]);
  });

  it.each([
    "ws_1",
    "ten_a",
    "ten_a:ws_b:ws_c",
    "TEN_A:WS_B",
    "ten_a:ws_",
    "ten_a:ws_b%2F..",
    "..%2F..%2Fetc",
    "ten_a%3Aws_b%00",
    "ten_a:ws_b%20",
    `ten_${"a".repeat(65)}:ws_b`,
    "%E0%A4%A",
  ])("answers 400 invalid_name to %s", async (name) => {
    const response = await t.call("POST", `/computers/${name}`);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: "invalid_name" });
  });

  it("answers 404 and 405 problem+json to unknown routes and methods", async () => {
    expect((await t.call("GET", "/nope")).status).toBe(404);
    expect((await t.call("PUT", `/computers/${computerName()}`)).status).toBe(405);
    expect((await t.call("POST", "/computers")).status).toBe(405);
  });

  it("answers /healthz without a credential", async () => {
    const response = await t.call("GET", "/healthz", { secret: null });
    // With the test run's box image, when it has one (`image` says how it stands).
    expect(await response.json()).toMatchObject({ ok: true, computers: 0 });
  });

  it("starts one daemon for concurrent requests for one name", async () => {
    const name = computerName();
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => t.call("POST", `/computers/${encodeURIComponent(name)}`)),
    );
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const bodies = (await Promise.all(answers.map((r) => r.json()))) as ComputerInfo[];
    expect(new Set(bodies.map((b) => b.pid)).size).toBe(1);
    expect(bodies[0]).toMatchObject({ name, restarts: 0 });
    expect(bodies[0]?.port).toBeGreaterThan(0);
    expect(new Date(bodies[0]?.startedAt as string).getTime()).toBeGreaterThan(0);
    expect(await t.list()).toEqual([bodies[0]]);
    if (t.daemon === "standin") {
      expect(
        readFileSync(`${stateDirFor(t.stateRoot, name)}/starts`, "utf8")
          .trim()
          .split("\n"),
      ).toHaveLength(1);
    }
    // The colon may come percent-encoded or not.
    expect((await t.call("POST", `/computers/${name}`)).status).toBe(200);
    expect(await t.list()).toHaveLength(1);
  });

  it("answers 502 start_failed with the daemon's last words when it cannot start", async () => {
    const broken = await startTestSupervisor({
      command: [process.execPath, "-e", "console.error('no bundle here'); process.exit(3)"],
    });
    try {
      const response = await broken.call("POST", `/computers/${computerName()}`);
      expect(response.status).toBe(502);
      const body = (await response.json()) as { code: string; detail: string };
      expect(body.code).toBe("start_failed");
      expect(body.detail).toContain("no bundle here");
      expect(await broken.list()).toEqual([]);
    } finally {
      await broken.close();
    }
  });

  it("deletes a computer's replica with DELETE ?forget=true, and keeps it with a plain DELETE", async () => {
    const kept = computerName();
    const forgotten = computerName();
    for (const name of [kept, forgotten]) await t.ensure(name);
    expect((await t.call("DELETE", `/computers/${kept}`)).status).toBe(204);
    expect((await t.call("DELETE", `/computers/${forgotten}?forget=true`)).status).toBe(204);
    expect(existsSync(stateDirFor(t.stateRoot, kept))).toBe(true);
    expect(existsSync(stateDirFor(t.stateRoot, forgotten))).toBe(false);
    const running = (await t.list()).map((c) => c.name);
    expect(running).not.toContain(kept);
    expect(running).not.toContain(forgotten);
  });
});
