/**
 * Restore: a new revision whose tree equals revision R's. Only what changed after R is
 * touched (the row versions born or ended since, found as a diff finds them), each set
 * back to its version at R, so the cost follows the changes, not the workspace. The old
 * versions are retired like any change's, so a restore is itself undone by restoring the
 * revision before it. One transaction: the tree is the old one or the new one, never a mix.
 * The change log names every path that differs, so container sync pulls them: the diff's
 * files, and directories whose own mode, owner or times differ (a diff lists files only);
 * and the version it went back to. A tree already equal to the version makes no revision.
 */
import type { FsResult } from "../errors.ts";
import type { Store } from "../store.ts";
import { RevisionTree } from "./at.ts";
import { changedRows, diff, differs } from "./diff.ts";

/** The version a restore made the tree equal to: a revision, and the snapshot it was named by, if any. */
export interface RestoredTo {
  revision: number;
  snapshotId: string | null;
}

export interface Restored {
  /** The revision the restore made, or the live one when the tree was already equal (no new revision). */
  revision: number;
  changedPaths: number;
  restoredTo: RestoredTo;
}

export function restore(store: Store, to: RestoredTo): FsResult<Restored> {
  return store.atomically(() => {
    const live = store.meta("revision");
    // One pair of trees and one set of changed rows for the diff and the row moves alike.
    const changed = changedRows(store, to.revision, live);
    const [then, now] = [new RevisionTree(store.sql, to.revision), new RevisionTree(store.sql, live)];
    const differences = diff(store, to.revision, live, Number.POSITIVE_INFINITY, null, {
      before: then,
      after: now,
      changed,
    });
    const paths = new Set<string>();
    for (const entry of differences.entries) {
      paths.add(entry.path);
      if (entry.previousPath) paths.add(entry.previousPath);
    }
    for (const { ino } of changed.inodes) {
      const [was, is] = [then.inode(ino), now.inode(ino)];
      if (was?.type !== "dir" || is?.type !== "dir" || !differs(was, is)) continue;
      const dir = now.dirPath(ino);
      if (dir) paths.add(dir);
    }
    // Already equal: a new revision would change nothing a user can see and only push the
    // one a client means to undo to further back.
    if (paths.size === 0) return { ok: true as const, revision: live, changedPaths: 0, restoredTo: to };
    store.restoreRows(
      to.revision,
      changed.inodes.map((row) => row.ino),
      changed.entries,
    );
    const revision = store.recordChange("restore", [...paths].sort(), {
      restoredTo: to.snapshotId ?? String(to.revision),
    });
    return { ok: true as const, revision, changedPaths: paths.size, restoredTo: to };
  });
}
