/**
 * The publishing capability handed to an executor's sandbox for one run, beside its file
 * capability: `publish` and `share` over this workspace, as the contract's WorkspaceToolsApi
 * says. Everything that decides what a call may do is fixed here by the workspace object
 * when the run starts — the tenant and workspace (the object's own), the run's path prefix,
 * the API key and expiry of the credential that started it, the public base URL for the
 * links — so the sandbox can name a path and a lifetime and nothing else.
 */
import { RpcTarget } from "cloudflare:workers";
import type { ArtifactInfo, FsError, ShareInfo, WorkspaceToolsApi } from "../../../executors/contract.ts";
import { artifactInfo } from "../../artifacts/artifacts.ts";
import { shareLimits } from "../../shares/limits.ts";
import { normalizePath } from "../paths.ts";
import type { WorkspacePublishing } from "../publishing.ts";
import type { FsFailure } from "../vfs/errors.ts";

export interface ToolsGrant {
  /** The run's path prefix, or null for the whole workspace. */
  pathPrefix: string | null;
  /** The request's public origin (`https://api.example.com`), for the URLs handed back. */
  baseUrl: string;
  /** The API key behind the run's credential; a share link dies with it. Null: no links. */
  keyId: string | null;
  /** When the run's credential expires (RFC 3339), or null; links expire no later. */
  credentialExpiresAt: string | null;
}

const error = (failure: FsFailure): FsError => ({ ok: false, code: failure.code, message: failure.message });

export class WorkspaceToolsTarget extends RpcTarget implements WorkspaceToolsApi {
  constructor(
    private readonly publishing: WorkspacePublishing,
    private readonly grant: ToolsGrant,
  ) {
    super();
  }

  async publish(path: string): Promise<{ ok: true; artifact: ArtifactInfo } | FsError> {
    const normalized = normalizePath(path);
    if (!normalized.ok) return { ok: false, code: normalized.code, message: normalized.detail };
    const published = await this.publishing.publish(normalized.path, this.grant.pathPrefix);
    if (!published.ok) return error(published);
    return { ok: true, artifact: artifactInfo(published.artifact, this.grant.baseUrl) };
  }

  async share(path: string, ttlSeconds: number): Promise<{ ok: true; share: ShareInfo } | FsError> {
    const normalized = normalizePath(path);
    if (!normalized.ok) return { ok: false, code: normalized.code, message: normalized.detail };
    const { ttlSecondsMin, ttlSecondsMax } = shareLimits;
    if (!Number.isInteger(ttlSeconds) || ttlSeconds < ttlSecondsMin || ttlSeconds > ttlSecondsMax) {
      return { ok: false, code: "EINVAL", message: `ttl must be ${ttlSecondsMin}…${ttlSecondsMax} seconds` };
    }
    const { keyId, credentialExpiresAt, pathPrefix, baseUrl } = this.grant;
    if (keyId === null) return { ok: false, code: "EACCES", message: "this run has no API key to tie a link to" };
    const made = await this.publishing.share(
      normalized.path,
      { ttlSeconds, keyId, notAfter: credentialExpiresAt },
      pathPrefix,
    );
    if (!made.ok) return error(made);
    const { id, path: sharedPath, expiresAt } = made.share;
    return { ok: true, share: { id, path: sharedPath, url: `${baseUrl}/s/${made.token}`, expiresAt } };
  }
}
