/** `ws.snapshots` and the time machine's calls on a workspace (docs/vfs.md, "Versions"). */
import { createSnapshot, deleteSnapshot, getSnapshot, listSnapshots } from "../generated/sdk.gen.ts";
import type { Snapshot } from "../generated/types.gen.ts";
import type { Core, RequestOptions } from "./core.ts";
import { Pager } from "./pagination.ts";

/** A version: a snapshot id, a revision number, or `"live"`. */
export type VersionRef = string | number;

export class Snapshots {
  private readonly core: Core;
  private readonly workspaceId: string;
  /** @internal Made by the client; not constructed directly. */
  constructor(core: Core, workspaceId: string) {
    this.core = core;
    this.workspaceId = workspaceId;
  }

  /** Pins the workspace's current revision; no byte is copied. */
  async create(body: { name?: string; description?: string } = {}, options: RequestOptions = {}): Promise<Snapshot> {
    const { data } = await createSnapshot({
      ...this.core.options(options),
      path: { workspaceId: this.workspaceId },
      body,
    });
    return data as Snapshot;
  }

  list(options: RequestOptions & { limit?: number } = {}): Pager<Snapshot> {
    return new Pager(async (cursor) => {
      const { data } = await listSnapshots({
        ...this.core.options(options),
        path: { workspaceId: this.workspaceId },
        query: { limit: options.limit, cursor },
      });
      return { items: data.data, nextCursor: data.nextCursor };
    });
  }

  async get(snapshotId: string, options: RequestOptions = {}): Promise<Snapshot> {
    const { data } = await getSnapshot({
      ...this.core.options(options),
      path: { workspaceId: this.workspaceId, snapshotId },
    });
    return data as Snapshot;
  }

  async delete(snapshotId: string, options: RequestOptions = {}): Promise<void> {
    await deleteSnapshot({ ...this.core.options(options), path: { workspaceId: this.workspaceId, snapshotId } });
  }
}
