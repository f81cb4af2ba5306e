/**
 * The keys page over HTTP in workerd: a key created through the form works on the API and
 * its secret is shown once; revoking through the form stops it on the API; the same
 * narrowing as `POST /v1/keys` applies; another tenant's key is not found; a session
 * without keys:manage sees a notice and cannot post.
 */
import { describe, expect, it } from "vitest";
import { call, createKey, signup } from "../../../../test/client.ts";
import { session as dashboardSession, page, post, signIn } from "../../../../test/dashboard.ts";

const session = (key: string) => dashboardSession(key, "/dashboard/keys");

const secretOf = (html: string) => /data-secret[^>]*>([^<]+)</.exec(html)?.[1];
const createdIdOf = (html: string) => /data-created-key-id="([^"]+)"/.exec(html)?.[1];

describe("dashboard keys page", () => {
  it("creates a key whose secret is shown once and works, then revokes it", async () => {
    const { key, keyId } = await signup();
    const { cookie, csrf } = await session(key);
    const listed = await (await page("/dashboard/keys", cookie)).text();
    expect(listed).toContain(`data-key-id="${keyId}"`);
    expect(listed).toContain("this session");
    expect(listed).toContain(`action="/dashboard/keys/${keyId}/revoke" data-confirm=`);

    const form: [string, string][] = [
      ["_csrf", csrf],
      ["name", "from the dashboard"],
      ["scopes", "workspaces:read"],
      ["scopes", "billing:read"],
    ];
    const created = await post("/dashboard/keys", cookie, form);
    const html = await created.text();
    expect(created.status, html).toBe(201);
    expect(created.headers.get("set-cookie")).toBeNull();
    const secret = secretOf(html);
    const id = createdIdOf(html);
    expect(secret).toMatch(/^cub_/);
    expect(html).toContain("will not be shown again");
    expect(html).toContain(`data-copy="${secret}"`);
    expect(html).toContain(`data-key-id="${id}"`);
    expect((await call("GET", "/v1/account", { key: secret })).status).toBe(200);
    const apiKeys = (await (await call("GET", "/v1/keys", { key })).json()) as {
      data: { id: string; scopes: string[] }[];
    };
    expect(apiKeys.data.find((k) => k.id === id)?.scopes).toEqual(["workspaces:read", "billing:read"]);

    const reloaded = await (await page("/dashboard/keys", cookie)).text();
    expect(reloaded).toContain(`data-key-id="${id}"`);
    expect(reloaded).not.toContain(secret);
    expect(secretOf(reloaded)).toBeUndefined();

    const revoked = await post(`/dashboard/keys/${id}/revoke`, cookie, [["_csrf", csrf]]);
    expect(revoked.status).toBe(303);
    expect(revoked.headers.get("location")).toBe("/dashboard/keys");
    expect((await call("GET", "/v1/account", { key: secret })).status).toBe(401);
    expect(await (await page("/dashboard/keys", cookie)).text()).not.toContain(`data-key-id="${id}"`);
  });

  it("narrows a new key exactly like POST /v1/keys", async () => {
    const { key } = await signup();
    const narrow = await createKey(key, { scopes: ["keys:manage", "billing:read"] });
    const { cookie, csrf } = await session(narrow.key);

    const wider = await post("/dashboard/keys", cookie, [
      ["_csrf", csrf],
      ["name", "wider"],
      ["scopes", "exec"],
    ]);
    expect(wider.status).toBe(403);
    expect(await wider.text()).toContain("cannot grant scopes this credential lacks: exec");

    const past = await post("/dashboard/keys", cookie, [
      ["_csrf", csrf],
      ["name", "expired"],
      ["expires", "2020-01-01"],
    ]);
    expect(past.status).toBe(400);
    expect(await past.text()).toContain("must be in the future");

    const unnamed = await post("/dashboard/keys", cookie, [["_csrf", csrf]]);
    expect(unnamed.status).toBe(400);
    expect(await unnamed.text()).toContain("Name:");

    // No scope checked: the session's own scopes, as the API gives a key created without `scopes`.
    const inherited = await post("/dashboard/keys", cookie, [
      ["_csrf", csrf],
      ["name", "inherits"],
      ["expires", new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10)],
    ]);
    const id = createdIdOf(await inherited.text());
    expect(inherited.status).toBe(201);
    const listed = (await (await call("GET", "/v1/keys", { key })).json()) as {
      data: { id: string; scopes: string[]; expiresAt: string | null }[];
    };
    const made = listed.data.find((k) => k.id === id);
    expect(made?.scopes).toEqual(["keys:manage", "billing:read"]);
    expect(made?.expiresAt).toMatch(/T00:00:00\.000Z$/);
  });

  it("answers 404 for another tenant's key and leaves it working", async () => {
    const mine = await signup();
    const theirs = await signup();
    const { cookie, csrf } = await session(mine.key);
    const refused = await post(`/dashboard/keys/${theirs.keyId}/revoke`, cookie, [["_csrf", csrf]]);
    expect(refused.status).toBe(404);
    expect((await call("GET", "/v1/account", { key: theirs.key })).status).toBe(200);
    expect((await post("/dashboard/keys/not-a-key/revoke", cookie, [["_csrf", csrf]])).status).toBe(404);
  });

  it("signs the session out when it revokes its own key", async () => {
    const { key } = await signup();
    const own = await createKey(key, { name: "dashboard" });
    const { cookie, csrf } = await session(own.key);
    const revoked = await post(`/dashboard/keys/${own.id}/revoke`, cookie, [["_csrf", csrf]]);
    expect(revoked.status).toBe(303);
    expect(revoked.headers.get("location")).toBe("/dashboard/login");
    expect(revoked.headers.get("set-cookie")).toMatch(/cubicle_session=;.*Max-Age=0/);
    expect((await page("/dashboard/keys", cookie)).headers.get("location")).toBe("/dashboard/login");
    expect((await call("GET", "/v1/account", { key: own.key })).status).toBe(401);
  });

  it("shows a notice without keys:manage and refuses its posts", async () => {
    const { key, keyId } = await signup();
    const reader = await createKey(key, { scopes: ["billing:read"] });
    const cookie = await signIn(reader.key);
    const response = await page("/dashboard/keys", cookie);
    const html = await response.text();
    expect(response.status).toBe(200);
    expect(html).toContain("lacks the keys:manage scope");
    expect(html).not.toContain("data-key-id");
    expect(html).not.toContain('action="/dashboard/keys"');
    const csrf = /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? "";

    const create = await post("/dashboard/keys", cookie, [
      ["_csrf", csrf],
      ["name", "sneaky"],
    ]);
    expect(create.status).toBe(403);
    expect(secretOf(await create.text())).toBeUndefined();
    const revoke = await post(`/dashboard/keys/${keyId}/revoke`, cookie, [["_csrf", csrf]]);
    expect(revoke.status).toBe(403);
    expect((await call("GET", "/v1/account", { key })).status).toBe(200);
  });
});
