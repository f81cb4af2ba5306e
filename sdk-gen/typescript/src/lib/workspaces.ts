/** `cubicle.workspaces` and the `Workspace` handle that `create` and `get` return. */
import {
  createShare,
  createWorkspace,
  deleteWorkspace,
  diffWorkspace,
  fileHistory,
  forkWorkspace,
  getWorkspace,
  listWorkspaces,
  publishArtifact,
  restoreWorkspace,
  updateWorkspace,
} from "../generated/sdk.gen.ts";
import type {
  CreateShareData,
  CreateWorkspaceData,
  Diff,
  FileHistory,
  ForkRequest,
  PublishArtifactData,
  RestoreResult,
  UpdateWorkspaceData,
  Workspace as WorkspaceData,
} from "../generated/types.gen.ts";
import type { Core, IdempotentOptions, RequestOptions } from "./core.ts";
import { type ExecFn, Execs, execFn } from "./exec.ts";
import { Files } from "./files.ts";
import { Pager } from "./pagination.ts";
import { Snapshots, type VersionRef } from "./versions.ts";

/** One workspace: its last-fetched fields, and its files and runs. */
export class Workspace {
  readonly files: Files;
  readonly exec: ExecFn;
  readonly execs: Execs;
  readonly snapshots: Snapshots;
  /** The workspace as the server last described it; `refresh()` fetches it again. */
  data: WorkspaceData;

  private readonly core: Core;
  /** @internal Made by the client; not constructed directly. */
  constructor(core: Core, data: WorkspaceData) {
    this.core = core;
    this.data = data;
    this.files = new Files(core, data.id);
    this.exec = execFn(core, data.id);
    this.execs = new Execs(core, data.id);
    this.snapshots = new Snapshots(core, data.id);
  }

  get id(): string {
    return this.data.id;
  }

  get name(): string | null {
    return this.data.name;
  }

  get metadata(): Record<string, string> {
    return this.data.metadata;
  }

  async refresh(options: RequestOptions = {}): Promise<this> {
    const { data } = await getWorkspace({ ...this.core.options(options), path: { workspaceId: this.id } });
    this.data = data as WorkspaceData;
    return this;
  }

  /** Renames or relabels; `metadata` replaces the whole map. */
  async update(body: UpdateWorkspaceData["body"], options: RequestOptions = {}): Promise<this> {
    const { data } = await updateWorkspace({ ...this.core.options(options), path: { workspaceId: this.id }, body });
    this.data = data as WorkspaceData;
    return this;
  }

  /** Deletes the workspace with its files and run records. */
  async delete(options: RequestOptions = {}): Promise<void> {
    await deleteWorkspace({ ...this.core.options(options), path: { workspaceId: this.id } });
  }

  /**
   * A new workspace whose files are this one's at a snapshot, a kept revision, or now (give
   * neither). No content is copied up front, and deleting this workspace never breaks the fork.
   */
  async fork(body: ForkRequest = {}, options: IdempotentOptions = {}): Promise<Workspace> {
    const { data } = await forkWorkspace({
      ...this.core.idempotent(options),
      path: { workspaceId: this.id },
      body,
    });
    return new Workspace(this.core, data as WorkspaceData);
  }

  /**
   * Makes the live tree equal to a snapshot's or a kept revision's, as a new revision (so it
   * can be undone); `restoredTo` names that version. A tree already equal makes no revision
   * (`changedPaths` 0).
   */
  async restore(
    to: { snapshotId: string } | { revision: number },
    options: RequestOptions = {},
  ): Promise<RestoreResult> {
    const { data } = await restoreWorkspace({
      ...this.core.options(options),
      path: { workspaceId: this.id },
      body: to,
    });
    return data as RestoreResult;
  }

  /**
   * What changed from one version to another (`to` defaults to live); `path` (a file or a
   * directory) keeps what is at or under it; `format: "patch"` adds a unified diff, refused
   * with PayloadTooLargeError past 8 MiB (narrow it with `path`).
   */
  async diff(
    from: VersionRef,
    options: RequestOptions & { to?: VersionRef; format?: "json" | "patch"; path?: string } = {},
  ): Promise<Diff> {
    const { data } = await diffWorkspace({
      ...this.core.options(options),
      path: { workspaceId: this.id },
      query: {
        from: String(from),
        to: String(options.to ?? "live"),
        format: options.format ?? "json",
        ...(options.path === undefined ? {} : { path: options.path }),
      },
    });
    return data as Diff;
  }

  /** Every kept version of what `path` has named, newest first; each one's `readAt` reads it back (`files.read(path, { at })`). */
  async history(path: string, options: RequestOptions = {}): Promise<FileHistory> {
    const { data } = await fileHistory({
      ...this.core.options(options),
      path: { workspaceId: this.id },
      query: { path },
    });
    return data as FileHistory;
  }

  /** Publishes files as an immutable artifact. */
  async publishArtifact(body: PublishArtifactData["body"], options: RequestOptions = {}) {
    const { data } = await publishArtifact({ ...this.core.options(options), path: { workspaceId: this.id }, body });
    return data;
  }

  /** A public link to one file. */
  async share(body: CreateShareData["body"], options: RequestOptions = {}) {
    const { data } = await createShare({ ...this.core.options(options), path: { workspaceId: this.id }, body });
    return data;
  }
}

export class Workspaces {
  private readonly core: Core;
  /** @internal Made by the client; not constructed directly. */
  constructor(core: Core) {
    this.core = core;
  }

  async create(body: CreateWorkspaceData["body"] = {}, options: IdempotentOptions = {}): Promise<Workspace> {
    const { data } = await createWorkspace({ ...this.core.idempotent(options), body });
    return new Workspace(this.core, data as WorkspaceData);
  }

  async get(workspaceId: string, options: RequestOptions = {}): Promise<Workspace> {
    const { data } = await getWorkspace({ ...this.core.options(options), path: { workspaceId } });
    return new Workspace(this.core, data as WorkspaceData);
  }

  /** A handle without a request, for a workspace whose id you already hold. */
  handle(data: WorkspaceData): Workspace {
    return new Workspace(this.core, data);
  }

  list(options: RequestOptions & { limit?: number } = {}): Pager<Workspace> {
    return new Pager(async (cursor) => {
      const { data } = await listWorkspaces({ ...this.core.options(options), query: { limit: options.limit, cursor } });
      return { items: data.data.map((item) => new Workspace(this.core, item)), nextCursor: data.nextCursor };
    });
  }

  async delete(workspaceId: string, options: RequestOptions = {}): Promise<void> {
    await deleteWorkspace({ ...this.core.options(options), path: { workspaceId } });
  }
}
