import { describe, expect, it } from "vitest";
import { call, createKey, createWorkspace, expectProblem, json, signup } from "../../test/client.ts";

describe("API keys", () => {
  it("creates a key that works at once, lists it without its secret, and revokes it at once", async () => {
    const { key } = await signup();
    const created = await createKey(key, { name: "ci", scopes: ["workspaces:read"] });
    expect(created.key).toMatch(/^cub_/);
    expect((await call("GET", "/v1/workspaces", { key: created.key })).status).toBe(200);
    await expectProblem(await call("POST", "/v1/workspaces", { key: created.key, json: {} }), 403, "forbidden");

    const listed = await json<{ data: { id: string; name: string; key?: string }[] }>(
      await call("GET", "/v1/keys", { key }),
    );
    expect(listed.data.map((k) => k.name)).toEqual(["ci", "default"]);
    expect(listed.data.every((k) => k.key === undefined)).toBe(true);

    expect((await call("DELETE", `/v1/keys/${created.id}`, { key })).status).toBe(204);
    await expectProblem(await call("GET", "/v1/workspaces", { key: created.key }), 401, "unauthorized");
    await expectProblem(await call("DELETE", `/v1/keys/${created.id}`, { key }), 404, "not_found");
  });

  it("never mints a key wider than its parent", async () => {
    const { key } = await signup();
    const narrow = await createKey(key, { scopes: ["keys:manage", "workspaces:read"] });
    const wider = await call("POST", "/v1/keys", { key: narrow.key, json: { name: "x", scopes: ["exec"] } });
    expect((await expectProblem(wider, 403, "forbidden")).detail).toContain("exec");
    const inherited = await createKey(narrow.key, {});
    const keys = await json<{ data: { id: string; scopes: string[] }[] }>(await call("GET", "/v1/keys", { key }));
    expect(keys.data.find((k) => k.id === inherited.id)?.scopes).toEqual(["keys:manage", "workspaces:read"]);

    const workspaceId = await createWorkspace(key);
    const other = await createWorkspace(key);
    const restricted = await createKey(key, { workspaceIds: [workspaceId] });
    await expectProblem(await call("POST", "/v1/keys", { key: restricted.key, json: { name: "x" } }), 403, "forbidden");
    const widened = await call("POST", "/v1/keys", { key: restricted.key, json: { name: "x", workspaceIds: [other] } });
    await expectProblem(widened, 403, "forbidden");
    expect((await createKey(restricted.key, { workspaceIds: [workspaceId] })).key).toMatch(/^cub_/);
  });

  it("refuses an expiry in the past and honours one in the future", async () => {
    const { key } = await signup();
    const past = await call("POST", "/v1/keys", { key, json: { name: "x", expiresAt: "2020-01-01T00:00:00Z" } });
    await expectProblem(past, 400, "validation_failed");
    const soon = await createKey(key, { expiresAt: new Date(Date.now() + 1_500).toISOString() });
    expect((await call("GET", "/v1/account", { key: soon.key })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1_600));
    const problem = await expectProblem(await call("GET", "/v1/account", { key: soon.key }), 401, "unauthorized");
    expect(problem.detail).toMatch(/expired/);
  });

  it("pages through keys with a cursor", async () => {
    const { key } = await signup();
    for (let i = 0; i < 4; i++) await createKey(key, { name: `k${i}` });
    const first = await json<{ data: { name: string }[]; nextCursor: string }>(
      await call("GET", "/v1/keys?limit=3", { key }),
    );
    expect(first.data.map((k) => k.name)).toEqual(["k3", "k2", "k1"]);
    const second = await json<{ data: { name: string }[]; nextCursor: string | null }>(
      await call("GET", `/v1/keys?limit=3&cursor=${first.nextCursor}`, { key }),
    );
    expect(second.data.map((k) => k.name)).toEqual(["k0", "default"]);
    expect(second.nextCursor).toBeNull();
  });
});
