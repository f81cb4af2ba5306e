import { describe, expect, it } from "vitest";
import { call, createKey, createWorkspace, expectProblem, json, mintToken, signup } from "../../../test/client.ts";

const mint = (credential: string, body: Record<string, unknown>) =>
  call("POST", "/v1/tokens", { key: credential, json: { ttlSeconds: 600, ...body } });

describe("POST /v1/tokens", () => {
  it("mints a token that works at once as a bearer credential, within its scopes only", async () => {
    const { key } = await signup();
    const minted = await mintToken(key, { scopes: ["workspaces:read"], ttlSeconds: 900 });
    expect(minted.token.split(".")).toHaveLength(3);
    expect(minted).toMatchObject({ scopes: ["workspaces:read"], workspaceId: null, pathPrefix: null });
    const lifetimeMs = Date.parse(minted.expiresAt) - Date.now();
    expect(lifetimeMs).toBeGreaterThan(898_000);
    expect(lifetimeMs).toBeLessThanOrEqual(900_000);

    expect((await call("GET", "/v1/workspaces", { key: minted.token })).status).toBe(200);
    const write = await call("POST", "/v1/workspaces", { key: minted.token, json: {} });
    expect((await expectProblem(write, 403, "forbidden")).detail).toContain("workspaces:write");
  });

  it("restricts a token to its workspace: others answer 404 and it cannot create any", async () => {
    const { key } = await signup();
    const mine = await createWorkspace(key);
    const other = await createWorkspace(key);
    const { token } = await mintToken(key, { workspaceId: mine });
    expect((await call("GET", `/v1/workspaces/${mine}`, { key: token })).status).toBe(200);
    await expectProblem(await call("GET", `/v1/workspaces/${other}`, { key: token }), 404, "not_found");
    const listed = await json<{ data: { id: string }[] }>(await call("GET", "/v1/workspaces", { key: token }));
    expect(listed.data.map((w) => w.id)).toEqual([mine]);
    await expectProblem(await call("POST", "/v1/workspaces", { key: token, json: {} }), 403, "forbidden");
  });

  it("never mints wider than its parent: scopes, workspaces and path prefix", async () => {
    const { key } = await signup();
    const mine = await createWorkspace(key);
    const other = await createWorkspace(key);
    const narrow = await createKey(key, { scopes: ["workspaces:read"], workspaceIds: [mine] });

    const scope = await mint(narrow.key, { scopes: ["workspaces:read", "exec"], workspaceId: mine });
    expect((await expectProblem(scope, 403, "forbidden")).detail).toBe(
      "cannot grant scopes this credential lacks: exec",
    );
    const unnamed = await mint(narrow.key, { scopes: ["workspaces:read"] });
    expect((await expectProblem(unnamed, 403, "forbidden")).detail).toContain("name one in `workspaceId`");
    const elsewhere = await mint(narrow.key, { scopes: ["workspaces:read"], workspaceId: other });
    expect((await expectProblem(elsewhere, 403, "forbidden")).detail).toContain(other);

    // A token minting a token: the child must stay at or under the parent's prefix.
    const parent = await mintToken(narrow.key, { scopes: ["workspaces:read"], workspaceId: mine, pathPrefix: "/src" });
    const unconfined = await mint(parent.token, { scopes: ["workspaces:read"], workspaceId: mine });
    expect((await expectProblem(unconfined, 403, "forbidden")).detail).toContain("confined to /src");
    const sibling = await mint(parent.token, { scopes: ["workspaces:read"], workspaceId: mine, pathPrefix: "/srcx" });
    expect((await expectProblem(sibling, 403, "forbidden")).detail).toContain("outside this credential's prefix /src");
    const root = await mint(parent.token, { scopes: ["workspaces:read"], workspaceId: mine, pathPrefix: "/" });
    await expectProblem(root, 403, "forbidden");
    const child = await mintToken(parent.token, {
      scopes: ["workspaces:read"],
      workspaceId: mine,
      pathPrefix: "src/lib/",
    });
    expect(child).toMatchObject({ workspaceId: mine, pathPrefix: "/src/lib" });
  });

  it("clamps a lifetime reaching past the parent's expiry to it", async () => {
    const { key } = await signup();
    const expiresAt = new Date(Date.now() + 120_000);
    const parent = await createKey(key, { expiresAt: expiresAt.toISOString() });
    const token = await mintToken(parent.key, { ttlSeconds: 86_400 });
    expect(Date.parse(token.expiresAt)).toBe(Math.floor(expiresAt.getTime() / 1000) * 1000);
    const child = await mintToken(token.token, { ttlSeconds: 3_600 });
    expect(child.expiresAt).toBe(token.expiresAt);
    const shorter = await mintToken(token.token, { ttlSeconds: 60 });
    expect(Date.parse(shorter.expiresAt)).toBeLessThan(Date.parse(token.expiresAt));
  });

  it("answers 400 for a TTL outside 1 s … 24 h, no scopes, or a hostile prefix; 404 for an unknown workspace", async () => {
    const { key } = await signup();
    for (const body of [
      { scopes: ["exec"], ttlSeconds: 0 },
      { scopes: ["exec"], ttlSeconds: 86_401 },
      { scopes: ["exec"], ttlSeconds: 1.5 },
      { scopes: [], ttlSeconds: 60 },
      { scopes: ["exec"] },
      { scopes: ["exec"], ttlSeconds: 60, pathPrefix: "/a/../b" },
      { scopes: ["exec"], ttlSeconds: 60, workspaceId: "not-an-id" },
    ]) {
      await expectProblem(await call("POST", "/v1/tokens", { key, json: body }), 400, "validation_failed");
    }
    const missing = await mint(key, { scopes: ["exec"], workspaceId: "ws_00000000000000000000000000" });
    await expectProblem(missing, 404, "not_found");
  });

  it("does not let a token manage API keys", async () => {
    const { key } = await signup();
    const { token } = await mintToken(key);
    const refused = await call("POST", "/v1/keys", { key: token, json: { name: "escape" } });
    const detail = "scoped token cannot list, create or revoke keys";
    expect((await expectProblem(refused, 403, "forbidden")).detail).toContain(detail);
    expect((await expectProblem(await call("GET", "/v1/keys", { key: token }), 403, "forbidden")).detail).toContain(
      detail,
    );
  });

  it("dies with its parent key, and so do the tokens minted from it", async () => {
    const { key } = await signup();
    const parent = await createKey(key, {});
    const token = await mintToken(parent.key);
    const grandchild = await mintToken(token.token);
    expect((await call("GET", "/v1/account", { key: grandchild.token })).status).toBe(200);
    expect((await call("DELETE", `/v1/keys/${parent.id}`, { key })).status).toBe(204);
    for (const credential of [token.token, grandchild.token]) {
      const problem = await expectProblem(await call("GET", "/v1/account", { key: credential }), 401, "unauthorized");
      expect(problem.detail).toBe("the API key this token was minted from has been revoked");
    }
  });
});
