import { describe, expect, it } from "vitest";
import { call, createKey, createWorkspace, expectProblem, json, mintToken, signup } from "../../test/client.ts";

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

  it("never replays a response to a request that could not have produced it", async () => {
    const { key } = await signup();
    const first = await createWorkspace(key);
    const second = await createWorkspace(key);
    await call("PUT", `/v1/workspaces/${first}/files/secret.txt`, { key, body: "hunter2" });
    const headers = { "idempotency-key": "read-secret" };
    const run = { executor: "shell", command: "cat /workspace/secret.txt" };
    const ran = await call("POST", `/v1/workspaces/${first}/exec`, { key, json: run, headers });
    expect((await json<{ stdout: string }>(ran)).stdout).toBe("hunter2");
    // The same key and body from a token confined to /src, or for another workspace: no replay.
    const { token } = await mintToken(key, { workspaceId: first, pathPrefix: "/src" });
    const confined = await call("POST", `/v1/workspaces/${first}/exec`, { key: token, json: run, headers });
    expect((await expectProblem(confined, 409, "conflict")).detail).toMatch(/path prefix/);
    const restricted = await createKey(key, { workspaceIds: [second] });
    const elsewhere = await call("POST", `/v1/workspaces/${second}/exec`, { key: restricted.key, json: run, headers });
    await expectProblem(elsewhere, 409, "conflict");
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
