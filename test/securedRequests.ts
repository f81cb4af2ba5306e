/**
 * Requests of the shared security suite (api/src/routes/routes.security.*.test.ts, and
 * api/src/mcp/mcp.security.test.ts for the MCP tools): each check sends its route a request
 * on resources made fresh for it, owned by a tenant of the suite's cast (fixtures.ts
 * securityCast), so destructive routes never disturb another check.
 */
import { beforeAll, expect } from "vitest";
import { type CallOptions, call, createKey, createWorkspace, json } from "./client.ts";
import { securityCast, type TenantFixture } from "./fixtures.ts";
import type { SecuredRoute } from "./securedRoutes.ts";

/** The snapshot made for a path, for routes that name it in their body (restore). */
const snapshotIdOf = new Map<string, string>();

/** The route's request with its body's `{snapshotId}` filled in from the snapshot made for `path`. */
function requestFor(route: SecuredRoute, path: string): Omit<CallOptions, "key"> {
  const id = snapshotIdOf.get(path.replace(/snap_[0-9a-z]+/, "{snapshotId}")) ?? snapshotIdOf.get(path);
  if (!route.request || id === undefined) return route.request ?? {};
  return JSON.parse(JSON.stringify(route.request).replaceAll("{snapshotId}", id));
}

/** A fresh workspace of `owner` holding `/seed.txt`, for checks of the routes (and MCP tools) under one. */
export async function seededWorkspace(owner: TenantFixture): Promise<string> {
  const workspaceId = await createWorkspace(owner.key);
  const seeded = await call("PUT", `/v1/workspaces/${workspaceId}/files/seed.txt`, { key: owner.key, body: "seed" });
  expect(seeded.status).toBe(200);
  return workspaceId;
}

/** Fresh resources owned by `owner` for one check, so destructive routes never disturb another. */
async function pathFor(route: SecuredRoute, owner: TenantFixture): Promise<string> {
  let path = route.path;
  if (path.includes("{workspaceId}")) {
    const workspaceId = await seededWorkspace(owner);
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
  const workspaceId = await seededWorkspace(owner);
  const made = await call("POST", `/v1/workspaces/${workspaceId}/${kind}`, {
    key: owner.key,
    json: { path: "/seed.txt" },
  });
  expect(made.status).toBeLessThan(300);
  return (await json<{ id: string }>(made)).id;
}

/** The cast of a security suite: Alice, Mallory and Alice's two dead tokens, made before the file's tests. */
export function securitySuiteCast(): Awaited<ReturnType<typeof securityCast>> {
  const cast = {} as Awaited<ReturnType<typeof securityCast>>;
  beforeAll(async () => {
    Object.assign(cast, await securityCast());
  });
  return cast;
}

/**
 * How a check reaches `route`: `send` makes fresh resources of `owner` and sends the route's
 * request with `key`; `expectDetail` checks a refusal's detail (a HEAD answer has no body, so
 * there it checks nothing).
 */
export function securedRequest(route: SecuredRoute) {
  const send = async (key: string | undefined, owner: TenantFixture) => {
    const path = await pathFor(route, owner);
    return call(route.method, path, { ...requestFor(route, path), key });
  };
  const expectDetail = (problem: Record<string, unknown>, pattern: RegExp | string) => {
    const detail = route.method === "HEAD" ? undefined : problem.detail;
    if (detail !== undefined) expect(detail).toMatch(pattern);
  };
  return { send, expectDetail };
}
