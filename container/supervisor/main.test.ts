/**
 * The supervisor as `npm start` runs it: a process that prints its port, stops every
 * daemon on SIGTERM, and whose daemons die with it even when it is killed outright.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import type { ComputerInfo } from "./supervisor.ts";
import { computerName, isAlive, standinScript, waitFor } from "./testing/harness.ts";

const main = join(dirname(fileURLToPath(import.meta.url)), "main.ts");
const secret = "main-test-secret";
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

async function startMain(): Promise<{ child: ChildProcess; url: string }> {
  const stateRoot = mkdtempSync(join(tmpdir(), "cubicle-supervisor-main-"));
  const child = spawn(process.execPath, [main, "--port", "0", "--daemon", standinScript], {
    env: { ...process.env, COMPUTERD_SECRET: secret, CUBICLE_STATE_DIR: stateRoot },
    stdio: ["ignore", "pipe", "inherit"],
  });
  cleanups.push(() => {
    child.kill("SIGKILL");
    rmSync(stateRoot, { recursive: true, force: true });
  });
  const [line] = await once(createInterface({ input: child.stdout as NodeJS.ReadableStream }), "line");
  const ready = JSON.parse(line) as { ready: boolean; url: string };
  expect(ready.ready).toBe(true);
  return { child, url: ready.url };
}

async function ensure(url: string): Promise<ComputerInfo> {
  const response = await fetch(`${url}/computers/${computerName()}`, {
    method: "POST",
    headers: { authorization: `Bearer ${secret}` },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as ComputerInfo;
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((done) => child.once("exit", (code) => done(code)));
}

describe("main.ts", () => {
  it("stops every daemon on SIGTERM, then exits 0", async () => {
    const { child, url } = await startMain();
    const [a, b] = await Promise.all([ensure(url), ensure(url)]);
    const exit = exited(child);
    child.kill("SIGTERM");
    expect(await exit).toBe(0);
    expect([isAlive(a.pid), isAlive(b.pid)]).toEqual([false, false]);
  });

  it("takes its daemons down with it when it is killed outright", async () => {
    const { child, url } = await startMain();
    const computer = await ensure(url);
    child.kill("SIGKILL");
    await waitFor(() => !isAlive(computer.pid), "the daemon to die with the supervisor");
  });
});
