/**
 * The FUSE operations: a passthrough to the replica directory, plus the three hooks sync
 * needs: every mutating op marks its path dirty *before* touching the replica (so a daemon
 * killed mid-op still pushes it after a restart), opens and renames hydrate placeholders
 * first, and removals forget the path's remote ETag so a new file there is never taken for
 * a placeholder.
 *
 * These callbacks run on the daemon's event loop. They must never block on the mount
 * itself (a synchronous call on /workspace from this process deadlocks); everything here
 * touches only the replica and the state database.
 */
import * as fs from "node:fs";
import * as fsp from "node:fs/promises";
import type { SyncContext } from "../sync/context.ts";
import type { Hydrator } from "../sync/hydrate.ts";
import { ENODATA, EOPNOTSUPP, EPERM, errnoOf, toErrno } from "./errno.ts";

// biome-ignore lint/suspicious/noExplicitAny: fuse-native's callbacks take op-specific arguments.
type Cb = (...args: any[]) => void;

/** Answers FUSE from a synchronous replica call: its value, or its errno. */
function answer(cb: Cb, fn: () => unknown): void {
  let value: unknown;
  try {
    value = fn();
  } catch (err) {
    cb(toErrno(err));
    return;
  }
  if (value === undefined) cb(0);
  else cb(0, value);
}

function answerCount(cb: Cb, fn: () => number): void {
  let n: number;
  try {
    n = fn();
  } catch (err) {
    cb(toErrno(err));
    return;
  }
  cb(n);
}

/**
 * `owner` is the host uid of the box commands run in (sandbox/box.ts). The replica's files
 * belong to root, who writes them; the mount shows root's files as the box user's and
 * stores the box user's as root's, so a command owns its workspace (git checks that) and
 * the replica never holds an unprivileged uid.
 */
export function makeOps(ctx: SyncContext, hydrator: Hydrator, owner: number): Record<string, Cb> {
  const { replica, dirty, state } = ctx;
  const local = (p: string) => replica.local(p);

  /** Runs an async op and answers FUSE with 0 (or `value`) or the error's errno. */
  const run = (cb: Cb, fn: () => Promise<unknown>) => {
    fn().then(
      (value) => (value === undefined ? cb(0) : cb(0, value)),
      (err) => cb(toErrno(err)),
    );
  };

  /** Answers FUSE with `fn()` once `path` holds its content: at once when it already does. */
  const whenLocal = (cb: Cb, path: string, fn: () => unknown) => {
    let ready: Promise<number> | number;
    try {
      ready = hydrator.ensure(path);
    } catch (err) {
      cb(toErrno(err));
      return;
    }
    if (ready === 0) answer(cb, fn);
    else
      Promise.resolve(ready).then(
        (result) => (result === 0 ? answer(cb, fn) : cb(result)),
        (err) => cb(toErrno(err)),
      );
  };

  /** Awaits hydration and throws its errno as an error FUSE understands. */
  const hydrated = async (path: string) => {
    const result = await hydrator.ensure(path);
    if (result !== 0) throw Object.assign(new Error("hydrate failed"), { errno: result });
  };

  return {
    init: (cb: Cb) => cb(0),

    statfs: (_path: string, cb: Cb) =>
      run(cb, async () => {
        const s = await fsp.statfs(replica.root);
        return {
          bsize: s.bsize,
          frsize: s.bsize,
          blocks: s.blocks,
          bfree: s.bfree,
          bavail: s.bavail,
          files: s.files,
          ffree: s.ffree,
          favail: s.ffree,
          fsid: 0,
          flag: 0,
          namemax: 255,
        };
      }),

    // Metadata ops answer with direct syscalls on the replica: a thread-pool hop costs more
    // than the lstat itself, and `find` or `git status` issue tens of thousands of them.
    getattr: (path: string, cb: Cb) => getattr(local(path), owner, cb),
    fgetattr: (path: string, _fd: number, cb: Cb) => getattr(local(path), owner, cb),
    access: (path: string, mode: number, cb: Cb) => answer(cb, () => fs.accessSync(local(path), mode)),
    // The high-level FUSE API does not add the dot entries itself; `ls -a` expects them.
    readdir: (path: string, cb: Cb) => answer(cb, () => [".", "..", ...fs.readdirSync(local(path))]),
    readlink: (path: string, cb: Cb) => answer(cb, () => fs.readlinkSync(local(path))),

    // open and create answer synchronously when the content is already local (the common
    // case: hydrate() is one indexed lookup then), and only go async to download a placeholder.
    open: (path: string, flags: number, cb: Cb) => {
      if (flags & fs.constants.O_TRUNC) {
        // Truncating on open discards the content, so there is nothing worth downloading.
        answer(cb, () => {
          dirty.touch(path);
          const row = state.file(path);
          if (row && !row.hydrated) {
            fs.truncateSync(local(path), 0);
            state.setHydrated(path);
          }
          return fs.openSync(local(path), flags & ~(fs.constants.O_CREAT | fs.constants.O_EXCL));
        });
        return;
      }
      // Writes mark the path dirty themselves, so opening for writing alone pushes nothing.
      whenLocal(cb, path, () => fs.openSync(local(path), flags & ~(fs.constants.O_CREAT | fs.constants.O_EXCL)));
    },

    create: (path: string, mode: number, cb: Cb) => {
      try {
        dirty.touch(path);
      } catch (err) {
        cb(toErrno(err));
        return;
      }
      whenLocal(cb, path, () => fs.openSync(local(path), fs.constants.O_CREAT | fs.constants.O_RDWR, mode & 0o7777));
    },

    // Data ops too: a 128 KiB pread or pwrite in the page cache takes microseconds, and
    // answering inline measured faster than a thread-pool hop (dd 64 MiB: ~600 vs ~350 MB/s).
    read: (_path: string, fd: number, buf: Buffer, len: number, pos: number, cb: Cb) =>
      answerCount(cb, () => fs.readSync(fd, buf, 0, len, pos)),

    write: (path: string, fd: number, buf: Buffer, len: number, pos: number, cb: Cb) => {
      dirty.touch(path);
      answerCount(cb, () => fs.writeSync(fd, buf, 0, len, pos));
    },

    // No `flush`: there is nothing to do on close(2), and an op that is not implemented is
    // answered ENOSYS by libfuse itself, after which the kernel stops sending FLUSH for good.
    // Every close (and every dup2 over an open file, as a shell redirect does) would otherwise
    // cost a round trip through this event loop.
    fsync: (_path: string, datasync: number, fd: number, cb: Cb) =>
      (datasync ? fs.fdatasync : fs.fsync)(fd, (err) => cb(err ? toErrno(err) : 0)),
    release: (_path: string, fd: number, cb: Cb) => answer(cb, () => fs.closeSync(fd)),

    truncate: (path: string, size: number, cb: Cb) =>
      run(cb, async () => {
        const row = state.file(path);
        if (row && !row.hydrated && size === 0) state.setHydrated(path);
        else await hydrated(path);
        dirty.touch(path);
        await fsp.truncate(local(path), size);
      }),

    // These answer synchronously too, like the metadata ops above: npm, tar and cp -p issue
    // one or more per file, and each is one local syscall.
    ftruncate: (path: string, fd: number, size: number, cb: Cb) =>
      answer(cb, () => {
        dirty.touch(path);
        fs.ftruncateSync(fd, size);
      }),

    chmod: (path: string, mode: number, cb: Cb) =>
      answer(cb, () => {
        dirty.touch(path);
        fs.chmodSync(local(path), mode & 0o7777);
      }),

    // Ownership is local to the container (tar and cp -a as root set it); the object has none.
    chown: (path: string, uid: number, gid: number, cb: Cb) =>
      answer(cb, () => fs.lchownSync(local(path), uid === owner ? 0 : uid, gid === owner ? 0 : gid)),

    // fuse-native 2.2.6 hands the access time for both times (a bug in its C glue), so a
    // preserved mtime (cp -p, tar) becomes the access time. Times are local only anyway:
    // the object stamps its own mtime when a push lands.
    utimens: (path: string, atime: number, mtime: number, cb: Cb) =>
      answer(cb, () => fs.lutimesSync(local(path), atime / 1000, mtime / 1000)),

    unlink: (path: string, cb: Cb) =>
      answer(cb, () => {
        dirty.touch(path);
        fs.unlinkSync(local(path));
        state.forgetTree(path);
      }),

    rmdir: (path: string, cb: Cb) =>
      answer(cb, () => {
        dirty.touch(path);
        fs.rmdirSync(local(path));
      }),

    mkdir: (path: string, mode: number, cb: Cb) =>
      answer(cb, () => {
        dirty.touch(path);
        fs.mkdirSync(local(path), mode & 0o7777);
      }),

    symlink: (target: string, path: string, cb: Cb) =>
      answer(cb, () => {
        dirty.touch(path);
        fs.symlinkSync(target, local(path));
      }),

    // A hard link: one more name for the replica's file, pushed as a `link` (sync/push.ts).
    // A placeholder is downloaded first, so no name of it is ever taken for real content.
    link: (src: string, dest: string, cb: Cb) =>
      run(cb, async () => {
        await hydrated(src);
        dirty.touch(dest);
        fs.linkSync(local(src), local(dest));
      }),

    // Renaming a file whose content is local (git's lock files, npm, editors saving) is done
    // synchronously; a directory, or a placeholder to download first, goes the async way.
    rename: (src: string, dest: string, cb: Cb) => {
      let done: boolean;
      try {
        done = renameLocalFile(ctx, hydrator, src, dest);
      } catch (err) {
        cb(toErrno(err));
        return;
      }
      if (done) cb(0);
      else run(cb, () => renamePath(ctx, hydrator, src, dest));
    },

    // FIFOs, sockets and device nodes have no counterpart on the object.
    mknod: (_path: string, _mode: number, _dev: number, cb: Cb) => cb(EPERM),

    // No extended attributes. `getxattr` is deliberately not implemented: libfuse answers
    // ENOSYS without calling into JS, the kernel then stops asking for good (and tells callers
    // EOPNOTSUPP, which cp -a and tar accept). Answering "none" instead made the kernel ask for
    // `security.capability` on every write(2), a round trip per write. Listing answers "none",
    // so cp -a and tar find nothing to copy and stay quiet.
    listxattr: (_path: string, cb: Cb) => cb(0, []),
    setxattr: (_path: string, _name: string, _value: Buffer, _position: number, _flags: number, cb: Cb) =>
      cb(EOPNOTSUPP),
    removexattr: (_path: string, _name: string, cb: Cb) => cb(ENODATA),
  };
}

const ENOENT = errnoOf("ENOENT");
const noThrow = { throwIfNoEntry: false } as const;

/**
 * getattr is the most frequent op by far (every lookup, and a directory's attributes after
 * each create or unlink in it), and a lookup of a missing name is common too: probing by
 * git, node's module resolution, a shell creating a file. So a missing file answers ENOENT
 * without building an exception, and the answer carries times as numbers: fuse-native
 * converts Dates back to numbers, and Node's Stats builds its Dates lazily.
 */
function getattr(file: string, owner: number, cb: Cb): void {
  let st: fs.Stats | undefined;
  try {
    st = fs.lstatSync(file, noThrow);
  } catch (err) {
    cb(toErrno(err));
    return;
  }
  if (st === undefined) {
    cb(ENOENT);
    return;
  }
  cb(0, {
    mode: st.mode,
    uid: st.uid === 0 ? owner : st.uid,
    gid: st.gid === 0 ? owner : st.gid,
    size: st.size,
    dev: st.dev,
    nlink: st.nlink,
    ino: st.ino,
    rdev: st.rdev,
    blksize: st.blksize,
    blocks: st.blocks,
    atime: Math.trunc(st.atimeMs),
    mtime: Math.trunc(st.mtimeMs),
    ctime: Math.trunc(st.ctimeMs),
  });
}

/** renamePath's fast path: false (nothing done) unless `src` is a non-directory with its content here. */
function renameLocalFile(ctx: SyncContext, hydrator: Hydrator, src: string, dest: string): boolean {
  const st = fs.lstatSync(ctx.replica.local(src), noThrow);
  if (!st || st.isDirectory() || hydrator.ensure(src) !== 0) return false;
  ctx.dirty.touchMany([src, dest]);
  fs.renameSync(ctx.replica.local(src), ctx.replica.local(dest));
  ctx.state.forgetTree(src);
  ctx.state.forgetTree(dest);
  return true;
}

/**
 * A rename dirties both names (and, for a directory, every path of the new subtree, since
 * the object has no rename: the new subtree is pushed and the old path removed). Placeholders
 * are hydrated first, because the old remote path is gone once the push removes it.
 */
async function renamePath(ctx: SyncContext, hydrator: Hydrator, src: string, dest: string): Promise<void> {
  const st = await ctx.replica.lstat(src);
  if (!st) throw Object.assign(new Error("no such file"), { code: "ENOENT" });
  const result = st.isDirectory() ? await hydrator.ensureUnder(src) : await hydrator.ensure(src);
  if (result !== 0) throw Object.assign(new Error("hydrate failed"), { errno: result });
  const touched = [src, dest];
  if (st.isDirectory()) {
    for await (const entry of ctx.replica.subtree(src)) touched.push(dest + entry.path.slice(src.length));
  }
  ctx.dirty.touchMany(touched);
  await fsp.rename(ctx.replica.local(src), ctx.replica.local(dest));
  ctx.state.forgetTree(src);
  ctx.state.forgetTree(dest);
}
