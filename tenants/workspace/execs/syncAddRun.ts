/**
 * The fast way for the usual bulk of a push, a command's new files and directories: ops that
 * only add are gathered while they follow one another (AddRun) and written together, one
 * statement per table (addRun, via Store.addNew), each op still with a revision of its own
 * and the answer it would have had alone. ./syncApply.ts decides which ops go this way.
 */
import type { ApplyResult, RemoteEntry, SyncBase, SyncOp } from "../../../container/wire/index.ts";
import { workspaceLimits } from "../limits.ts";
import { normalizePath } from "../paths.ts";
import type { ChunkRef } from "../vfs/content.ts";
import { ID_MAX } from "../vfs/ops/setattr.ts";
import { DEFAULT_OWNER } from "../vfs/schema.ts";
import { DEFAULT_FILE_MODE, type NewEntry, type Store } from "../vfs/store.ts";
import { isPreciseTime, type PreciseTime } from "../vfs/times.ts";
import { attrsOf } from "./syncAttrs.ts";
import { rememberPushedMany } from "./syncPushed.ts";
import type { Content, Prepared } from "./syncState.ts";

/** One op of a run of adds: where it goes, and what it makes there. */
export interface Adding {
  index: number;
  entry: NewEntry;
  want: NonNullable<SyncBase>;
  /** A file's chunks' bytes, stored with it. */
  blobs: readonly Uint8Array[];
}

/**
 * Gathers ops that only add: a `write` of content given inline or a `mkdir`, each on the base
 * "nothing here" where the object has nothing either (the verdict is then "apply", and the
 * op is a create), under a directory the object has, reached without a symlink, or one an
 * earlier op of the run makes; within the workspace's limits. What the run leaves out (any
 * other op, a path the run already has, a limit it would reach) goes the usual way, alone.
 */
export class AddRun {
  private adding: Adding[] = [];
  /** The run's paths, with each one's index in `adding`. */
  private readonly paths = new Map<string, number>();
  /** Entries the run adds to each directory the object has. */
  private readonly added = new Map<number, number>();
  private bytes = 0;

  constructor(private readonly store: Store) {}

  add(op: SyncOp, index: number, prepared: Prepared): boolean {
    if (op.base !== null || (op.op !== "write" && op.op !== "mkdir")) return false;
    let content: Content | null = null;
    if (op.op === "write") {
      if (prepared?.ok !== true || prepared.blobs === null) return false;
      content = prepared;
    }
    const norm = normalizePath(op.path);
    if (!norm.ok || norm.path === "/" || this.paths.has(norm.path)) return false;
    const path = norm.path;
    const attrs = attrsOf(op);
    const mode = op.op === "mkdir" ? op.mode : (op.mode ?? DEFAULT_FILE_MODE);
    if (!validAttrs({ ...attrs, mode })) return false;
    if (path.split("/").length - 1 > workspaceLimits.depthMax) return false;
    const { store } = this;
    const cut = path.lastIndexOf("/");
    const dirPath = path.slice(0, cut) || "/";
    const name = path.slice(cut + 1);
    let parent: NewEntry["parent"];
    const madeHere = this.paths.get(dirPath);
    if (madeHere !== undefined) {
      if (this.adding[madeHere]?.entry.type !== "dir") return false;
      parent = { made: madeHere };
    } else {
      const dir = store.resolve(dirPath, true);
      if (!dir.ok || dir.inode.type !== "dir" || dir.path !== dirPath) return false;
      if (store.lookup(dir.ino, name) !== null) return false;
      const added = this.added.get(dir.ino) ?? 0;
      if (dir.inode.entries + added + 1 > workspaceLimits.entriesPerDirectoryMax) return false;
      this.added.set(dir.ino, added + 1);
      parent = dir.ino;
    }
    const size = content?.size ?? 0;
    if (store.meta("inode_count") + this.adding.length + 1 > workspaceLimits.inodesMax) return false;
    if (store.meta("size_bytes") + this.bytes + size > workspaceLimits.workspaceBytesMax) return false;
    this.bytes += size;
    this.paths.set(path, this.adding.length);
    this.adding.push({
      index,
      entry: {
        parent,
        name,
        path,
        type: op.op === "mkdir" ? "dir" : "file",
        mode,
        uid: attrs.uid ?? DEFAULT_OWNER.uid,
        gid: attrs.gid ?? DEFAULT_OWNER.gid,
        mtime: attrs.mtime === "now" ? undefined : attrs.mtime,
        size,
        etag: content?.etag ?? null,
        chunks: content?.chunks ?? [],
      },
      want: content ? { type: "file", etag: content.etag } : { type: "dir" },
      blobs: content?.blobs ?? [],
    });
    return true;
  }

  /** The run gathered so far, which starts again empty. */
  take(): Adding[] {
    const adding = this.adding;
    this.adding = [];
    this.paths.clear();
    this.added.clear();
    this.bytes = 0;
    return adding;
  }
}

/** What setattr would accept: the slow way refuses the rest, alone. */
function validAttrs(attrs: { mode: number; uid?: number | undefined; gid?: number | undefined; mtime?: unknown }) {
  const id = (n: number | undefined) => n === undefined || (Number.isInteger(n) && n >= 0 && n <= ID_MAX);
  const time = attrs.mtime;
  return (
    Number.isInteger(attrs.mode) &&
    attrs.mode >= 0 &&
    attrs.mode <= 0o7777 &&
    id(attrs.uid) &&
    id(attrs.gid) &&
    (time === undefined || time === "now" || isPreciseTime(time as PreciseTime))
  );
}

/**
 * Writes a run of adds in one savepoint, a statement per table (Store.addNew): each op
 * still has a revision of its own and the answer it would have had alone. Should the
 * savepoint fail anyway, each op is applied alone (`one`), and fails or lands as it would.
 */
export function addRun(
  store: Store,
  adding: readonly Adding[],
  result: ApplyResult,
  entryAt: (path: string) => RemoteEntry | null,
  one: (index: number) => void,
): void {
  const made = store.atomically(() => {
    store.putBlobs(
      adding.flatMap(({ entry, blobs }) =>
        blobs.map((data, i) => ({ hash: (entry.chunks[i] as ChunkRef).hash, data })),
      ),
    );
    const made = store.addNew(adding.map((a) => a.entry));
    rememberPushedMany(
      store,
      adding.map(({ entry, want }, i) => ({ path: entry.path, base: null, state: want, rev: made[i]?.rev ?? 0 })),
    );
    return { ok: true as const, made };
  });
  if (!made.ok) {
    for (const { index } of adding) one(index);
    return;
  }
  adding.forEach(({ entry }, i) => {
    const rev = made.made[i]?.rev ?? 0;
    result.revs.push(rev);
    result.revsFrom?.push(rev - 1);
    result.entries.push(entryAt(entry.path));
  });
}
