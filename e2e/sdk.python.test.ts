/**
 * The Python SDK against the real platform: its own end-to-end tests
 * (sdk-gen/python/tests/e2e) run in a child python3 against `npm start`'s server, directly
 * and through the fault proxy, which they drive over its HTTP control API.
 */
import { spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FaultProxy, startFaultProxy } from "../sdk-gen/testing/faultProxy.ts";
import { sharedPlatform } from "./sharedPlatform.ts";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

const platform = sharedPlatform();
let proxy: FaultProxy;

beforeAll(async () => {
  proxy = await startFaultProxy(platform.url);
});

afterAll(async () => {
  await proxy?.close();
});

function runPython(args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("python3", args, {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}

describe("the Python SDK", () => {
  it("passes its end-to-end tests against the platform and the fault proxy", { timeout: 300_000 }, async () => {
    const { code, output } = await runPython(
      ["-m", "unittest", "discover", "-s", "sdk-gen/python/tests/e2e", "-t", "sdk-gen/python", "-v"],
      {
        CUBICLE_BASE_URL: platform.url,
        CUBICLE_PROXY_URL: proxy.url,
        PYTHONPATH: join(root, "sdk-gen/python"),
        PYTHONDONTWRITEBYTECODE: "1",
      },
    );
    expect(code, output).toBe(0);
    // A suite that found nothing to run also exits 0; both files must have run and none skipped.
    expect(Number(/Ran (\d+) tests?/.exec(output)?.[1] ?? 0), output).toBeGreaterThanOrEqual(12);
    expect(output, output).not.toMatch(/skipped/);
    if (process.env.CUBICLE_SHOW_PYTHON_OUTPUT) console.log(output);
  });
});
