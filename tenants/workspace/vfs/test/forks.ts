/** Test helpers for forks: workspace objects named as the gateway names them, and their trees read through RPC. */
import { env } from "cloudflare:workers";
import { workspaceLimits } from "../../limits.ts";

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
