/**
 * The canonical manifest of an artifact, and the digest and id derived from it.
 *
 * The manifest is text: a version line, then one line per file, `<sha256 hex> <size> <path>`,
 * sorted by the paths' UTF-8 bytes (what `LC_ALL=C sort` does), each ending in `\n`. Paths
 * are relative to what was published and cannot hold a newline (workspace paths refuse
 * control bytes), so the text is unambiguous. The digest is SHA-256 of that text, so two
 * publications are the same artifact exactly when they hold the same paths with the same
 * bytes — timestamps, modes and the order files were found in do not count.
 *
 * The id mixes the tenant into the digest: the same content published by two tenants is
 * two artifacts with unrelated ids, so an id says nothing across tenants.
 */
import { hex } from "../hash.ts";
import { base32 } from "../ids.ts";

export const MANIFEST_VERSION = "cubicle-artifact-v1";

export interface ManifestFile {
  /** Relative to the published root, `/`-separated, no leading slash (`assets/app.js`). */
  path: string;
  size: number;
  /** Lowercase hex SHA-256 of the file's bytes. */
  sha256: string;
}

const encoder = new TextEncoder();

/** Orders paths by their UTF-8 bytes, which JavaScript's UTF-16 comparison does not always do. */
export function compareUtf8(a: string, b: string): number {
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) {
    if (x[i] !== y[i]) return (x[i] as number) - (y[i] as number);
  }
  return x.length - y.length;
}

export function sortFiles(files: readonly ManifestFile[]): ManifestFile[] {
  return [...files].sort((a, b) => compareUtf8(a.path, b.path));
}

export function canonicalManifest(files: readonly ManifestFile[]): string {
  const lines = sortFiles(files).map((f) => `${f.sha256} ${f.size} ${f.path}\n`);
  return `${MANIFEST_VERSION}\n${lines.join("")}`;
}

/** `sha256:<hex>` of the canonical manifest. */
export async function manifestDigest(files: readonly ManifestFile[]): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", encoder.encode(canonicalManifest(files)));
  return `sha256:${hex(new Uint8Array(digest))}`;
}

/** `art_` + 128 bits of SHA-256 over the tenant and the digest, in the ids' base32. */
export async function artifactId(tenantId: string, digest: string): Promise<string> {
  const hash = await crypto.subtle.digest("SHA-256", encoder.encode(`${tenantId}\n${digest}`));
  return `art_${base32(new Uint8Array(hash).subarray(0, 16))}`;
}
