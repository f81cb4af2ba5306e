/**
 * `git.branch`: list, current, create and delete local branches (refs/heads). Creating
 * never touches the working tree; switching is `checkout` (createGit.ts).
 */
import { branch, currentBranch, deleteBranch, isDescendent, listBranches, resolveRef } from "isomorphic-git";
import { GitError } from "./errors.ts";
import type { GitRepo } from "./gitFs.ts";
import { resolveRevision } from "./revisions.ts";

export function branchApi(repo: GitRepo, requireRepo: () => Promise<void>, headOid: () => Promise<string | null>) {
  const { fs, dir, cache } = repo;
  return {
    /** Local branch names, sorted. */
    async list(): Promise<string[]> {
      await requireRepo();
      return (await listBranches({ fs, dir })).sort();
    },
    /** The checked-out branch, or null with a detached HEAD. */
    async current(): Promise<string | null> {
      await requireRepo();
      return (await currentBranch({ fs, dir })) ?? null;
    },
    /** A new branch at `start` (default HEAD); the working tree is not touched. */
    async create(name: string, input: { start?: string } = {}): Promise<{ oid: string }> {
      await requireRepo();
      const oid = await resolveRevision(repo, input.start ?? "HEAD");
      if ((await listBranches({ fs, dir })).includes(name))
        throw new GitError("BranchExists", `a branch named '${name}' already exists`);
      await branch({ fs, dir, ref: name, object: oid });
      return { oid };
    },
    /** Deletes a branch; one not merged into HEAD only with `force` (`git branch -D`). */
    async delete(name: string, input: { force?: boolean } = {}): Promise<{ oid: string }> {
      await requireRepo();
      const oid = await resolveRef({ fs, dir, ref: `refs/heads/${name}` }).catch(() => null);
      if (!oid) throw new GitError("UnknownRevision", `branch '${name}' not found.`);
      if ((await currentBranch({ fs, dir })) === name) {
        throw new GitError("BranchNotDeletable", `Cannot delete branch '${name}' checked out at '${dir}'`);
      }
      const head = await headOid();
      const merged =
        head !== null &&
        (head === oid || (await isDescendent({ fs, dir, cache, oid: head, ancestor: oid, depth: -1 })));
      if (!merged && !input.force) {
        throw new GitError("BranchNotDeletable", `The branch '${name}' is not fully merged.`);
      }
      await deleteBranch({ fs, dir, ref: name });
      return { oid };
    },
  };
}
