/** Limits and endings of a javascript run: each breach ends it with a clear status and message. */
import { describe, expect, it } from "vitest";
import { call, json } from "../../test/client.ts";
import { execLimits } from "../limits.ts";
import { Guard, RunStopped } from "./guest/guard.ts";
import { js, workspace } from "./testing.ts";

describe("javascript: results and failures", () => {
  it("answers the default export's value as the result, after console output formatted as Node does", async () => {
    const code = [
      "console.log('%s has %d items', 'list', 3, { nested: { deep: [1, 2] } });",
      "console.info(new Map([['a', 1]]));",
      "console.warn('careful');",
      "export default async function (input) { return { got: input, at: new Date(0) }; }",
    ].join("\n");
    const result = await js(code, { input: [1, "two"] });
    expect(result).toMatchObject({
      status: "completed",
      stdout: "list has 3 items { nested: { deep: [ 1, 2 ] } }\nMap(1) { 'a' => 1 }\n",
      stderr: "careful\n",
      result: { got: [1, "two"], at: "1970-01-01T00:00:00.000Z" },
    });
  });

  it("has no result when there is no default export, and honours process.exitCode", async () => {
    const result = await js("process.exitCode = 4;");
    expect(result).toMatchObject({ status: "failed", exitCode: 4 });
    expect(result.result).toBeUndefined();
  });

  it("fails an uncaught throw with exit code 1 and the stack, naming workspace files", async () => {
    const result = await js("function boom() {\n  throw new TypeError('bad input');\n}\nboom();");
    expect(result).toMatchObject({ status: "failed", exitCode: 1, stdout: "" });
    expect(result.stderr).toMatch(/^TypeError: bad input\n {4}at boom \(\/workspace\/\[code\]\.js:2:9\)/);
  });

  it("fails an unhandled rejection", async () => {
    const result = await js(
      "Promise.reject(new Error('nobody caught me'));\nawait new Promise((r) => setTimeout(r, 50));",
    );
    expect(result).toMatchObject({ status: "failed", exitCode: 1 });
    expect(result.stderr).toContain("Error: nobody caught me");
  });

  it("fails a result larger than the limit, saying so", async () => {
    const size = execLimits.javascriptResultBytesMax;
    const result = await js(`export default () => "x".repeat(${size});`);
    expect(result).toMatchObject({ status: "failed", exitCode: 1 });
    expect(result.stderr).toContain(`more than the limit of ${size}`);
    expect(result.result).toBeUndefined();
  });

  it("fails a result that is not JSON", async () => {
    const result = await js("export default () => ({ n: 1n });");
    expect(result).toMatchObject({ status: "failed", exitCode: 1 });
    expect(result.stderr).toContain("the result is not JSON");
  });

  it("reports a module that does not compile with the file and line", async () => {
    const result = await js("const a = 1;\nconst = 2;");
    expect(result).toMatchObject({ status: "failed", exitCode: 1 });
    expect(result.stderr).toContain("SyntaxError");
  });
});

describe("javascript: limits and lifecycle", () => {
  it("kills a running module: cancelled, 137, output so far kept", async () => {
    const ws = await workspace();
    const code = "console.log('started');\nwhile (true) await new Promise((r) => setTimeout(r, 10));";
    const started = await js(code, { background: true, timeoutMs: 30_000 }, ws);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const killed = await call("POST", `/v1/workspaces/${ws.workspaceId}/execs/${started.id}/kill`, {
      key: ws.key,
      json: {},
    });
    expect(await json(killed)).toMatchObject({ status: "cancelled", exitCode: 137 });
    const record = await json<{ error: string }>(
      await call("GET", `/v1/workspaces/${ws.workspaceId}/execs/${started.id}`, { key: ws.key }),
    );
    expect(record.error).toBe("killed");
  });

  it("refuses more concurrent runs per workspace than the cap, clearly", async () => {
    const ws = await workspace();
    // The free plan admits 4 runs per tenant; pro admits more than the workspace cap.
    await call("PUT", "/v1/billing/plan", { key: ws.key, json: { plan: "pro" } });
    const cap = execLimits.javascriptRunsPerWorkspaceMax;
    const forever = "await new Promise(() => setInterval(() => {}, 1000));";
    const running = [];
    for (let i = 0; i < cap; i++) running.push(await js(forever, { background: true, timeoutMs: 30_000 }, ws));
    const refused = await call("POST", `/v1/workspaces/${ws.workspaceId}/exec`, {
      key: ws.key,
      json: { executor: "javascript", code: "1" },
    });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect((await json<{ detail: string }>(refused)).detail).toContain(`already has ${cap} javascript runs going`);
    for (const run of running) {
      await call("POST", `/v1/workspaces/${ws.workspaceId}/execs/${run.id}/kill`, { key: ws.key, json: {} });
    }
    expect((await js("console.log('room again')", {}, ws)).stdout).toBe("room again\n");
  });

  it("the guard stops a loop once it has held the thread for the CPU budget", () => {
    const guard = new Guard(60_000, 200);
    const started = Date.now();
    let stopped: unknown;
    try {
      while (guard.check()) {}
    } catch (error) {
      stopped = error;
    }
    guard.dispose();
    expect(stopped).toBeInstanceOf(RunStopped);
    expect((stopped as RunStopped).reason).toBe("cpu");
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
