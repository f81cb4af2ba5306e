import { describe, expect, it } from "vitest";
import { call, createKey, createWorkspace, expectProblem, json, mintToken, signup } from "../../../test/client.ts";

describe("Idempotency-Key", () => {
  it("replays the first response to a retry instead of creating twice", async () => {
    const { key } = await signup();
    const headers = { "idempotency-key": "create-ws-1" };
    const first = await call("POST", "/v1/workspaces", { key, json: { name: "once" }, headers });
    const retry = await call("POST", "/v1/workspaces", { key, json: { name: "once" }, headers });
    expect(retry.status).toBe(201);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(await json(retry)).toEqual(await json(first));
    const listed = await json<{ data: unknown[] }>(await call("GET", "/v1/workspaces", { key }));
    expect(listed.data).toHaveLength(1);
  });

  it("creates one key for concurrent retries of the same request", async () => {
    const { key } = await signup();
    const headers = { "idempotency-key": "create-key-1" };
    const responses = await Promise.all(
      Array.from({ length: 5 }, () => call("POST", "/v1/keys", { key, json: { name: "agent" }, headers })),
    );
    const created = responses.filter((r) => r.status === 201);
    const busy = responses.filter((r) => r.status === 409);
    expect(created.length + busy.length).toBe(5);
    const ids = new Set(await Promise.all(created.map(async (r) => (await json<{ id: string }>(r)).id)));
    expect(ids.size).toBe(1);
    const keys = await json<{ data: { name: string }[] }>(await call("GET", "/v1/keys", { key }));
    expect(keys.data.filter((k) => k.name === "agent")).toHaveLength(1);
  });

  it("refuses the same key with a different body, and keys are per tenant", async () => {
    const alice = await signup();
    const bob = await signup();
    const headers = { "idempotency-key": "shared-name" };
    expect((await call("POST", "/v1/workspaces", { key: alice.key, json: { name: "a" }, headers })).status).toBe(201);
    const reused = await call("POST", "/v1/workspaces", { key: alice.key, json: { name: "b" }, headers });
    expect((await expectProblem(reused, 409, "conflict")).detail).toMatch(/different request body/);
    const other = await call("POST", "/v1/workspaces", { key: bob.key, json: { name: "a" }, headers });
    expect(other.status).toBe(201);
    expect(other.headers.get("idempotent-replayed")).toBeNull();
  });

  it("never replays an answer to another credential, nor before that credential's own checks", async () => {
    const { key } = await signup();
    const headers = { "idempotency-key": "new-root-key" };
    const made = await call("POST", "/v1/keys", { key, json: { name: "root-made" }, headers });
    const secret = (await json<{ key: string }>(made)).key;
    const workspaceId = await createWorkspace(key);
    const restricted = await createKey(key, { workspaceIds: [workspaceId] });
    const withoutBilling = await createKey(key, {
      scopes: ["workspaces:read", "workspaces:write", "exec", "keys:manage", "billing:read"],
    });
    const { token } = await mintToken(key);
    // The same key, path and body from each: never the stored secret. The confined ones are
    // refused by their own checks; the narrower key makes its own key, as narrow as itself.
    const attempt = (credential: string) =>
      call("POST", "/v1/keys", { key: credential, json: { name: "root-made" }, headers });
    for (const confined of [restricted.key, token]) {
      const refused = await attempt(confined);
      expect(refused.headers.get("idempotent-replayed")).toBeNull();
      expect((await expectProblem(refused, 403, "forbidden")).detail).not.toContain(secret);
    }
    const own = await attempt(withoutBilling.key);
    expect(own.status).toBe(201);
    expect(own.headers.get("idempotent-replayed")).toBeNull();
    const ownKey = await json<{ key: string; scopes: string[] }>(own);
    expect(ownKey.key).not.toBe(secret);
    expect(ownKey.scopes).not.toContain("billing:manage");
    const workspaceHeaders = { "idempotency-key": "new-workspace" };
    expect((await call("POST", "/v1/workspaces", { key, json: {}, headers: workspaceHeaders })).status).toBe(201);
    const notReplayed = await call("POST", "/v1/workspaces", {
      key: restricted.key,
      json: {},
      headers: workspaceHeaders,
    });
    await expectProblem(notReplayed, 403, "forbidden");
  });

  it("binds a stored answer to the credential: another one does its own work", async () => {
    const { key } = await signup();
    const ws = await createWorkspace(key);
    await call("PUT", `/v1/workspaces/${ws}/files/secret.txt`, { key, body: "hunter2" });
    const headers = { "idempotency-key": "read-secret" };
    const run = { executor: "shell", command: "cat /workspace/secret.txt" };
    const ran = await json<{ id: string; stdout: string }>(
      await call("POST", `/v1/workspaces/${ws}/exec`, { key, json: run, headers }),
    );
    expect(ran.stdout).toBe("hunter2");
    // A token confined to /src, with the same key and body: its own run, which cannot read the file.
    await call("PUT", `/v1/workspaces/${ws}/files/src/.keep`, { key, body: "" });
    const { token } = await mintToken(key, { workspaceId: ws, pathPrefix: "/src" });
    const confined = await call("POST", `/v1/workspaces/${ws}/exec`, { key: token, json: run, headers });
    expect(confined.headers.get("idempotent-replayed")).toBeNull();
    expect((await json<{ stdout: string }>(confined)).stdout).not.toContain("hunter2");
    // An equal key of the same tenant: a fresh run too, never the first caller's answer.
    const twin = await createKey(key, {});
    const again = await call("POST", `/v1/workspaces/${ws}/exec`, { key: twin.key, json: run, headers });
    expect(again.headers.get("idempotent-replayed")).toBeNull();
    expect((await json<{ id: string }>(again)).id).not.toBe(ran.id);
    // The first credential still gets its own answer back.
    const retry = await call("POST", `/v1/workspaces/${ws}/exec`, { key, json: run, headers });
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
  });

  it("does not remember a failed request, so a corrected retry does the work", async () => {
    const { key } = await signup();
    const headers = { "idempotency-key": "fix-and-retry" };
    await expectProblem(
      await call("POST", "/v1/workspaces", { key, json: { name: 5 }, headers }),
      400,
      "validation_failed",
    );
    const corrected = await call("POST", "/v1/workspaces", { key, json: { name: "fixed" }, headers });
    expect(corrected.status).toBe(201);
    expect(corrected.headers.get("idempotent-replayed")).toBeNull();
  });
});
