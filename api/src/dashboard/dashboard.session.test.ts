/**
 * Dashboard sessions over HTTP in workerd: a key becomes an HttpOnly, SameSite=Strict
 * cookie holding a short-lived session token (never the key); a session reads only its own
 * tenant; forms need the session's CSRF secret and a same-origin Origin; revoking the key
 * ends the session; signing out clears the cookie.
 */
import { describe, expect, it } from "vitest";
import { call, signup } from "../../../test/client.ts";
import { csrfOf, page, post, sessionCookie, signInResponse as signIn } from "../../../test/dashboard.ts";

describe("dashboard sessions", () => {
  it("exchanges a key for a hardened session cookie that holds no key", async () => {
    const { key } = await signup();
    const response = await signIn(key);
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/dashboard");
    const header = response.headers.get("set-cookie") ?? "";
    expect(header).toMatch(/^cubicle_session=ey/);
    expect(header).toMatch(/HttpOnly/);
    expect(header).toMatch(/SameSite=Strict/);
    expect(header).toMatch(/Path=\/dashboard/);
    expect(header).not.toContain(key);
    expect(header).not.toContain(key.slice(4, 20));

    const overview = await page("/dashboard", sessionCookie(response));
    expect(overview.status).toBe(200);
    expect(overview.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(await overview.text()).toContain("Quotas this period");
  });

  it("refuses keys that are wrong, revoked or without billing:read, and sends strangers to sign in", async () => {
    expect((await signIn("cub_notakey")).status).toBe(401);
    const { key } = await signup();
    const narrow = await call("POST", "/v1/keys", { key, json: { name: "exec only", scopes: ["exec"] } });
    const narrowKey = ((await narrow.json()) as { key: string }).key;
    const refused = await signIn(narrowKey);
    expect(refused.status).toBe(401);
    expect(await refused.text()).toContain("billing:read");

    const anonymous = await page("/dashboard", "");
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.get("location")).toBe("/dashboard/login");
    const forged = await page("/dashboard", "cubicle_session=eyJhbGciOiJIUzI1NiJ9.e30.x");
    expect(forged.headers.get("location")).toBe("/dashboard/login");
  });

  it("ends the session when its key is revoked", async () => {
    const { key } = await signup();
    const second = await call("POST", "/v1/keys", { key, json: { name: "dashboard" } });
    const { key: secondKey, id } = (await second.json()) as { key: string; id: string };
    const cookie = sessionCookie(await signIn(secondKey));
    expect((await page("/dashboard", cookie)).status).toBe(200);
    expect((await call("DELETE", `/v1/keys/${id}`, { key })).status).toBe(204);
    const after = await page("/dashboard", cookie);
    expect(after.status).toBe(303);
    expect(after.headers.get("location")).toBe("/dashboard/login");
  });

  it("refuses a form without the session's CSRF secret or from another origin", async () => {
    const { key } = await signup();
    const cookie = sessionCookie(await signIn(key));
    const csrf = await csrfOf(await page("/dashboard", cookie));
    const empty = await post("/dashboard/logout", cookie, {});
    expect(empty.status, await empty.clone().text()).toBe(403);
    const guessed = await post("/dashboard/logout", cookie, { _csrf: "guess" });
    expect(guessed.status, await guessed.clone().text()).toBe(403);
    const crossSite = await post("/dashboard/logout", cookie, { _csrf: csrf }, "https://evil.example");
    expect(crossSite.status, await crossSite.clone().text()).toBe(403);
    const out = await post("/dashboard/logout", cookie, { _csrf: csrf });
    expect(out.status).toBe(303);
    expect(out.headers.get("set-cookie")).toMatch(/cubicle_session=;.*Max-Age=0/);
  });
});
