import { describe, expect, it } from "vitest";
import { narrowToken } from "./narrowing.ts";
import { type Principal, SCOPES } from "./scopes.ts";

const NOW_MS = Date.parse("2026-01-01T00:00:00.500Z");
const NOW_S = Math.floor(NOW_MS / 1000);

const key: Principal = {
  tenantId: "ten_a",
  keyId: "key_a",
  kind: "key",
  scopes: SCOPES,
  workspaceIds: null,
  pathPrefix: null,
  expiresAt: null,
};

const refusal = (parent: Principal, request: Parameters<typeof narrowToken>[1]) => {
  const result = narrowToken(parent, request, NOW_MS);
  return result.ok ? null : result.detail;
};

describe("narrowToken", () => {
  it("grants what was asked when the parent has it, from the current whole second", () => {
    expect(
      narrowToken(key, { scopes: ["exec"], workspaceId: "ws_1", pathPrefix: "/src", ttlSeconds: 60 }, NOW_MS),
    ).toEqual({
      ok: true,
      grant: {
        scopes: ["exec"],
        workspaceId: "ws_1",
        pathPrefix: "/src",
        issuedAtS: NOW_S,
        expiresAtS: NOW_S + 60,
      },
    });
  });

  it("treats the root prefix as no confinement", () => {
    const result = narrowToken(key, { scopes: ["exec"], pathPrefix: "/", ttlSeconds: 60 }, NOW_MS);
    expect(result.ok && result.grant.pathPrefix).toBeNull();
  });

  it("refuses scopes, workspaces and prefixes the parent lacks", () => {
    const narrow: Principal = { ...key, scopes: ["workspaces:read"], workspaceIds: ["ws_1"], pathPrefix: "/src" };
    const ask = { scopes: ["workspaces:read" as const], workspaceId: "ws_1", pathPrefix: "/src/lib", ttlSeconds: 60 };
    expect(refusal(narrow, ask)).toBeNull();
    expect(refusal(narrow, { ...ask, scopes: ["workspaces:read", "exec"] })).toContain("lacks: exec");
    expect(refusal(narrow, { ...ask, workspaceId: undefined })).toContain("name one in `workspaceId`");
    expect(refusal(narrow, { ...ask, workspaceId: "ws_2" })).toContain("lacks: ws_2");
    expect(refusal(narrow, { ...ask, pathPrefix: undefined })).toContain("confined to /src");
    expect(refusal(narrow, { ...ask, pathPrefix: "/srcs" })).toContain("outside this credential's prefix /src");
    expect(refusal(narrow, { ...ask, pathPrefix: "/" })).toContain("outside");
    expect(refusal(narrow, { ...ask, pathPrefix: "/src" })).toBeNull();
  });

  it("refuses a TTL outside 1 s … 24 h and clamps one past the parent's expiry", () => {
    expect(refusal(key, { scopes: ["exec"], ttlSeconds: 0 })).toContain("ttlSeconds");
    expect(refusal(key, { scopes: ["exec"], ttlSeconds: 86_401 })).toContain("ttlSeconds");
    const expiring = { ...key, expiresAt: new Date(NOW_MS + 90_700).toISOString() };
    const result = narrowToken(expiring, { scopes: ["exec"], ttlSeconds: 3_600 }, NOW_MS);
    expect(result.ok && result.grant.expiresAtS).toBe(NOW_S + 91);
    const shorter = narrowToken(expiring, { scopes: ["exec"], ttlSeconds: 30 }, NOW_MS);
    expect(shorter.ok && shorter.grant.expiresAtS).toBe(NOW_S + 30);
  });
});
