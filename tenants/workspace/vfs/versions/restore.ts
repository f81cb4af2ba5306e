/**
 * Restore: a new revision whose tree equals revision R's. Only what changed after R is
 * touched (the row versions born or ended since, found as a diff finds them), each set
 * back to its version at R, so the cost follows the changes, not the workspace. The old
 * versions are retired like any change's, so a restore is itself undone by restoring the
 * revision before it. One transaction: the tree is the old one or the new one, never a mix.
 * The change log names every path that differs, so container sync pulls them.
 */
import type { FsResult } from "../errors.ts";
import type { Store } from "../store.ts";
import { changedRows, diff } from "./diff.ts";

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
    store.restoreRows(
      rev,
      changed.inodes.map((row) => row.ino),
      changed.entries,
    );
    const revision = store.recordChange("restore", [...paths].sort());
    return { ok: true as const, revision, changedPaths: paths.size };
  });
}
