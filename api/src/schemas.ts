/** Zod schemas shared by several routes; each becomes a named component in the OpenAPI document. */
import { z } from "@hono/zod-openapi";
import { regexes } from "zod";
import { accountLimits } from "../../tenants/account/limits.ts";
import { SCOPES } from "../../tenants/account/scopes.ts";
import { workspaceLimits } from "../../tenants/workspace/limits.ts";
import { pathPatterns } from "../../tenants/workspace/pathPatterns.ts";
import { normalizePath } from "../../tenants/workspace/paths.ts";
import { ERROR_CODES } from "./errors.ts";

export const Problem = z
  .object({
    type: z.string().openapi({ example: "urn:cubicle:error:not_found" }),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    code: z.enum(Object.keys(ERROR_CODES) as [keyof typeof ERROR_CODES]).openapi({
      description: "Stable; clients switch on it. `x-cubicle-codes` gives each code's status and title.",
      // The SDK generators read this table to make one error class per status and per code.
      "x-cubicle-codes": ERROR_CODES,
    }),
    requestId: z.string(),
    fsCode: z
      .string()
      .optional()
      .openapi({ description: "For filesystem errors, the POSIX code (ENOENT, EEXIST, ENOTEMPTY…)." }),
    errors: z
      .array(z.object({ in: z.enum(["body", "query", "path", "header"]), pointer: z.string(), detail: z.string() }))
      .optional(),
  })
  .openapi("Problem", { description: "An RFC 9457 problem details object." });

export const Scope = z.enum(SCOPES).openapi("Scope");

/**
 * An RFC 3339 instant with a `T`, seconds and a `Z` or `±hh:mm` offset. The pattern is the
 * one zod checks, spelled out in the document: `format: date-time` alone admits forms the
 * server refuses (a lowercase `t`, a leap second).
 */
export const Timestamp = z.iso
  .datetime({ offset: true })
  .openapi({ pattern: regexes.datetime({ offset: true }).source, example: "2026-11-29T12:00:00.000Z" });

export const Id = (prefix: string) =>
  z.string().regex(new RegExp(`^${prefix}_[0-9a-z]{26}$`), `must be a ${prefix}_ id`);

export const Name = z.string().min(1).max(accountLimits.nameLengthMax);

/**
 * A record's key rules and size for the document: the generator drops a record's key
 * schema and a refinement's bound, so both are spelled out as `propertyNames` and
 * `maxProperties` (OpenAPI 3.1 has both; the metadata type lacks the first, hence the
 * plain return type).
 */
export function recordKeys(
  keys: { pattern: string; minLength?: number; maxLength: number },
  maxProperties: number,
): { maxProperties: number } {
  return { propertyNames: { type: "string", ...keys }, maxProperties } as { maxProperties: number };
}

const METADATA_KEY = /^[A-Za-z0-9_.-]+$/;

export const Metadata = z
  .record(
    z
      .string()
      .regex(METADATA_KEY, "metadata keys are letters, digits, `_`, `.` and `-`")
      .max(workspaceLimits.metadataKeyLengthMax),
    z.string().max(workspaceLimits.metadataValueLengthMax),
  )
  .refine((m) => Object.keys(m).length <= workspaceLimits.metadataKeysMax, {
    message: `at most ${workspaceLimits.metadataKeysMax} metadata keys`,
  })
  .openapi("Metadata", {
    ...recordKeys(
      { pattern: METADATA_KEY.source, minLength: 1, maxLength: workspaceLimits.metadataKeyLengthMax },
      workspaceLimits.metadataKeysMax,
    ),
    example: { project: "demo" },
  });

export const Tenant = z
  .object({
    id: z.string(),
    email: z.string(),
    name: z.string().nullable(),
    plan: z.string().openapi({ description: "The plan's id: `free`, `pro`, `scale`, or a negotiated plan's." }),
    createdAt: Timestamp,
  })
  .openapi("Tenant");

export const ApiKey = z
  .object({
    id: z.string().openapi({ example: "key_01kb1m2x3y4z5a6b7c8d9e0f1g" }),
    name: z.string(),
    prefix: z
      .string()
      .openapi({ description: "The first characters of the key, to tell keys apart.", example: "cub_a1b2c3d4" }),
    scopes: z.array(Scope),
    workspaceIds: z.array(z.string()).nullable(),
    expiresAt: Timestamp.nullable(),
    createdAt: Timestamp,
  })
  .openapi("ApiKey");

export const NewApiKey = ApiKey.extend({
  key: z.string().openapi({ description: "The secret. It is shown only in this response." }),
}).openapi("NewApiKey");

export const Workspace = z
  .object({
    id: z.string().openapi({ example: "ws_01kb1m2x3y4z5a6b7c8d9e0f1g" }),
    name: z.string().nullable(),
    metadata: Metadata,
    createdAt: Timestamp,
    sizeBytes: z.number().int().openapi({ description: "Logical size: every file's bytes, a hard link counted once." }),
    fileCount: z.number().int(),
    storageBytes: z.number().int().openapi({
      description:
        "What storage bills: the unique bytes the live tree and the snapshots reach (identical content once), whether a fork has copied them from its source yet or not (docs/billing.md).",
    }),
    forkedFrom: z
      .object({
        workspaceId: z.string().openapi({ description: "The workspace it was forked from (it may since be deleted)." }),
        revision: z.number().int().openapi({ description: "The source's revision the fork was made from." }),
      })
      .nullable()
      .openapi({ description: "For a fork, what it was made from; null otherwise." }),
  })
  .openapi("Workspace");

export const PageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().max(64).optional(),
});

export function page<T extends z.ZodType>(item: T, name: string) {
  return z.object({ data: z.array(item), nextCursor: z.string().nullable() }).openapi(name);
}

export const WorkspaceParams = z.object({
  workspaceId: z
    .string()
    .openapi({ param: { name: "workspaceId", in: "path" }, example: "ws_01kb1m2x3y4z5a6b7c8d9e0f1g" }),
});

/** Visible ASCII, as the idempotency middleware requires of the header. */
const IDEMPOTENCY_KEY = /^[\x21-\x7e]+$/;

export const IdempotencyHeaders = z.object({
  "idempotency-key": z
    .string()
    .min(1)
    .max(255)
    .regex(IDEMPOTENCY_KEY, "1 to 255 visible ASCII characters")
    .optional()
    .openapi({
      description:
        "Makes the request safe to retry: a retry with the same key and body within 24 hours returns the first response (marked `Idempotent-Replayed: true`) instead of doing the work again. 1 to 255 visible ASCII characters.",
      example: "4f1c2a9e-run-42",
    }),
});

/**
 * Error responses every authenticated route can give, for the OpenAPI document: a bad
 * request, a credential refused or too narrow, the spend cap reached (402) and the rate or
 * a quota (429), all decided before the route runs; plus the route's own `statuses`.
 * Statuses that follow from the request's shape (413, 415, 431) are added to every
 * operation that can get them by openApiDocument().
 */
export function errorResponses(...statuses: number[]) {
  const all = [...new Set([400, 401, 402, 403, 429, ...statuses])];
  return Object.fromEntries(
    all.map((status) => [
      status,
      { description: describeStatus(status), content: { "application/problem+json": { schema: Problem } } },
    ]),
  );
}

function describeStatus(status: number): string {
  const entry = Object.values(ERROR_CODES).find((e) => e.status === status);
  return entry?.title ?? "Error";
}

/**
 * A workspace path in a JSON body, normalised (`src/a.ts` → `/src/a.ts`) and refused with
 * the reason when hostile. The document states the rules as a pattern (pathPatterns.ts,
 * held to normalizePath by its test); normalizePath enforces them, so a refusal names
 * the exact rule broken rather than a pattern.
 */
function pathField(pattern: string, rootRefusal: string | null) {
  return z
    .string()
    .transform((value, ctx) => {
      const result = normalizePath(value);
      if (!result.ok) {
        ctx.addIssue({ code: "custom", message: result.detail });
        return z.NEVER;
      }
      if (rootRefusal !== null && result.path === "/") {
        ctx.addIssue({ code: "custom", message: rootRefusal });
        return z.NEVER;
      }
      return result.path;
    })
    .openapi({ pattern, maxLength: workspaceLimits.pathLengthMax, example: "/src/main.ts" });
}

/** Any workspace path, the root (`/`) included. */
export const WorkspacePathField = pathField(pathPatterns.any, null);

/** A path below the root: what a move, copy, link or delete names (none can act on the root itself). */
export const EntryPathField = pathField(pathPatterns.belowRoot, "the workspace root cannot be named here");
