/**
 * Publishing a workspace path as an artifact, inside the workspace object: collect the
 * files, hash them, derive the digest and id, copy new contents to R2, record the artifact.
 *
 * All of it runs under the workspace's mutation lock, so the files cannot change between
 * being hashed and being copied: the artifact is one consistent snapshot, and a blob is
 * always stored under its own hash (R2 checks that too, given the hash with each put).
 * Reads under a path prefix go through the confined view, so a confined caller publishes
 * only what it could read.
 *
 * What an artifact holds: regular files, and the files symlinks point at (as `tar -h`
 * would); links to directories and dangling links are left out, and so are empty
 * directories, which have no bytes to address.
 */

import { hex } from "../hash.ts";
import type { VfsOps } from "../workspace/vfs/ConfinedVfs.ts";
import { type FsFailure, type FsResult, fail } from "../workspace/vfs/errors.ts";
import type { Artifact, Artifacts } from "./artifacts.ts";
import { artifactLimits } from "./limits.ts";
import { artifactId, type ManifestFile, manifestDigest, sortFiles } from "./manifest.ts";

export interface PublishRequest {
  tenantId: string;
  workspaceId: string;
  /** The normalized workspace path to publish: a file or a directory. */
  path: string;
}

interface Found {
  /** Where the bytes are read from (a link's own path; reading follows it). */
  source: string;
  /** Relative to the published root. */
  path: string;
  size: number;
}

export async function publish(
  fs: VfsOps,
  exclusive: <T>(fn: () => Promise<T>) => Promise<T>,
  artifacts: Artifacts,
  request: PublishRequest,
): Promise<FsResult<{ artifact: Artifact; created: boolean }>> {
  return exclusive(async () => {
    const found = collect(fs, request.path);
    if (!found.ok) return found;
    const files: (ManifestFile & { source: string })[] = [];
    for (const file of found.files) {
      const sha256 = await hashFile(fs, file.source);
      if (typeof sha256 !== "string") return sha256;
      files.push({ path: file.path, size: file.size, sha256, source: file.source });
    }
    const manifest = sortFiles(files).map(({ path, size, sha256 }) => ({ path, size, sha256 }));
    if (JSON.stringify(manifest).length > artifactLimits.manifestBytesMax) {
      return fail("EFBIG", `the file list is longer than ${artifactLimits.manifestBytesMax} bytes`, request.path);
    }
    const digest = await manifestDigest(manifest);
    const id = await artifactId(request.tenantId, digest);
    const source = { workspaceId: request.workspaceId, path: request.path };
    const existing = await artifacts.addSource(request.tenantId, id, source);
    if (existing) return { ok: true, artifact: existing, created: false };
    const copied = await copyBlobs(fs, artifacts, request.tenantId, files);
    if (copied) return copied;
    const bytes = manifest.reduce((n, f) => n + f.size, 0);
    const artifact = await artifacts.record(
      request.tenantId,
      { id, digest, files: manifest, fileCount: manifest.length, bytes },
      source,
    );
    return { ok: true, artifact, created: true };
  });
}

/** The files under `path` (or `path` itself), within the limits. */
function collect(fs: VfsOps, path: string): FsResult<{ files: Found[] }> {
  const root = fs.stat(path);
  if (!root.ok) return root;
  if (root.stat.type === "file") {
    return { ok: true, files: [{ source: path, path: path.slice(path.lastIndexOf("/") + 1), size: root.stat.size }] };
  }
  const base = path === "/" ? 1 : path.length + 1;
  const files: Found[] = [];
  for (const type of ["file", "symlink"] as const) {
    const listed = fs.find(path, { type, limit: artifactLimits.filesMax + 1 });
    if (!listed.ok) return listed;
    for (const entry of listed.entries) {
      const target = type === "file" ? entry : linkTarget(fs, entry.path);
      if (target === null) continue;
      if ("ok" in target) return target;
      files.push({ source: entry.path, path: entry.path.slice(base), size: target.size });
    }
    if (listed.truncated || files.length > artifactLimits.filesMax) {
      return fail("EFBIG", `${path} holds more than ${artifactLimits.filesMax} files`, path);
    }
  }
  const bytes = files.reduce((n, f) => n + f.size, 0);
  if (bytes > artifactLimits.bytesMax) {
    return fail("EFBIG", `${path} holds ${bytes} bytes, more than ${artifactLimits.bytesMax}`, path);
  }
  return { ok: true, files };
}

/** What a link in the tree points at: a file's stat, null to leave it out, or why it may not be read. */
function linkTarget(fs: VfsOps, path: string): { size: number } | FsFailure | null {
  const followed = fs.stat(path);
  if (followed.ok) return followed.stat.type === "file" ? followed.stat : null;
  // A link out of the caller's prefix fails the publication rather than quietly shrinking it.
  return followed.code === "EACCES" ? followed : null;
}

async function hashFile(fs: VfsOps, path: string): Promise<string | FsFailure> {
  const read = fs.read(path);
  if (!read.ok) return read;
  const digest = new crypto.DigestStream("SHA-256");
  await read.body.pipeTo(digest);
  return hex(new Uint8Array(await digest.digest));
}

/** Copies each content R2 does not hold yet, once however many files share it. */
async function copyBlobs(
  fs: VfsOps,
  artifacts: Artifacts,
  tenantId: string,
  files: readonly (ManifestFile & { source: string })[],
): Promise<FsFailure | null> {
  const seen = new Set<string>();
  for (const file of files) {
    if (seen.has(file.sha256)) continue;
    seen.add(file.sha256);
    if (await artifacts.hasBlob(tenantId, file.sha256)) continue;
    const read = fs.read(file.source);
    if (!read.ok) return read;
    await artifacts.putBlob(tenantId, file.sha256, file.size, read.body);
  }
  return null;
}
