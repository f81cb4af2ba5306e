/**
 * Restore: a new revision whose tree equals revision R's. Only what changed after R is
 * touched (the row versions born or ended since, found as a diff finds them), each set
 * back to its version at R, so the cost follows the changes, not the workspace. The old
 * versions are retired like any change's, so a restore is itself undone by restoring the
 * revision before it. One transaction: the tree is the old one or the new one, never a mix.
 * The change log names every path that differs, so container sync pulls them: the diff's
 * files, and directories whose own mode, owner or times differ (a diff lists files only).
 */
import type { FsResult } from "../errors.ts";
import type { Store } from "../store.ts";
import { RevisionTree } from "./at.ts";
import { changedRows, diff, differs } from "./diff.ts";

export function restore(store: Store, rev: number): FsResult<{ revision: number; changedPaths: number }> {
  return store.atomically(() => {
    const live = store.meta("revision");
    const differences = diff(store, rev, live, Number.POSITIVE_INFINITY);
    const paths = new Set<string>();
    for (const entry of differences.entries) {
      paths.add(entry.path);
      if (entry.previousPath) paths.add(entry.previousPath);
    }
    const changed = changedRows(store, rev, live);
    const [then, now] = [new RevisionTree(store.sql, rev), new RevisionTree(store.sql, live)];
    for (const { ino } of changed.inodes) {
      const [was, is] = [then.inode(ino), now.inode(ino)];
      if (was?.type !== "dir" || is?.type !== "dir" || !differs(was, is)) continue;
      const dir = now.dirPath(ino);
      if (dir) paths.add(dir);
    }
    store.restoreRows(
      rev,
      changed.inodes.map((row) => row.ino),
      changed.entries,
    );
    const revision = store.recordChange("restore", [...paths].sort());
    return { ok: true as const, revision, changedPaths: paths.size };
  });
}
