/** Helpers for tests of the object's side of container sync, in a real workspace object. */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { SyncBase } from "../../../../container/wire/index.ts";
import type { WorkspaceDO } from "../../WorkspaceDO.ts";
import { WorkspaceSyncTarget } from "../WorkspaceSyncTarget.ts";

/** Runs `fn` against a fresh workspace object's sync target. */
export function withTarget<T>(fn: (sync: WorkspaceSyncTarget, object: WorkspaceDO) => Promise<T>): Promise<T> {
  const stub = env.WORKSPACE.getByName(`test-${crypto.randomUUID()}`);
  return runInDurableObject(stub, (object: WorkspaceDO) => fn(new WorkspaceSyncTarget(object.vfs), object));
}

/** A file's text, or the failure's code. */
export async function text(object: WorkspaceDO, path: string): Promise<string> {
  const read = await object.vfs.readBytes(path);
  return read.ok ? new TextDecoder().decode(read.bytes) : read.code;
}

/** The base a container that last saw `path` as the object holds it now would send. */
export function baseOf(object: WorkspaceDO, path: string): SyncBase {
  const stat = object.vfs.lstat(path);
  if (!stat.ok) return null;
  if (stat.stat.type === "file") return { type: "file", etag: stat.stat.etag ?? "" };
  if (stat.stat.type === "symlink") return { type: "symlink", target: stat.stat.target ?? "" };
  return { type: "dir" };
}
