/**
 * Publishing from a workspace object: artifacts and share links of its files, for both the
 * gateway's routes and the tools capability of a run. The tenant and workspace are the
 * object's own (its name, `<tenantId>:<workspaceId>`, given by the gateway from a verified
 * credential), never a value a caller or a sandbox passes in; paths are read through the
 * caller's path prefix, like every other file operation.
 */
import { ApiKeys } from "../account/apiKeys.ts";
import { SigningKeys } from "../account/signingKeys.ts";
import { type Artifact, Artifacts } from "../artifacts/artifacts.ts";
import { publish } from "../artifacts/publish.ts";
import { database } from "../db.ts";
import { type NewShare, type Share, Shares } from "../shares/shares.ts";
import type { WorkspaceOwner } from "./names.ts";
import type { VfsOps } from "./vfs/ConfinedVfs.ts";
import { type FsResult, fail } from "./vfs/errors.ts";
import type { Vfs } from "./vfs/Vfs.ts";

export type ShareRequest = Pick<NewShare, "ttlSeconds" | "keyId" | "notAfter">;

export class WorkspacePublishing {
  private readonly artifacts: Artifacts;
  private readonly shares: Shares;

  constructor(
    env: Pick<Env, "DB" | "ARTIFACTS">,
    private readonly vfs: Vfs,
    private readonly owner: WorkspaceOwner,
    private readonly fs: (prefix: string | null) => VfsOps,
  ) {
    const db = database(env.DB);
    this.artifacts = new Artifacts(db, env.ARTIFACTS);
    this.shares = new Shares(db, new SigningKeys(db), new ApiKeys(db));
  }

  /** Publishes a file or directory (as the caller confined to `prefix` sees it) as an artifact. */
  publish(path: string, prefix: string | null): Promise<FsResult<{ artifact: Artifact; created: boolean }>> {
    return publish(this.fs(prefix), (fn) => this.vfs.exclusive(fn), this.artifacts, { ...this.owner, path });
  }

  /** A link to one file the caller can read; the file may change or go, the link serves what is there. */
  async share(
    path: string,
    request: ShareRequest,
    prefix: string | null,
  ): Promise<FsResult<{ share: Share; token: string }>> {
    const stat = this.fs(prefix).stat(path);
    if (!stat.ok) return stat;
    if (stat.stat.type !== "file") return fail("EISDIR", `${path} is a directory; share a file, or publish it`, path);
    const made = await this.shares.create(this.owner.tenantId, {
      ...request,
      workspaceId: this.owner.workspaceId,
      path,
      pathPrefix: prefix,
    });
    return { ok: true, ...made };
  }
}
