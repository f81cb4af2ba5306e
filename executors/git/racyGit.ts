/**
 * git's "racy git" rule, which isomorphic-git leaves out. The index remembers each file's
 * stat (mtime, size, …) and a later status trusts the stored blob id while the stat is
 * unchanged. A file rewritten with the same size in the same millisecond as it was staged
 * keeps its stat, so its change would go unseen — and workspace clocks are coarse (a
 * Worker's `Date.now()` moves only between I/O events), so this happens in scripts like
 * `echo a > f; git add f; echo b > f; git commit -am x`.
 *
 * git's answer: a file whose mtime is not older than the index itself may have changed
 * unseen, so it is hashed again. Here the filesystem handed to isomorphic-git reports such
 * files with a ctime half a millisecond off, which no stored stat matches, so
 * isomorphic-git hashes them. When the content turns out unchanged it stores the new stat,
 * and once the index is written again the file is no longer racy.
 */
import { type GitFs, type GitStats, normalizePath } from "./gitFs.ts";

export function withRacyGitCheck(fs: GitFs, dir: string): GitFs {
  const gitdir = normalizePath(`${dir}/.git`);
  const indexPath = `${gitdir}/index`;
  /** The index file's mtime; undefined until asked, null while there is no index. */
  let indexMtimeMs: number | null | undefined;

  async function indexTime(): Promise<number | null> {
    if (indexMtimeMs === undefined) {
      indexMtimeMs = (await fs.promises.stat(indexPath).catch(() => null))?.mtimeMs ?? null;
    }
    return indexMtimeMs;
  }

  const inGitdir = (path: string) => path === gitdir || path.startsWith(`${gitdir}/`);

  return {
    promises: {
      ...fs.promises,
      async writeFile(path, data, options) {
        await fs.promises.writeFile(path, data, options);
        if (normalizePath(path) === indexPath) indexMtimeMs = undefined;
      },
      async lstat(path) {
        const stats = await fs.promises.lstat(path);
        if (!stats.isFile() || inGitdir(normalizePath(path))) return stats;
        const since = await indexTime();
        if (since === null || stats.mtimeMs < since) return stats;
        // A Node Stats object keeps its methods on the prototype: inherit them, shadow the ctime.
        const ctimeMs = stats.ctimeMs + 0.5;
        return Object.assign(Object.create(stats) as GitStats, { ctimeMs, ctime: new Date(ctimeMs) });
      },
    },
  };
}
