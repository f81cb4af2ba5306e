/**
 * Naming commits as git does, for the subset agents type: `HEAD`, a branch or tag, a full
 * or abbreviated commit id (4+ hex digits), each optionally followed by `~N`, `^` or `^N`
 * (`HEAD~1`, `main^2`). Ranges (`a..b`) and `:path` forms are not accepted.
 */
import { expandOid, readCommit, resolveRef } from "isomorphic-git";
import { GitError } from "./errors.ts";
import type { GitRepo as Repo } from "./gitFs.ts";

const suffixPattern = /(~\d*|\^\d*)$/;

async function resolveBase(repo: Repo, name: string): Promise<string> {
  try {
    return await resolveRef({ fs: repo.fs, dir: repo.dir, ref: name });
  } catch {
    if (/^[0-9a-f]{4,40}$/i.test(name)) {
      try {
        return await expandOid({ fs: repo.fs, dir: repo.dir, cache: repo.cache, oid: name.toLowerCase() });
      } catch {
        // Falls through to the same error as an unknown name.
      }
    }
    throw new GitError(
      "UnknownRevision",
      `ambiguous argument '${name}': unknown revision or path not in the working tree.`,
    );
  }
}

/** The commit id `revision` names; throws GitError `UnknownRevision` when it names none. */
export async function resolveRevision(repo: Repo, revision: string): Promise<string> {
  const steps: { parent: number; count: number }[] = [];
  let base = revision;
  for (let match = suffixPattern.exec(base); match && base.length > match[0].length; match = suffixPattern.exec(base)) {
    const suffix = match[0];
    const number = suffix.length > 1 ? Number.parseInt(suffix.slice(1), 10) : 1;
    steps.unshift(suffix.startsWith("~") ? { parent: 1, count: number } : { parent: number, count: 1 });
    base = base.slice(0, -suffix.length);
  }
  let oid = await resolveBase(repo, base);
  for (const step of steps) {
    for (let i = 0; i < step.count; i++) {
      if (step.parent === 0) continue;
      const { commit } = await readCommit({ fs: repo.fs, dir: repo.dir, cache: repo.cache, oid });
      const parent = commit.parent[step.parent - 1];
      if (!parent) {
        throw new GitError(
          "UnknownRevision",
          `ambiguous argument '${revision}': unknown revision or path not in the working tree.`,
        );
      }
      oid = parent;
    }
  }
  return oid;
}
