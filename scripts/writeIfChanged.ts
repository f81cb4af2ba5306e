/**
 * How the build scripts write what they make: only when the bytes differ from what is
 * there, and then whole (a temporary file renamed over the old one). wrangler's [build] step
 * runs on every `wrangler dev`, so two platforms starting side by side (CI's two pjdfstest
 * runs, e2e tests) build the same files at once; a file rewritten in place could be read
 * half-written by the other, and one left alone when unchanged is never read mid-write.
 */
import { randomUUID } from "node:crypto";
import { readFileSync, renameSync, writeFileSync } from "node:fs";

export function writeIfChanged(file: string, data: string | Uint8Array): void {
  const bytes = typeof data === "string" ? Buffer.from(data) : data;
  try {
    if (Buffer.compare(readFileSync(file), bytes) === 0) return;
  } catch {
    // Not there yet: written below.
  }
  const temporary = `${file}.${randomUUID()}.tmp`;
  writeFileSync(temporary, bytes);
  renameSync(temporary, file);
}
