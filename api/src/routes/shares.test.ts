/**
 * Share links: made with a credential, served to anyone holding the URL with the file's
 * current bytes and the right headers, and dead — one indistinguishable 404 — once
 * expired, revoked, tampered with, orphaned by their key, or pointing at nothing.
 */
import { describe, expect, it } from "vitest";
import { call, createKey, createWorkspace, expectProblem, json, mintToken, signup } from "../../../test/client.ts";
import { craftToken } from "../../../test/craftToken.ts";

interface ShareBody {
  id: string;
  workspaceId: string;
  path: string;
  url: string;
  token: string;
  createdAt: string;
  expiresAt: string;
}

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

async function setup() {
  const tenant = await signup();
  const ws = await createWorkspace(tenant.key);
  const files: Record<string, BodyInit> = {
    "out/chart.png": PNG,
    "out/report.html": "<script>alert(document.cookie)</script><h1>report</h1>",
    "out/notes.txt": "0123456789",
    "secret/key.txt": "hunter2",
  };
  for (const [path, body] of Object.entries(files)) {
    expect((await call("PUT", `/v1/workspaces/${ws}/files/${path}`, { key: tenant.key, body })).status).toBe(200);
  }
  const share = async (path: string, body: Record<string, unknown> = {}, key = tenant.key) =>
    call("POST", `/v1/workspaces/${ws}/shares`, { key, json: { path, ...body } });
  const made = async (path: string, body: Record<string, unknown> = {}) => {
    const response = await share(path, body);
    expect(response.status).toBe(201);
    return json<ShareBody>(response);
  };
  return { ...tenant, ws, share, made };
}

/** The link fetched as an anonymous client would: no credential. */
const open = (url: string, headers: Record<string, string> = {}) => call("GET", new URL(url).pathname, { headers });

async function expectDead(url: string) {
  const problem = await expectProblem(await open(url), 404, "not_found");
  expect(problem.detail).toBe("this link does not exist, has expired or was revoked");
}

describe("a share link", () => {
  it("serves the file to anyone, with its content type, ETag and a cache lifetime within the link's", async () => {
    const { made, ws } = await setup();
    const share = await made("/out/chart.png", { ttlSeconds: 600 });
    expect(share).toMatchObject({ workspaceId: ws, path: "/out/chart.png" });
    expect(share.url).toBe(`http://cubicle.test/s/${share.token}`);
    expect(Date.parse(share.expiresAt) - Date.parse(share.createdAt)).toBeGreaterThanOrEqual(599_000);
    const response = await open(share.url);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/png");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("cache-control")).toBe("private, max-age=60");
    expect(response.headers.get("content-security-policy")).toBeNull();
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(PNG);
    const etag = response.headers.get("etag") as string;
    expect((await open(share.url, { "if-none-match": etag })).status).toBe(304);
  });

  it("is rate limited per link, not per workspace: a hammered link answers 429, another still serves", async () => {
    const { made } = await setup();
    const hot = await made("/out/notes.txt");
    const other = await made("/out/chart.png");
    // The local limiter counts in wall-clock minutes; start well inside one so the count is exact.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 50_000) await new Promise((resolve) => setTimeout(resolve, 60_050 - intoMinute));
    const statuses: number[] = [];
    for (let i = 0; i < 125; i++) statuses.push((await open(hot.url)).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(120);
    const refused = await open(hot.url);
    await expectProblem(refused, 429, "rate_limited");
    expect(refused.headers.get("retry-after")).toBe("60");
    expect((await open(other.url)).status).toBe(200);
  });

  it("serves HTML in a CSP sandbox, so a shared page runs no script on the API's origin", async () => {
    const { made } = await setup();
    const response = await open((await made("/out/report.html")).url);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("content-security-policy")).toMatch(/^sandbox; default-src 'none'/);
    expect(response.headers.get("referrer-policy")).toBe("no-referrer");
  });

  it("answers ranges, and always the file's current bytes", async () => {
    const { made, key, ws } = await setup();
    const share = await made("/out/notes.txt");
    const part = await open(share.url, { range: "bytes=2-4" });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe("bytes 2-4/10");
    expect(await part.text()).toBe("234");
    await call("PUT", `/v1/workspaces/${ws}/files/out/notes.txt`, { key, body: "changed" });
    expect(await (await open(share.url)).text()).toBe("changed");
  });

  it("dies when it expires", async () => {
    const { made } = await setup();
    // Long enough that the first open lands before expiry on a loaded CI host (a 1 s link
    // had expired before it under load), short enough to wait out.
    const share = await made("/out/notes.txt", { ttlSeconds: 3 });
    expect((await open(share.url)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, Date.parse(share.expiresAt) - Date.now() + 50));
    await expectDead(share.url);
  });

  it("dies when revoked, and leaves the workspace's list", async () => {
    const { made, key, ws } = await setup();
    const share = await made("/out/notes.txt");
    const other = await made("/out/chart.png");
    const listed = await json<{ data: { id: string }[] }>(await call("GET", `/v1/workspaces/${ws}/shares`, { key }));
    expect(listed.data.map((s) => s.id)).toEqual([other.id, share.id]);
    expect(listed.data[0]).not.toHaveProperty("token");
    expect((await call("DELETE", `/v1/shares/${share.id}`, { key })).status).toBe(204);
    await expectDead(share.url);
    expect((await open(other.url)).status).toBe(200);
    await expectProblem(await call("DELETE", `/v1/shares/${share.id}`, { key }), 404, "not_found");
    const after = await json<{ data: { id: string }[] }>(await call("GET", `/v1/workspaces/${ws}/shares`, { key }));
    expect(after.data.map((s) => s.id)).toEqual([other.id]);
  });

  it("dies when tampered with, or when it is not a share token at all", async () => {
    const { made, tenantId, keyId, key } = await setup();
    const share = await made("/out/notes.txt");
    const [header, payload, signature] = share.token.split(".") as [string, string, string];
    const claims = JSON.parse(atob(payload.replace(/-/g, "+").replace(/_/g, "/")));
    const forged = btoa(JSON.stringify({ ...claims, path: "/secret/key.txt" }))
      .replace(/\+/g, "-")
      .replace(/\//g, "_")
      .replace(/=+$/, "");
    await expectDead(`http://cubicle.test/s/${header}.${forged}.${signature}`);
    await expectDead(`http://cubicle.test/s/${header}.${payload}.${signature.slice(0, -2)}AA`);
    await expectDead("http://cubicle.test/s/not-a-token");
    // A valid access token is signed by the same keys, for another audience.
    await expectDead(`http://cubicle.test/s/${(await mintToken(key)).token}`);
    await expectDead(`http://cubicle.test/s/${await craftToken({ tenantId, keyId })}`);
    // The share audience and claims, signed by our keys, but typed as an access token.
    const retyped = await craftToken({
      tenantId,
      keyId,
      claims: { aud: "cubicle:share", jti: share.id, ws: share.workspaceId, path: share.path },
    });
    await expectDead(`http://cubicle.test/s/${retyped}`);
  });

  it("dies with the file, and with the API key that made it", async () => {
    const { made, key, ws } = await setup();
    const gone = await made("/out/notes.txt");
    await call("DELETE", `/v1/workspaces/${ws}/files/out/notes.txt`, { key });
    await expectDead(gone.url);
    const other = await createKey(key, {});
    const response = await call("POST", `/v1/workspaces/${ws}/shares`, {
      key: other.key,
      json: { path: "/out/chart.png" },
    });
    const orphan = await json<ShareBody>(response);
    expect((await open(orphan.url)).status).toBe(200);
    expect((await call("DELETE", `/v1/keys/${other.id}`, { key })).status).toBe(204);
    await expectDead(orphan.url);
  });

  it("expires no later than the credential that made it", async () => {
    const { key, ws } = await setup();
    const { token, expiresAt } = await mintToken(key, { ttlSeconds: 30 });
    const response = await call("POST", `/v1/workspaces/${ws}/shares`, {
      key: token,
      json: { path: "/out/notes.txt", ttlSeconds: 3600 },
    });
    expect(response.status).toBe(201);
    expect((await json<ShareBody>(response)).expiresAt).toBe(expiresAt);
  });

  it("is only made for files inside the caller's reach, within the ttl bounds", async () => {
    const { share, key, ws } = await setup();
    await expectProblem(await share("/out"), 409, "conflict");
    await expectProblem(await share("/"), 409, "conflict");
    await expectProblem(await share("/missing.txt"), 404, "not_found");
    await expectProblem(await share("/out/notes.txt", { ttlSeconds: 0 }), 400, "validation_failed");
    await expectProblem(await share("/out/notes.txt", { ttlSeconds: 8 * 86400 }), 400, "validation_failed");
    const { token } = await mintToken(key, { workspaceId: ws, pathPrefix: "/out" });
    const refused = await expectProblem(await share("/secret/key.txt", {}, token), 403, "forbidden");
    expect(refused.detail).toMatch(/outside this token's path prefix \/out/);
    expect((await share("/out/notes.txt", {}, token)).status).toBe(201);
  });

  it("is invisible to another tenant and to a token confined elsewhere", async () => {
    const { made, key, ws } = await setup();
    const share = await made("/out/notes.txt");
    const mallory = await signup();
    await expectProblem(await call("DELETE", `/v1/shares/${share.id}`, { key: mallory.key }), 404, "not_found");
    const { token } = await mintToken(key, { workspaceId: ws, pathPrefix: "/secret" });
    await expectProblem(await call("DELETE", `/v1/shares/${share.id}`, { key: token }), 404, "not_found");
    const listed = await json<{ data: unknown[] }>(await call("GET", `/v1/workspaces/${ws}/shares`, { key: token }));
    expect(listed.data).toEqual([]);
    expect((await open(share.url)).status).toBe(200);
  });
});
