/**
 * Artifacts: immutable, content-addressed sets of files a tenant published from a
 * workspace. Every method takes the tenant id first and filters on it.
 *
 * Storage: each distinct file content is one R2 object per tenant, keyed by its SHA-256
 * (`tenants/<tenantId>/blobs/<sha256>`), written once and never changed; D1 holds the
 * artifact's file list (`artifacts`) and where it was published from (`artifact_sources`).
 * Blobs are per tenant, not global, so one tenant can never learn from upload timing or
 * billing whether another holds some content, and a tenant's bytes sit under one prefix.
 *
 * Publishing itself (reading the workspace under its lock) runs in the workspace object,
 * publish.ts; this class is what it and the gateway share.
 */
import { and, desc, eq, lt, or, sql } from "drizzle-orm";
import type { ArtifactInfo } from "../../executors/contract.ts";
import { type Db, nowIso } from "../db.ts";
import type { ManifestFile } from "./manifest.ts";
import { type Reach, reachCondition, reaches } from "./reach.ts";
import { artifactSources, artifacts } from "./schema.ts";
import { tarStream } from "./tar.ts";

export interface Artifact {
  id: string;
  digest: string;
  files: ManifestFile[];
  fileCount: number;
  bytes: number;
  createdAt: string;
}

export type ArtifactSummary = Omit<Artifact, "files">;

export interface ArtifactSource {
  workspaceId: string;
  path: string;
}

export class Artifacts {
  constructor(
    private readonly db: Db,
    private readonly bucket: R2Bucket,
  ) {}

  static blobKey(tenantId: string, sha256: string): string {
    return `tenants/${tenantId}/blobs/${sha256}`;
  }

  async hasBlob(tenantId: string, sha256: string): Promise<boolean> {
    return (await this.bucket.head(Artifacts.blobKey(tenantId, sha256))) !== null;
  }

  /** Stores one file's bytes; R2 checks them against `sha256` and refuses a mismatch. */
  async putBlob(tenantId: string, sha256: string, size: number, body: ReadableStream<Uint8Array>): Promise<void> {
    const value = size === 0 ? new Uint8Array(0) : body.pipeThrough(new FixedLengthStream(size));
    await this.bucket.put(Artifacts.blobKey(tenantId, sha256), value, { sha256 });
  }

  /**
   * Records an artifact whose blobs are all stored, and where it came from. Publishing the
   * same content again (here or elsewhere, even concurrently) keeps the first record and
   * adds the source; the answer is always the stored record.
   */
  async record(tenantId: string, artifact: Omit<Artifact, "createdAt">, source: ArtifactSource): Promise<Artifact> {
    const createdAt = nowIso();
    await this.db.batch([
      this.db
        .insert(artifacts)
        .values({
          id: artifact.id,
          tenantId,
          digest: artifact.digest,
          files: JSON.stringify(artifact.files),
          fileCount: artifact.fileCount,
          bytes: artifact.bytes,
          createdAt,
        })
        .onConflictDoNothing(),
      this.db
        .insert(artifactSources)
        .values({ tenantId, artifactId: artifact.id, ...source, createdAt })
        .onConflictDoNothing(),
    ]);
    const stored = await this.find(tenantId, artifact.id);
    if (!stored) throw new Error(`artifact ${artifact.id} was recorded but cannot be read back`);
    return stored;
  }

  /** Adds a source to an artifact already recorded; false when there is no such artifact. */
  async addSource(tenantId: string, artifactId: string, source: ArtifactSource): Promise<Artifact | null> {
    const stored = await this.find(tenantId, artifactId);
    if (!stored) return null;
    await this.db
      .insert(artifactSources)
      .values({ tenantId, artifactId, ...source, createdAt: nowIso() })
      .onConflictDoNothing();
    return stored;
  }

  /** The artifact, when it exists and came from somewhere inside `reach`; null otherwise. */
  async get(tenantId: string, artifactId: string, reach: Reach): Promise<Artifact | null> {
    const artifact = await this.find(tenantId, artifactId);
    if (!artifact || (reach.workspaceIds === null && reach.pathPrefix === null)) return artifact;
    const sources = await this.db
      .select({ workspaceId: artifactSources.workspaceId, path: artifactSources.path })
      .from(artifactSources)
      .where(and(eq(artifactSources.tenantId, tenantId), eq(artifactSources.artifactId, artifactId)));
    return sources.some((s) => reaches(reach, s.workspaceId, s.path)) ? artifact : null;
  }

  /** Newest first; the cursor is the last item's `<createdAt>~<id>`. */
  async list(tenantId: string, reach: Reach, limit: number, cursor?: string) {
    const [cursorAt, cursorId] = cursor?.split("~") ?? [];
    const visible =
      reach.workspaceIds === null && reach.pathPrefix === null
        ? undefined
        : sql`${artifacts.id} IN (SELECT ${artifactSources.artifactId} FROM ${artifactSources} WHERE ${and(
            eq(artifactSources.tenantId, tenantId),
            reachCondition(reach, artifactSources.workspaceId, artifactSources.path),
          )})`;
    const after =
      cursorAt && cursorId
        ? or(lt(artifacts.createdAt, cursorAt), and(eq(artifacts.createdAt, cursorAt), lt(artifacts.id, cursorId)))
        : undefined;
    const rows = await this.db
      .select({
        id: artifacts.id,
        digest: artifacts.digest,
        fileCount: artifacts.fileCount,
        bytes: artifacts.bytes,
        createdAt: artifacts.createdAt,
      })
      .from(artifacts)
      .where(and(eq(artifacts.tenantId, tenantId), visible, after))
      .orderBy(desc(artifacts.createdAt), desc(artifacts.id))
      .limit(limit + 1);
    const data: ArtifactSummary[] = rows.slice(0, limit);
    const last = data.at(-1);
    return { data, nextCursor: rows.length > limit && last ? `${last.createdAt}~${last.id}` : null };
  }

  /**
   * The artifact as a gzip-compressed tar, streamed: each file's blob is read from R2 only
   * when the archive reaches it, so memory holds one chunk at a time whatever the size.
   */
  gzipTar(tenantId: string, artifact: Artifact): ReadableStream<Uint8Array> {
    const entries = artifact.files.map((file) => ({
      path: file.path,
      size: file.size,
      open: async () => {
        const blob = await this.bucket.get(Artifacts.blobKey(tenantId, file.sha256));
        if (!blob) throw new Error(`artifact ${artifact.id}: the bytes of ${file.path} are missing`);
        return blob.body;
      },
    }));
    const mtimeS = Math.floor(Date.parse(artifact.createdAt) / 1000);
    return tarStream(entries, mtimeS).pipeThrough(new CompressionStream("gzip"));
  }

  private async find(tenantId: string, artifactId: string): Promise<Artifact | null> {
    const row = await this.db.query.artifacts.findFirst({
      where: and(eq(artifacts.tenantId, tenantId), eq(artifacts.id, artifactId)),
    });
    if (!row) return null;
    return {
      id: row.id,
      digest: row.digest,
      files: JSON.parse(row.files) as ManifestFile[],
      fileCount: row.fileCount,
      bytes: row.bytes,
      createdAt: row.createdAt,
    };
  }
}

/** The artifact as the contract and the API show it, with its URLs under `baseUrl`. */
export function artifactInfo(artifact: Artifact, baseUrl: string): ArtifactInfo {
  const url = `${baseUrl}/v1/artifacts/${artifact.id}`;
  return {
    id: artifact.id,
    digest: artifact.digest,
    files: artifact.files.map(({ path, size }) => ({ path, size })),
    bytes: artifact.bytes,
    createdAt: artifact.createdAt,
    url,
    downloadUrl: `${url}/download`,
  };
}
