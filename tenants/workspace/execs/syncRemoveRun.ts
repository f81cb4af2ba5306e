/**
 * The fast way for a command's removals (`rm -rf`, a package manager's clean-up), the
 * counterpart of ./syncAddRun.ts: `remove` ops that the rule lets land are gathered while
 * they follow one another (RemoveRun) and written together (removeRun, via
 * Store.removeNames), each op still with a revision of its own and the answer it would have
 * had alone. ./syncApply.ts decides which ops go this way.
 */
import { sameState, syncVerdict } from "../../../container/wire/conflict.ts";
import type { ApplyResult, SyncBase, SyncOp } from "../../../container/wire/index.ts";
import { normalizePath } from "../paths.ts";
import type { Removal } from "../vfs/store/removeNames.ts";
import type { Store } from "../vfs/store.ts";
import { pushedOnBase, rememberPushedMany } from "./syncPushed.ts";
import { shadowingAncestor, stateOf } from "./syncState.ts";

/** One op of a run of removals: its index in the batch, the name it removes, and the base it carried. */
export interface Removing {
  index: number;
  removal: Removal;
  base: SyncBase;
}

/**
 * Gathers `remove` ops whose verdict is "apply" (the object still holds the op's base there),
 * of a file or link with this one name, or of a directory that is empty once the run's
 * earlier removals are done, reached without a link. What the run leaves out (any other op,
 * a hard-linked file, a path already in the run, a verdict other than "apply") goes the
 * usual way, alone, after the run is written.
 */
export class RemoveRun {
  private removing: Removing[] = [];
  private readonly paths = new Set<string>();
  /** Entries the run removes from each directory. */
  private readonly taken = new Map<number, number>();

  constructor(private readonly store: Store) {}

  add(op: SyncOp, index: number): boolean {
    if (op.op !== "remove" || !op.base) return false;
    const norm = normalizePath(op.path);
    if (!norm.ok || norm.path === "/" || this.paths.has(norm.path)) return false;
    const path = norm.path;
    const { store } = this;
    if (shadowingAncestor(store, path)) return false;
    const target = store.resolve(path, false);
    if (!target.ok || target.path !== path || target.parent === 0) return false;
    const { inode } = target;
    if (inode.type !== "dir" && inode.nlink > 1) return false;
    const empty = inode.type !== "dir" || inode.entries - (this.taken.get(target.ino) ?? 0) === 0;
    // The verdict as applyOne reaches it, with the run's earlier removals counted as done.
    const current = stateOf(inode);
    const pushed = pushedOnBase(store, path, op.base);
    const base = pushed !== undefined && sameState(current, pushed) ? current : op.base;
    if (syncVerdict(base, current, null, empty) !== "apply") return false;
    this.paths.add(path);
    this.taken.set(target.parent, (this.taken.get(target.parent) ?? 0) + 1);
    this.removing.push({
      index,
      removal: { parent: target.parent, name: target.name, path, inode },
      base: op.base,
    });
    return true;
  }

  /** The run gathered so far, which starts again empty. */
  take(): Removing[] {
    const removing = this.removing;
    this.removing = [];
    this.paths.clear();
    this.taken.clear();
    return removing;
  }
}

/**
 * Writes a run of removals in one savepoint (Store.removeNames): each op still has a
 * revision of its own and the answer it would have had alone. Should the savepoint fail
 * anyway, each op is applied alone (`one`), and fails or lands as it would.
 */
export function removeRun(
  store: Store,
  removing: readonly Removing[],
  result: ApplyResult,
  one: (index: number) => void,
): void {
  const done = store.atomically(() => {
    const revs = store.removeNames(removing.map((r) => r.removal));
    rememberPushedMany(
      store,
      removing.map(({ removal, base }, i) => ({ path: removal.path, base, state: null, rev: revs[i] ?? 0 })),
    );
    return { ok: true as const, revs };
  });
  if (!done.ok) {
    for (const { index } of removing) one(index);
    return;
  }
  removing.forEach((_, i) => {
    const rev = done.revs[i] ?? 0;
    result.revs.push(rev);
    result.revsFrom?.push(rev - 1);
    // The name is gone, reached without a link: nothing is there now.
    result.entries.push(null);
  });
}
