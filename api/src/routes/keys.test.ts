import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ApiKeys, prepareKey } from "../../../tenants/account/apiKeys.ts";
import { accountLimits } from "../../../tenants/account/limits.ts";
import { apiKeys } from "../../../tenants/account/schema.ts";
import { database } from "../../../tenants/db.ts";
import { call, createKey, createWorkspace, expectProblem, json, mintToken, signup } from "../../../test/client.ts";

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
  });

  it("leaves key management to account-wide API keys", async () => {
    const { key } = await signup();
    const workspaceId = await createWorkspace(key);
    const restricted = await createKey(key, { workspaceIds: [workspaceId] });
    // Not even a key inside its own workspaces, nor a look at the others' ids.
    for (const body of [{ name: "x" }, { name: "x", workspaceIds: [workspaceId] }]) {
      await expectProblem(await call("POST", "/v1/keys", { key: restricted.key, json: body }), 403, "forbidden");
    }
    await expectProblem(await call("GET", "/v1/keys", { key: restricted.key }), 403, "forbidden");
    const { token } = await mintToken(key);
    await expectProblem(await call("GET", "/v1/keys", { key: token }), 403, "forbidden");
    const root = await json<{ data: { id: string }[] }>(await call("GET", "/v1/keys", { key }));
    for (const id of root.data.map((k) => k.id)) {
      await expectProblem(await call("DELETE", `/v1/keys/${id}`, { key: restricted.key }), 403, "forbidden");
      await expectProblem(await call("DELETE", `/v1/keys/${id}`, { key: token }), 403, "forbidden");
    }
    expect((await call("GET", "/v1/account", { key })).status).toBe(200);
  });

  it("lets a key revoke only keys it could have created, itself included", async () => {
    const { key, keyId: rootId } = await signup();
    const narrow = await createKey(key, { scopes: ["keys:manage", "workspaces:read"] });
    const wider = await createKey(key, { scopes: ["keys:manage", "exec"] });
    const narrower = await createKey(key, { scopes: ["workspaces:read"] });
    for (const id of [rootId, wider.id]) {
      const refused = await expectProblem(
        await call("DELETE", `/v1/keys/${id}`, { key: narrow.key }),
        403,
        "forbidden",
      );
      expect(refused.detail).toMatch(/scopes this credential lacks/);
    }
    expect((await call("GET", "/v1/account", { key })).status).toBe(200);
    expect((await call("DELETE", `/v1/keys/${narrower.id}`, { key: narrow.key })).status).toBe(204);
    expect((await call("DELETE", `/v1/keys/${narrow.id}`, { key: narrow.key })).status).toBe(204);
    await expectProblem(await call("GET", "/v1/keys", { key: narrow.key }), 401, "unauthorized");
  });

  it("holds the live-key limit exactly under concurrent creation", async () => {
    const { tenantId, key } = await signup();
    // Up to ten below the limit, written straight to D1 (a thousand API calls would take minutes).
    const rows = await Promise.all(
      Array.from(
        { length: accountLimits.keysPerTenantMax - 11 },
        async () => (await prepareKey(tenantId, { name: "seed" })).row,
      ),
    );
    const db = database(env.DB);
    // Nine rows of ten columns per statement: D1 binds at most 100 values to one.
    const inserts = [];
    for (let i = 0; i < rows.length; i += 9) inserts.push(db.insert(apiKeys).values(rows.slice(i, i + 9)));
    await db.batch(inserts as [(typeof inserts)[number], ...typeof inserts]);
    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, i) => call("POST", "/v1/keys", { key, json: { name: `race-${i}` } })),
    );
    expect(responses.filter((r) => r.status === 201)).toHaveLength(10);
    const refused = responses.filter((r) => r.status !== 201);
    expect(refused).toHaveLength(30);
    for (const response of refused) await expectProblem(response, 409, "conflict");
    expect(await new ApiKeys(db).count(tenantId)).toBe(accountLimits.keysPerTenantMax);
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
