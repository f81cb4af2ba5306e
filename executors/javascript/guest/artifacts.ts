/**
 * `ws:artifacts`: publishing from module code through the run's WorkspaceToolsApi
 * capability. Paths are Node paths (relative to `process.cwd()`, or under /workspace);
 * failures reject with Node-style errors (`err.code`), as node:fs/promises does.
 *
 * ```js
 * import { publish, share } from "ws:artifacts";
 * const artifact = await publish("dist");                 // { id, digest, files, bytes, url, downloadUrl, … }
 * const link = await share("report.html", { ttlSeconds: 600 }); // { id, path, url, expiresAt }
 * ```
 */
import type { ArtifactInfo, ShareInfo, WorkspaceToolsApi } from "../../contract.ts";
import { fromFailure, nodeFsError } from "./nodeErrors.ts";
import { absolutePath, type PathLike, pathString, workspacePath } from "./paths.ts";

/** A share link's lifetime when the call names none: an hour, as the shell's `share` command. */
const shareTtlSecondsDefault = 3600;

export interface Artifacts {
  publish(path: PathLike): Promise<ArtifactInfo>;
  share(path: PathLike, options?: { ttlSeconds?: number }): Promise<ShareInfo>;
}

export function createArtifacts(tools: WorkspaceToolsApi | undefined, cwd: () => string): Artifacts {
  const locate = (path: PathLike, syscall: string) => {
    const shown = pathString(path);
    const at = workspacePath(absolutePath(cwd(), shown));
    if (at === null) throw nodeFsError("ENOENT", syscall, shown);
    if (!tools) throw new Error(`ws:artifacts: ${syscall} is not available in this deployment`);
    return { shown, at, tools };
  };
  return {
    async publish(path) {
      const { shown, at, tools: api } = locate(path, "publish");
      const result = await api.publish(at);
      if (!result.ok) throw fromFailure(result, "publish", shown);
      return result.artifact;
    },
    async share(path, options = {}) {
      const { shown, at, tools: api } = locate(path, "share");
      const result = await api.share(at, options.ttlSeconds ?? shareTtlSecondsDefault);
      if (!result.ok) throw fromFailure(result, "share", shown);
      return result.share;
    },
  };
}
