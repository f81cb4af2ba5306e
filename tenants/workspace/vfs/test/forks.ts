/** Test helpers for forks: workspace objects named as the gateway names them, and their trees read through RPC. */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { workspaceLimits } from "../../limits.ts";
import type { WorkspaceDO } from "../../WorkspaceDO.ts";
import type { ForkPage } from "../forks/export.ts";

/** A workspace object's name in tenant `tenant` (forks are only made between such names). */
export const objectName = (tenant = "tfork") => `${tenant}:ws-${crypto.randomUUID()}`;
export const stubOf = (name: string) => env.WORKSPACE.getByName(name);

/** Everything a user can see of a tree, through the object's RPC methods as the gateway calls them. */
export async function treeOf(name: string): Promise<Record<string, unknown>> {
  const stub = stubOf(name);
  const listed = await stub.list("/", { recursive: true, limit: workspaceLimits.listPageMax });
  if (!listed.ok) throw new Error(`list failed: ${listed.code}`);
  const out: Record<string, unknown> = {};
  for (const entry of listed.entries) {
    const read = entry.type === "file" ? await stub.readFile(entry.path) : null;
    if (read && !read.ok) throw new Error(`read ${entry.path} failed: ${read.code}`);
    out[entry.path] = {
      type: entry.type,
      mode: entry.mode,
      uid: entry.uid,
      gid: entry.gid,
      mtimeNs: entry.mtimeNs,
      nlink: entry.nlink,
      ino: entry.ino,
      etag: entry.etag,
      target: entry.target,
      content: read ? new TextDecoder().decode(await new Response(read.body).arrayBuffer()) : undefined,
    };
  }
  return out;
}

/**
 * Forks `source` into `fork` and takes the alarm away, so the import runs only when
 * something needs the fork's own rows (or `importCalls` drives it): the tests then see the
 * fork while its rows are still on their way, as a user can for a large tree.
 */
export async function forkHeld(fork: string, source: string, ref = "live") {
  return runInDurableObject(stubOf(fork), async (instance: WorkspaceDO, state) => {
    const made = await instance.forkFrom(source, ref);
    await state.storage.deleteAlarm();
    return made;
  });
}

/** Lands `calls` calls of the fork's import, each one row (one byte of budget), as the import would. */
export async function importCalls(fork: string, source: string, calls: number): Promise<void> {
  await runInDurableObject(stubOf(fork), async (instance: WorkspaceDO) => {
    for (let i = 0; i < calls && instance.vfs.isImporting(); i++) {
      const answer = await stubOf(source).exportFork(fork, instance.vfs.importCursor(), 1);
      if (!answer.ok) throw new Error(`export failed: ${answer.message}`);
      instance.vfs.importCall(answer.pages as ForkPage[], answer.next === null);
    }
  });
}

export function isImporting(name: string): Promise<boolean> {
  return runInDurableObject(stubOf(name), (instance: WorkspaceDO) => instance.vfs.isImporting());
}
