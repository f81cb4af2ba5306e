/**
 * Per-path status from isomorphic-git's `statusMatrix`, in git's own two columns: what the
 * index holds against HEAD (what `commit` would record) and what the working tree holds
 * against the index (what `add` would stage).
 *
 * A matrix row is `[path, head, workdir, stage]`, each a number saying which of the three
 * blob ids it equals: 0 absent, 1 equal to HEAD's, 2 equal to the working tree's (for
 * `workdir`: differs from HEAD), 3 equal to neither. Unmodified paths are left out.
 */

/** How the index differs from HEAD for one path; null when it does not. */
export type GitStagedChange = "new" | "modified" | "deleted";
/** How the working tree differs from the index for one path; null when it does not. */
export type GitUnstagedChange = "modified" | "deleted" | "untracked";

export interface GitStatusEntry {
  /** Repository-relative, `/`-separated (`src/a.ts`). */
  path: string;
  staged: GitStagedChange | null;
  unstaged: GitUnstagedChange | null;
  /** git's short-format code: `A `, ` M`, `MM`, `D `, `??`, … */
  code: string;
}

type Row = [string, number, number, number];

const letters: Record<string, string> = { new: "A", modified: "M", deleted: "D", untracked: "?" };

function stagedChange(head: number, stage: number): GitStagedChange | null {
  if (head === 0) return stage === 0 ? null : "new";
  if (stage === 0) return "deleted";
  return stage === 1 ? null : "modified";
}

function unstagedChange(workdir: number, stage: number): GitUnstagedChange | null {
  if (stage === 0) return workdir === 0 ? null : "untracked";
  if (workdir === 0) return "deleted";
  // The working tree equals the index when both equal HEAD (1, 1) or both are the new content (2, 2).
  const same = (stage === 1 && workdir === 1) || (stage === 2 && workdir === 2);
  return same ? null : "modified";
}

/** The changed paths of a status matrix, in path order. */
export function statusEntries(matrix: Row[]): GitStatusEntry[] {
  const entries: GitStatusEntry[] = [];
  for (const [path, head, workdir, stage] of matrix) {
    const staged = stagedChange(head, stage);
    const unstaged = unstagedChange(workdir, stage);
    if (!staged && !unstaged) continue;
    // A path removed from the index but still on disk is both a staged deletion and untracked.
    const code =
      unstaged === "untracked" && !staged
        ? "??"
        : `${staged ? letters[staged] : " "}${unstaged && unstaged !== "untracked" ? letters[unstaged] : " "}`;
    entries.push({ path, staged, unstaged, code });
    if (unstaged === "untracked" && staged) entries.push({ path, staged: null, unstaged, code: "??" });
  }
  return entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
