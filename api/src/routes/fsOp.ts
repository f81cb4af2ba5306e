/**
 * The shape every `POST /v1/workspaces/{workspaceId}/fs/{op}` route shares: a JSON body,
 * one call to the workspace object, the filesystem result (or its mapped error), and for
 * mutations the workspace's counters mirrored into the index. Each op's own file supplies
 * its schemas and the call.
 */
import { createRoute, type z } from "@hono/zod-openapi";
import type { Scope } from "../../../tenants/account/scopes.ts";
import type { Caller, Reported, WorkspaceDO } from "../../../tenants/workspace/WorkspaceDO.ts";
import type { App } from "../context.ts";
import { orThrow } from "../fsErrors.ts";
import { type AdmissionNeed, admits } from "../middleware/admits.ts";
import { requireScope } from "../middleware/requireScope.ts";
import { errorResponses, WorkspaceParams } from "../schemas.ts";
import { requireWholeWorkspace } from "../workspaceAccess.ts";
import { workspaceObject } from "./filePath.ts";

type Stub = DurableObjectStub<WorkspaceDO>;

export interface FsOpDefinition<B extends z.ZodObject, R extends z.ZodType> {
  op: string;
  operationId: string;
  summary: string;
  description?: string;
  scope: Scope;
  /** What admission checks (admits.ts): `"write"` for operations that can add bytes. */
  admission: AdmissionNeed;
  body: B;
  response: R;
  /**
   * Calls the workspace object, passing on `caller` (the credential's path prefix, so the
   * object refuses paths outside it, and the key a change is recorded as made by); returns
   * its result value (ok or a filesystem failure).
   */
  run: (object: Stub, body: z.infer<B>, caller: Caller) => Promise<{ ok: boolean }>;
  /**
   * For ops that may act on the whole workspace (a past version): what the request does, for
   * the 403 a credential confined to a path prefix gets, or null when this one does not.
   */
  wholeWorkspace?: (body: z.infer<B>) => string | null;
  /** Picks the response body out of a successful result. */
  respond: (result: never) => z.infer<R>;
}

export function registerFsOp<B extends z.ZodObject, R extends z.ZodType>(app: App, def: FsOpDefinition<B, R>) {
  const route = createRoute({
    method: "post",
    path: `/v1/workspaces/{workspaceId}/fs/${def.op}`,
    operationId: def.operationId,
    tags: ["Filesystem"],
    summary: def.summary,
    ...(def.description ? { description: def.description } : {}),
    security: [{ bearer: [] }],
    middleware: [requireScope(def.scope), admits(def.admission)] as const,
    request: {
      params: WorkspaceParams,
      body: { required: true, content: { "application/json": { schema: def.body } } },
    },
    responses: {
      200: { description: "Done", content: { "application/json": { schema: def.response } } },
      ...errorResponses(404, 409, 412, 413, 507),
    },
  });
  app.openapi(route, async (c) => {
    // The route's input types are generic here; each op's schema has already validated both parts.
    const valid = c.req.valid.bind(c.req) as unknown as (target: "param" | "json") => unknown;
    const { workspaceId } = valid("param") as { workspaceId: string };
    const workspace = await workspaceObject(c, workspaceId);
    const body = valid("json") as z.infer<B>;
    const whole = def.wholeWorkspace?.(body);
    if (whole) requireWholeWorkspace(c, whole);
    const result = orThrow(await def.run(workspace.object, body, workspace.caller)) as Partial<Reported>;
    if (result.stats) await workspace.recordStats({ stats: result.stats, previous: result.previous ?? null });
    // biome-ignore lint/suspicious/noExplicitAny: each op's respond() narrows its own result type.
    return c.json(def.respond(result as never) as any, 200);
  });
}
