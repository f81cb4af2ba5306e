/**
 * Network access from shell runs, end to end: the run's curl goes through the isolate's
 * outbound (the egress gateway) to the test upstream (test/upstream.ts, the test
 * Worker's outbound service), and the bytes land in the tenant's ledger as `egress_bytes`.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { PLANS } from "../../../tenants/account/plans.ts";
import { call, createKey, createWorkspace, json, signup } from "../../../test/client.ts";

interface Result {
  id: string;
  status: string;
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

interface UsageEvent {
  id: string;
  meter: string;
  quantity: number;
  workspaceId: string | null;
  keyId: string | null;
  executor: string | null;
}

async function proTenant() {
  const tenant = await signup();
  await env.TENANT.getByName(tenant.tenantId).setPlan({ ...PLANS.pro });
  return tenant;
}

const exec = async (key: string, workspaceId: string, command: string, egress: boolean | { allow: string[] } = true) =>
  json<Result>(
    await call("POST", `/v1/workspaces/${workspaceId}/exec`, { key, json: { executor: "shell", command, egress } }),
  );

/** The tenant's egress events, once `count` of them have landed (recording ends after the response body). */
async function egressEvents(key: string, count: number): Promise<UsageEvent[]> {
  let events: UsageEvent[] = [];
  for (let i = 0; i < 100; i++) {
    const page = await json<{ data: UsageEvent[] }>(await call("GET", "/v1/usage/events?meter=egress_bytes", { key }));
    events = page.data;
    if (events.length >= count) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  return events;
}

describe("shell runs with egress", () => {
  it("meter the body bytes sent and received as one egress_bytes event per request", async () => {
    const { key, keyId } = await proTenant();
    const workspaceId = await createWorkspace(key);
    // 292 bytes up (seq 1 100), 40,000 down; -i prints the upstream's headers first.
    const ran = await exec(
      key,
      workspaceId,
      "seq 1 100 > body.txt; curl -s -i --data-binary @body.txt http://upstream.test/bytes/40000",
    );
    expect(ran).toMatchObject({ status: "completed", exitCode: 0 });
    const [head = "", body = ""] = ran.stdout.split(/\r?\n\r?\n/);
    expect(body).toBe("x".repeat(40_000));
    // The upstream read the whole body, and got its length rather than a chunked upload.
    expect(head.toLowerCase()).toContain("x-received-bytes: 292");
    expect(head.toLowerCase()).toContain("x-received-length: 292");
    const events = await egressEvents(key, 1);
    expect(events).toEqual([
      expect.objectContaining({
        id: expect.stringMatching(/^egr_/),
        meter: "egress_bytes",
        quantity: 292 + 40_000,
        workspaceId,
        keyId,
        executor: "shell",
      }),
    ]);
  });

  it("bill each workspace and key for its own traffic", async () => {
    const { key, keyId } = await proTenant();
    const other = await createKey(key, {});
    const a = await createWorkspace(key);
    const b = await createWorkspace(key);
    await exec(key, a, "curl -s -o /dev/null http://upstream.test/bytes/1000");
    await exec(key, b, "curl -s -o /dev/null http://upstream.test/bytes/2000");
    await exec(other.key, a, "curl -s -o /dev/null http://upstream.test/bytes/3000");
    const events = await egressEvents(key, 3);
    const billed = events.map((e) => [e.workspaceId, e.keyId, e.quantity]);
    expect(billed.sort((x, y) => Number(x[2]) - Number(y[2]))).toEqual([
      [a, keyId, 1000],
      [b, keyId, 2000],
      [a, other.id, 3000],
    ]);
  });

  it("cannot reach the platform's own network, directly or through a redirect", async () => {
    const { key } = await proTenant();
    const workspaceId = await createWorkspace(key);
    const direct = await exec(key, workspaceId, "curl -s http://127.0.0.1:1/");
    expect(direct.stdout).toContain(
      "cubicle egress: refused http://127.0.0.1:1: 127.0.0.1 is a private or loopback address",
    );
    const redirected = await exec(key, workspaceId, "curl -s -L 'http://upstream.test/redirect?to=http://10.0.0.1/'");
    expect(redirected.stdout).toContain("cubicle egress: refused http://10.0.0.1: 10.0.0.1 is a private or loopback");
    const metadata = await exec(key, workspaceId, "curl -s http://169.254.169.254/latest/meta-data/");
    expect(metadata.stdout).toContain("cubicle egress: refused");
    // Nothing crossed, so nothing is billed.
    expect(await egressEvents(key, 0)).toEqual([]);
  });

  it("with an allow list, reach listed hosts (billed) and nothing else (refused, unbilled)", async () => {
    const { key, keyId } = await proTenant();
    const workspaceId = await createWorkspace(key);
    const allowed = await exec(key, workspaceId, "curl -s http://upstream.test/bytes/10", { allow: ["UPSTREAM.test"] });
    expect(allowed).toMatchObject({ status: "completed", exitCode: 0, stdout: "x".repeat(10) });
    // The record shows what the run could reach, normalised.
    const record = await json<{ egress: unknown }>(
      await call("GET", `/v1/workspaces/${workspaceId}/execs/${allowed.id}`, { key }),
    );
    expect(record.egress).toEqual({ allow: ["upstream.test"] });
    expect(await egressEvents(key, 1)).toEqual([
      expect.objectContaining({ meter: "egress_bytes", quantity: 10, workspaceId, keyId, executor: "shell" }),
    ]);
    // Same workspace and key, another list: a run never lands in an isolate holding another run's list.
    const refused = await exec(key, workspaceId, "curl -s http://upstream.test/bytes/20", { allow: ["other.test"] });
    expect(refused.stdout).toBe(
      "cubicle egress: refused http://upstream.test: not in this run's allow list (other.test)\n",
    );
    const wildcard = await exec(key, workspaceId, "curl -s http://upstream.test/bytes/30", {
      allow: ["*.upstream.test"],
    });
    expect(wildcard.stdout).toContain("not in this run's allow list (*.upstream.test)");
    const wrongPort = await exec(key, workspaceId, "curl -s http://upstream.test/bytes/40", {
      allow: ["upstream.test:443"],
    });
    expect(wrongPort.stdout).toContain("not in this run's allow list (upstream.test:443)");
    // Only the first run crossed: the refused ones are billed nothing (give them time to show up).
    expect((await egressEvents(key, 2)).map((e) => e.quantity)).toEqual([10]);
    // And a run with no list, after all those, is not held to any of them.
    const open = await exec(key, workspaceId, "curl -s http://upstream.test/bytes/5", true);
    expect(open.stdout).toBe("x".repeat(5));
    const openRecord = await json<{ egress: unknown }>(
      await call("GET", `/v1/workspaces/${workspaceId}/execs/${open.id}`, { key }),
    );
    expect(openRecord.egress).toBe(true);
  });

  it("with an allow list, refuse a redirect from a listed host to an unlisted one", async () => {
    const { key } = await proTenant();
    const workspaceId = await createWorkspace(key);
    const ran = await exec(
      key,
      workspaceId,
      "curl -s -L 'http://upstream.test/redirect?to=http://other.test/bytes/5'",
      {
        allow: ["upstream.test"],
      },
    );
    expect(ran.stdout).toContain(
      "cubicle egress: refused http://other.test: not in this run's allow list (upstream.test)",
    );
    // The redirect itself had no body, and the refused hop moved none: nothing billed.
    expect(await egressEvents(key, 0)).toEqual([]);
  });

  it("without egress, a run has no network at all", async () => {
    const { key } = await proTenant();
    const workspaceId = await createWorkspace(key);
    const ran = await exec(key, workspaceId, "curl -s http://upstream.test/bytes/10", false);
    expect(ran).toMatchObject({ status: "failed", exitCode: 127 });
    const record = await json<{ egress: unknown }>(
      await call("GET", `/v1/workspaces/${workspaceId}/execs/${ran.id}`, { key }),
    );
    expect(record.egress).toBe(false);
    expect(ran.stderr).toContain("curl: command not found");
    expect(await egressEvents(key, 0)).toEqual([]);
  });
});

describe("javascript runs with egress", () => {
  const run = async (key: string, workspaceId: string, url: string, egress: boolean | { allow: string[] }) =>
    json<Result & { result?: { status: number; bytes: number; text: string } | { error: string } }>(
      await call("POST", `/v1/workspaces/${workspaceId}/exec`, {
        key,
        json: {
          executor: "javascript",
          code: `export default async function ({ url }) {
            try {
              const response = await fetch(url);
              const text = await response.text();
              return { status: response.status, bytes: text.length, text: text.slice(0, 200) };
            } catch (error) {
              return { error: String(error) };
            }
          }`,
          input: { url },
          egress,
        },
      }),
    );

  it("go through the same metering gateway and allow list as the shell", async () => {
    const { key } = await proTenant();
    const workspaceId = await createWorkspace(key);

    const allowed = await run(key, workspaceId, "http://upstream.test/bytes/1234", { allow: ["upstream.test"] });
    expect(allowed.result).toMatchObject({ status: 200, bytes: 1234 });
    const events = await egressEvents(key, 1);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ quantity: 1234, workspaceId, executor: "javascript" });

    const refused = await run(key, workspaceId, "http://upstream.test/bytes/10", { allow: ["other.test"] });
    expect(refused.result).toMatchObject({ status: 403 });
    expect((refused.result as { text: string }).text).toContain("not in this run's allow list");

    const offline = await run(key, workspaceId, "http://upstream.test/bytes/10", false);
    expect(offline.result).toMatchObject({ error: expect.any(String) });
    // Neither the refused nor the offline request was billed (recording would have landed by now).
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await egressEvents(key, 1)).toHaveLength(1);
  });
});
