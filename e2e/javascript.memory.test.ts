/**
 * One tenant's javascript run exhausting memory does not fail another tenant's requests.
 *
 * Local workerd has no per-isolate memory limit: before the guard, a module that kept big
 * strings in an array grew its isolate to V8's heap limit, V8 aborted workerd, and every
 * request in flight (another tenant's exec and upload among them) answered 500. The run now
 * reads its own heap and stops at the platform's 128 MiB (executors/javascript/guest/heapWatch.ts);
 * this drives the real platform `npm start` serves, the way the report found it.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { newWorkspace, signUp } from "./platform.ts";
import { sharedPlatform } from "./sharedPlatform.ts";

const platform = sharedPlatform();

interface Tenant {
  auth: Record<string, string>;
  workspaceId: string;
}

interface ExecResult {
  id: string;
  status: string;
  exitCode: number;
  stdout: string;
  stderr: string;
  result?: unknown;
}

let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  for (const name of ["a", "b"] as const) {
    const { auth } = await signUp(platform.url, `memory-${name}-${crypto.randomUUID()}@example.com`);
    const tenant = { auth, workspaceId: await newWorkspace(platform.url, auth) };
    if (name === "a") a = tenant;
    else b = tenant;
  }
});

async function exec(tenant: Tenant, body: Record<string, unknown>): Promise<{ status: number; body: ExecResult }> {
  const response = await fetch(`${platform.url}/v1/workspaces/${tenant.workspaceId}/exec`, {
    method: "POST",
    headers: { ...tenant.auth, "content-type": "application/json" },
    body: JSON.stringify({ timeoutMs: 60_000, ...body }),
  });
  return { status: response.status, body: (await response.json()) as ExecResult };
}

/** The run's record, where `error` says why it stopped early. */
async function record(
  tenant: Tenant,
  execId: string,
): Promise<{ status: string; exitCode: number; error: string | null }> {
  const response = await fetch(`${platform.url}/v1/workspaces/${tenant.workspaceId}/execs/${execId}`, {
    headers: tenant.auth,
  });
  return (await response.json()) as { status: string; exitCode: number; error: string | null };
}

const stoppedForMemory = { status: "failed", exitCode: 134, error: "memory limit of 128 MiB exceeded" };

/** 1 MiB strings kept in an array, forever: the shape of the report. */
const exhaustsMemory =
  "const held = [];\nfor (;;) held.push(Buffer.alloc(1 << 20, held.length % 256).toString('latin1'));";

/** Tenant B's everyday work, in a loop until `done`: a javascript run, a shell command, an upload and its read-back. */
async function workUntil(done: () => boolean, tenant: Tenant): Promise<string[]> {
  const seen: string[] = [];
  const url = `${platform.url}/v1/workspaces/${tenant.workspaceId}/files/upload.bin`;
  for (let round = 0; round === 0 || !done(); round++) {
    const js = await exec(tenant, { executor: "javascript", code: `export default () => ${round} + 1;` });
    seen.push(`javascript ${js.status} ${js.body.status} ${JSON.stringify(js.body.result)}`);
    expect(js.body).toMatchObject({ status: "completed", result: round + 1 });
    const shell = await exec(tenant, { executor: "shell", command: `echo round ${round}` });
    seen.push(`shell ${shell.status} ${shell.body.status}`);
    expect(shell.body).toMatchObject({ status: "completed", stdout: `round ${round}\n` });
    const bytes = new Uint8Array(256 * 1024).fill(round % 256);
    const put = await fetch(url, { method: "PUT", headers: tenant.auth, body: bytes });
    seen.push(`upload ${put.status}`);
    expect(put.status).toBe(200);
    const got = new Uint8Array(await (await fetch(url, { headers: tenant.auth })).arrayBuffer());
    expect(got).toEqual(bytes);
  }
  return seen;
}

describe("javascript: memory", () => {
  it("ends a run that exhausts memory with a clear error while another tenant's execs and uploads succeed", async () => {
    const logBefore = platform.output().length;
    let aDone = false;
    const aRun = exec(a, { executor: "javascript", code: exhaustsMemory }).finally(() => {
      aDone = true;
    });
    const [ended, bSaw] = await Promise.all([aRun, workUntil(() => aDone, b)]);

    expect(ended.status).toBe(200);
    expect(ended.body).toMatchObject({ status: "failed", exitCode: 134 });
    expect(await record(a, ended.body.id)).toMatchObject(stoppedForMemory);
    expect(ended.body.stderr).toMatch(
      /memory limit of 128 MiB exceeded: the module held \d+ MiB after garbage collection/,
    );
    expect(bSaw.length).toBeGreaterThanOrEqual(3);

    // The platform goes on answering both tenants, and workerd never went down.
    expect((await fetch(`${platform.url}/healthz`)).status).toBe(200);
    const after = await exec(a, { executor: "javascript", code: "export default () => 'still here';" });
    expect(after.body).toMatchObject({ status: "completed", result: "still here" });
    const log = platform.output().slice(logBefore);
    expect(log).not.toContain("Reached heap limit");
    expect(log).not.toContain("crashed unexpectedly");
  });

  it("stops a builtin driven by an arrow callback too (Array.from making ten million arrays)", async () => {
    const ended = await exec(a, {
      executor: "javascript",
      code: "const rows = Array.from({ length: 1e7 }, (_, i) => new Array(64).fill(i));\nexport default () => rows.length;",
    });
    expect(await record(a, ended.body.id)).toMatchObject(stoppedForMemory);
  });

  it("lets a run hold less than the limit and make garbage far past it", async () => {
    const code = [
      "const kept = [];",
      "for (let i = 0; i < 64; i++) kept.push(Buffer.alloc(1 << 20, i).toString('latin1'));",
      "let made = 0;",
      "for (let i = 0; i < 1024; i++) made += Buffer.alloc(1 << 20, i).toString('latin1').length;",
      "export default () => ({ keptMiB: kept.length, madeMiB: made / (1 << 20) });",
    ].join("\n");
    const ended = await exec(a, { executor: "javascript", code });
    expect(ended.body).toMatchObject({ status: "completed", result: { keptMiB: 64, madeMiB: 1024 } });
  });

  it("does not show module code the heap statistics it is measured with", async () => {
    const ended = await exec(a, { executor: "javascript", code: "export default () => typeof getV8Statistics;" });
    expect(ended.body).toMatchObject({ status: "completed", result: "undefined" });
  });
});
