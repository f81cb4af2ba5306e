/** Schemas and helpers shared by the artifact and share-link routes. */
import { z } from "@hono/zod-openapi";
import type { Reach } from "../../../tenants/artifacts/reach.ts";
import type { AppContext } from "../context.ts";
import { Timestamp } from "../schemas.ts";

export const ArtifactSummary = z
  .object({
    id: z.string().openapi({ example: "art_5k2m9q7x1c3v8b4n6z0p2r4t6w" }),
    digest: z.string().openapi({ example: "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08" }),
    fileCount: z.number().int(),
    bytes: z.number().int(),
    createdAt: Timestamp,
    url: z.string().openapi({ description: "This artifact's record." }),
    downloadUrl: z.string().openapi({ description: "The files as a tar.gz." }),
  })
  .openapi("ArtifactSummary");

export const Artifact = ArtifactSummary.extend({
  files: z.array(z.object({ path: z.string(), size: z.number().int() })).openapi({
    description: "Paths relative to what was published, sorted by their UTF-8 bytes.",
  }),
}).openapi("Artifact");

export const Share = z
  .object({
    id: z.string().openapi({ example: "shr_01kb1m2x3y4z5a6b7c8d9e0f1g" }),
    workspaceId: z.string(),
    path: z.string(),
    createdAt: Timestamp,
    expiresAt: Timestamp,
  })
  .openapi("Share");

export const NewShare = Share.extend({
  url: z.string().openapi({
    description: "`<origin>/s/<token>`: anyone holding it may GET the file until it expires or is revoked.",
  }),
  token: z.string().openapi({ description: "The link's token (a JWT); shown only in this response." }),
}).openapi("NewShare");

/** What the caller's credential reaches, for reading tenant-wide records made from workspaces. */
export function reachOf(c: AppContext): Reach {
  const { workspaceIds, pathPrefix } = c.get("principal");
  return { workspaceIds, pathPrefix };
}

/** The public origin of this request, for the URLs in responses. */
export function baseUrlOf(c: AppContext): string {
  return new URL(c.req.url).origin;
}

export const ArtifactParams = z.object({
  artifactId: z
    .string()
    .max(64)
    .openapi({ param: { name: "artifactId", in: "path" }, example: "art_5k2m9q7x1c3v8b4n6z0p2r4t6w" }),
});
