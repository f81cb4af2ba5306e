/**
 * The shared security suite: every authenticated route, under every way a credential can
 * be wrong. A route added without a row here fails the coverage test at the bottom.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { Scope } from "../../../tenants/account/scopes.ts";
import {
  type CallOptions,
  call,
  createKey,
  createWorkspace,
  expectProblem,
  json,
  mintToken,
} from "../../../test/client.ts";
import {
  expiredKey,
  keyForOtherWorkspace,
  keyWithout,
  revokedKey,
  securityCast,
  type TenantFixture,
} from "../../../test/fixtures.ts";
import { TOOLS as MCP_TOOLS } from "../mcp/tools.ts";

interface SecuredRoute {
  operationId: string;
  method: string;
  /** `{workspaceId}` and `{keyId}` are filled from resources made fresh for each check. */
  path: string;
  /** The scope the route requires; null when any valid credential will do. */
  scope: Scope | null;
  /**
   * Routes that reach the whole account refuse (403) credentials confined to some workspaces
   * or a path prefix: `"key"` routes (key management) also refuse every scoped token.
   */
  accountWide?: "key" | "any";
  request?: Omit<CallOptions, "key">;
}

const ROUTES: SecuredRoute[] = [
  { operationId: "getAccount", method: "GET", path: "/v1/account", scope: null },
  { operationId: "listKeys", method: "GET", path: "/v1/keys", scope: "keys:manage", accountWide: "key" },
  {
    operationId: "createKey",
    method: "POST",
    path: "/v1/keys",
    scope: "keys:manage",
    accountWide: "key",
    request: { json: { name: "k" } },
  },
  {
    operationId: "revokeKey",
    method: "DELETE",
    path: "/v1/keys/{keyId}",
    scope: "keys:manage",
    accountWide: "key",
  },
  {
    operationId: "createToken",
    method: "POST",
    path: "/v1/tokens",
    scope: null,
    request: { json: { scopes: ["workspaces:read"], ttlSeconds: 60 } },
  },
  {
    operationId: "createWorkspace",
    method: "POST",
    path: "/v1/workspaces",
    scope: "workspaces:write",
    request: { json: {} },
  },
  { operationId: "listWorkspaces", method: "GET", path: "/v1/workspaces", scope: "workspaces:read" },
  { operationId: "getWorkspace", method: "GET", path: "/v1/workspaces/{workspaceId}", scope: "workspaces:read" },
  {
    operationId: "updateWorkspace",
    method: "PATCH",
    path: "/v1/workspaces/{workspaceId}",
    scope: "workspaces:write",
    request: { json: { name: "renamed" } },
  },
  { operationId: "deleteWorkspace", method: "DELETE", path: "/v1/workspaces/{workspaceId}", scope: "workspaces:write" },
  {
    operationId: "putFile",
    method: "PUT",
    path: "/v1/workspaces/{workspaceId}/files/dir/new.txt",
    scope: "workspaces:write",
    request: { body: "written" },
  },
  {
    operationId: "getFile",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/files/seed.txt",
    scope: "workspaces:read",
  },
  {
    operationId: "headFile",
    method: "HEAD",
    path: "/v1/workspaces/{workspaceId}/files/seed.txt",
    scope: "workspaces:read",
  },
  {
    operationId: "deleteFile",
    method: "DELETE",
    path: "/v1/workspaces/{workspaceId}/files/seed.txt",
    scope: "workspaces:write",
  },
  {
    operationId: "listPath",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/fs/list?path=/",
    scope: "workspaces:read",
  },
  {
    operationId: "listChanges",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/fs/changes",
    scope: "workspaces:read",
  },
  ...fsOp("statPath", "stat", "workspaces:read", { path: "/seed.txt" }),
  ...fsOp("mkdir", "mkdir", "workspaces:write", { path: "/made" }),
  ...fsOp("move", "move", "workspaces:write", { from: "/seed.txt", to: "/moved.txt" }),
  ...fsOp("copy", "copy", "workspaces:write", { from: "/seed.txt", to: "/copied.txt" }),
  ...fsOp("symlink", "symlink", "workspaces:write", { target: "seed.txt", path: "/another-link" }),
  ...fsOp("readlink", "readlink", "workspaces:read", { path: "/link" }),
  ...fsOp("chmod", "chmod", "workspaces:write", { path: "/seed.txt", mode: 0o600 }),
  ...fsOp("chown", "chown", "workspaces:write", { path: "/seed.txt", uid: 0 }),
  ...fsOp("utimes", "utimes", "workspaces:write", { path: "/seed.txt", mtimeNs: "1" }),
  ...fsOp("link", "link", "workspaces:write", { existing: "/seed.txt", path: "/hard-link" }),
  ...fsOp("truncate", "truncate", "workspaces:write", { path: "/seed.txt", size: 1 }),
  ...fsOp("grep", "grep", "workspaces:read", { pattern: "seed", path: "/" }),
  ...fsOp("find", "find", "workspaces:read", { path: "/", name: "*.txt" }),
  ...fsOp("batch", "batch", "workspaces:write", { ops: [{ op: "write", path: "/b.txt", content: "b" }] }),
  {
    operationId: "exec",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/exec",
    scope: "exec",
    request: { json: { executor: "shell", command: "echo hi" } },
  },
  { operationId: "listExecs", method: "GET", path: "/v1/workspaces/{workspaceId}/execs", scope: "exec" },
  {
    operationId: "createSnapshot",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/snapshots",
    scope: "workspaces:write",
    request: { json: { name: "s" } },
  },
  {
    operationId: "listSnapshots",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/snapshots",
    scope: "workspaces:read",
  },
  {
    operationId: "getSnapshot",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/snapshots/{snapshotId}",
    scope: "workspaces:read",
  },
  {
    operationId: "deleteSnapshot",
    method: "DELETE",
    path: "/v1/workspaces/{workspaceId}/snapshots/{snapshotId}",
    scope: "workspaces:write",
  },
  {
    operationId: "restoreWorkspace",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/restore",
    scope: "workspaces:write",
    request: { json: { snapshotId: "{snapshotId}" } },
  },
  {
    operationId: "forkWorkspace",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/fork",
    scope: "workspaces:write",
    request: { json: { snapshotId: "{snapshotId}" } },
  },
  {
    operationId: "diffWorkspace",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/diff?from={snapshotId}",
    scope: "workspaces:read",
  },
  {
    operationId: "fileHistory",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/history?path=/seed.txt",
    scope: "workspaces:read",
  },
  { operationId: "getExec", method: "GET", path: "/v1/workspaces/{workspaceId}/execs/{execId}", scope: "exec" },
  {
    operationId: "getExecOutput",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/execs/{execId}/output",
    scope: "exec",
  },
  {
    operationId: "killExec",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/execs/{execId}/kill",
    scope: "exec",
    request: { json: {} },
  },
  {
    operationId: "publishArtifact",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/artifacts",
    scope: "workspaces:read",
    request: { json: { path: "/seed.txt" } },
  },
  { operationId: "listArtifacts", method: "GET", path: "/v1/artifacts", scope: "workspaces:read" },
  { operationId: "getArtifact", method: "GET", path: "/v1/artifacts/{artifactId}", scope: "workspaces:read" },
  {
    operationId: "downloadArtifact",
    method: "GET",
    path: "/v1/artifacts/{artifactId}/download",
    scope: "workspaces:read",
  },
  {
    operationId: "createShare",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/shares",
    scope: "workspaces:read",
    request: { json: { path: "/seed.txt" } },
  },
  { operationId: "listShares", method: "GET", path: "/v1/workspaces/{workspaceId}/shares", scope: "workspaces:read" },
  { operationId: "revokeShare", method: "DELETE", path: "/v1/shares/{shareId}", scope: "workspaces:read" },
  { operationId: "getUsage", method: "GET", path: "/v1/usage", scope: "billing:read", accountWide: "any" },
  {
    operationId: "listUsageEvents",
    method: "GET",
    path: "/v1/usage/events",
    scope: "billing:read",
    accountWide: "any",
  },
  { operationId: "getQuotas", method: "GET", path: "/v1/quotas", scope: "billing:read", accountWide: "any" },
  { operationId: "getBilling", method: "GET", path: "/v1/billing", scope: "billing:read", accountWide: "any" },
  {
    operationId: "changePlan",
    method: "PUT",
    path: "/v1/billing/plan",
    scope: "billing:manage",
    accountWide: "any",
    request: { json: { plan: "free" } },
  },
  {
    operationId: "setSpendCap",
    method: "PUT",
    path: "/v1/billing/spend-cap",
    scope: "billing:manage",
    accountWide: "any",
    request: { json: { amountMicros: null } },
  },
  {
    operationId: "listInvoices",
    method: "GET",
    path: "/v1/billing/invoices",
    scope: "billing:read",
    accountWide: "any",
  },
  {
    operationId: "getUpcomingInvoice",
    method: "GET",
    path: "/v1/billing/invoices/upcoming",
    scope: "billing:read",
    accountWide: "any",
  },
];

function fsOp(operationId: string, op: string, scope: Scope, json: unknown): SecuredRoute[] {
  return [{ operationId, method: "POST", path: `/v1/workspaces/{workspaceId}/fs/${op}`, scope, request: { json } }];
}

/** The snapshot made for a path, for routes that name it in their body (restore). */
const snapshotIdOf = new Map<string, string>();

/** The route's request with its body's `{snapshotId}` filled in from the snapshot made for `path`. */
function requestFor(route: SecuredRoute, path: string): Omit<CallOptions, "key"> {
  const id = snapshotIdOf.get(path.replace(/snap_[0-9a-z]+/, "{snapshotId}")) ?? snapshotIdOf.get(path);
  if (!route.request || id === undefined) return route.request ?? {};
  return JSON.parse(JSON.stringify(route.request).replaceAll("{snapshotId}", id));
}

/** Fresh resources owned by `owner` for one check, so destructive routes never disturb another. */
async function pathFor(route: SecuredRoute, owner: TenantFixture): Promise<string> {
  let path = route.path;
  if (path.includes("{workspaceId}")) {
    const workspaceId = await createWorkspace(owner.key);
    const seeded = await call("PUT", `/v1/workspaces/${workspaceId}/files/seed.txt`, { key: owner.key, body: "seed" });
    expect(seeded.status).toBe(200);
    const link = await call("POST", `/v1/workspaces/${workspaceId}/fs/symlink`, {
      key: owner.key,
      json: { target: "seed.txt", path: "/link" },
    });
    expect(link.status).toBe(200);
    path = path.replace("{workspaceId}", workspaceId);
    if (path.includes("{snapshotId}") || JSON.stringify(route.request ?? {}).includes("{snapshotId}")) {
      const taken = await call("POST", `/v1/workspaces/${workspaceId}/snapshots`, { key: owner.key, json: {} });
      expect(taken.status).toBe(201);
      snapshotIdOf.set(path, (await json<{ id: string }>(taken)).id);
      path = path.replace("{snapshotId}", snapshotIdOf.get(path) as string);
    }
    if (path.includes("{execId}")) {
      const ran = await call("POST", `/v1/workspaces/${workspaceId}/exec`, {
        key: owner.key,
        json: { executor: "shell", command: "echo seed" },
      });
      expect(ran.status).toBe(200);
      path = path.replace("{execId}", (await json<{ id: string }>(ran)).id);
    }
  }
  if (path.includes("{keyId}")) path = path.replace("{keyId}", (await createKey(owner.key, {})).id);
  if (path.includes("{artifactId}")) path = path.replace("{artifactId}", await madeFrom(owner, "artifacts"));
  if (path.includes("{shareId}")) path = path.replace("{shareId}", await madeFrom(owner, "shares"));
  return path;
}

/** An artifact or a share link of `/seed.txt` in a fresh workspace of `owner`. */
async function madeFrom(owner: TenantFixture, kind: "artifacts" | "shares"): Promise<string> {
  const workspaceId = await createWorkspace(owner.key);
  expect(
    (await call("PUT", `/v1/workspaces/${workspaceId}/files/seed.txt`, { key: owner.key, body: "seed" })).status,
  ).toBe(200);
  const made = await call("POST", `/v1/workspaces/${workspaceId}/${kind}`, {
    key: owner.key,
    json: { path: "/seed.txt" },
  });
  expect(made.status).toBeLessThan(300);
  return (await json<{ id: string }>(made)).id;
}

let alice: TenantFixture;
let mallory: TenantFixture;
/** Alice's scoped tokens that must fail everywhere: one past its expiry, one whose key was revoked. */
let aliceExpiredToken: string;
let aliceOrphanedToken: string;

beforeAll(async () => {
  ({ alice, mallory, aliceExpiredToken, aliceOrphanedToken } = await securityCast());
});

describe.each(ROUTES)("$method $path", (route) => {
  // A HEAD answer has no body, so the detail of a refusal can only be checked on other methods.
  const detailOf = (problem: Record<string, unknown>) => (route.method === "HEAD" ? undefined : problem.detail);
  const expectDetail = (problem: Record<string, unknown>, pattern: RegExp | string) => {
    const detail = detailOf(problem);
    if (detail !== undefined) expect(detail).toMatch(pattern);
  };
  const send = async (key: string | undefined, owner = alice) => {
    const path = await pathFor(route, owner);
    return call(route.method, path, { ...requestFor(route, path), key });
  };

  it("works with a right credential (the control for every refusal below)", async () => {
    const response = await send(alice.key);
    if (response.status >= 300) throw new Error(`expected success, got ${response.status} ${await response.text()}`);
  });

  it("refuses a request without a credential", async () => {
    const response = await send(undefined);
    await expectProblem(response, 401, "unauthorized");
    expect(response.headers.get("www-authenticate")).toContain("Bearer");
  });

  it("refuses a malformed key", async () => {
    await expectProblem(await send("not-a-key"), 401, "unauthorized");
  });

  it("refuses a key whose checksum does not match", async () => {
    const last = alice.key.at(-1) === "a" ? "b" : "a";
    const problem = await expectProblem(await send(alice.key.slice(0, -1) + last), 401, "unauthorized");
    expectDetail(problem, /checksum/);
  });

  it("refuses a well-formed key that was never issued", async () => {
    const { generateKeySecret } = await import("../../../tenants/account/keySecret.ts");
    const problem = await expectProblem(await send(await generateKeySecret()), 401, "unauthorized");
    expectDetail(problem, /does not exist/);
  });

  it("refuses a revoked key", async () => {
    const problem = await expectProblem(await send(await revokedKey(alice)), 401, "unauthorized");
    expectDetail(problem, /revoked/);
  });

  it("refuses an expired key", async () => {
    const problem = await expectProblem(await send(await expiredKey(alice)), 401, "unauthorized");
    expectDetail(problem, /expired/);
  });

  it("refuses an expired scoped token", async () => {
    const problem = await expectProblem(await send(aliceExpiredToken), 401, "unauthorized");
    expectDetail(problem, /token has expired/);
  });

  it("refuses a scoped token whose API key was revoked", async () => {
    const problem = await expectProblem(await send(aliceOrphanedToken), 401, "unauthorized");
    expectDetail(problem, /minted from has been revoked/);
  });

  // The checks below apply only to some routes; the others have nothing to check, so get no test.
  const { scope } = route;
  if (scope !== null) {
    it("refuses a key without the route's scope", async () => {
      const problem = await expectProblem(await send(await keyWithout(alice, scope)), 403, "forbidden");
      expectDetail(problem, scope);
    });
  }

  // Confined credentials, each with every scope, so only their confinement can refuse them.
  const { accountWide } = route;
  if (accountWide) {
    it("refuses a key restricted to some workspaces", async () => {
      const problem = await expectProblem(await send(await keyForOtherWorkspace(alice)), 403, "forbidden");
      expectDetail(problem, /restricted to some workspaces/);
    });

    it("refuses a token confined to a path prefix", async () => {
      const { token } = await mintToken(alice.key, { pathPrefix: "/src" });
      const problem = await expectProblem(await send(token), 403, "forbidden");
      expectDetail(problem, accountWide === "key" ? /scoped token/ : /path prefix \/src/);
    });
  }
  if (accountWide === "key") {
    it("refuses a scoped token, even one with the whole account", async () => {
      const { token } = await mintToken(alice.key);
      expectDetail(await expectProblem(await send(token), 403, "forbidden"), /needs an API key/);
    });
  }

  if (/\{(workspaceId|keyId|execId|artifactId|shareId|snapshotId)\}/.test(route.path)) {
    it("answers 404 for another tenant's id", async () => {
      await expectProblem(await send(alice.key, mallory), 404, "not_found");
    });
  }

  // Artifacts and share links are read only through the workspace they came from.
  if (/\{(workspaceId|artifactId|shareId)\}/.test(route.path)) {
    it("answers 404 to a key restricted to another workspace", async () => {
      await expectProblem(await send(await keyForOtherWorkspace(alice)), 404, "not_found");
    });
  }
});

describe("coverage", () => {
  it("has a row for every authenticated operation in the OpenAPI document", async () => {
    const document = await json<{
      paths: Record<string, Record<string, { operationId: string; security?: unknown[] }>>;
    }>(await call("GET", "/openapi.json"));
    const secured = Object.values(document.paths)
      .flatMap((item) => Object.values(item))
      .filter((operation) => operation.security && operation.security.length > 0)
      .map((operation) => operation.operationId)
      .sort();
    expect(secured).toEqual(ROUTES.map((r) => r.operationId).sort());
  });

  it("covers the operation behind every MCP tool (mcp/mcp.security.test.ts runs each tool through the same refusals)", () => {
    const covered = new Set(ROUTES.map((r) => r.operationId));
    expect(MCP_TOOLS.filter((tool) => !covered.has(tool.operationId)).map((tool) => tool.name)).toEqual([]);
  });
});
