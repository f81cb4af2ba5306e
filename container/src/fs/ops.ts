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
 *
 * Paths are relative to the replica's root, which is the daemon's working directory
 * (daemon.ts): Node has no *at system calls, and an absolute path would spend the replica's
 * prefix out of PATH_MAX, so a path the box could use would fail here. The box may then use
 * every path whose part below /workspace fits PATH_MAX, as the high-level FUSE API hands
 * whole paths (a deeper cwd with relative paths past that still fails; docs/container-sync.md).
 *
 * What POSIX says of owners and times holds as on a local disk: a new file or directory
 * belongs to its caller (fuse_get_context; the parent's group under a setgid directory),
 * chown passes through, and utimens keeps nanoseconds, UTIME_NOW and UTIME_OMIT. FIFOs and
 * sockets are made on the replica and stay local; device nodes are refused.
 */
import * as fs from "node:fs";
import * as fsp from "node:fs/promises";
import type { SyncContext } from "../sync/context.ts";
import type { Hydrator } from "../sync/hydrate.ts";
import { ENODATA, EOPNOTSUPP, EPERM, toErrno } from "./errno.ts";
import type { FuseAddon } from "./fuse/index.cjs";
import type { LinkNames } from "./linkNames.ts";
import { parentOf } from "./replica.ts";
import { answer, answerCount, type Cb, getattr } from "./reply.ts";

/** A workspace path (`/a/b`) as a path relative to the replica's root, the daemon's working directory. */
export function relative(path: string): string {
  return path === "/" ? "." : path.slice(1);
}

const { S_IFMT, S_IFCHR, S_IFBLK, S_IFREG, S_IFDIR } = fs.constants;
/** The setgid bit (Node's fs.constants lacks it): on a directory, new entries take its group. */
const S_ISGID = 0o2000;
/** The bits chown(2) clears on a file, which a new file's owner must get back. */
const setIdBits = 0o6000;

/**
 * `owner` is the host uid (and gid) of the box user 1000 (sandbox/box.ts). The files sync
 * writes belong to root; the mount shows uid and gid 0 as the box user's and stores the box
 * user's as 0, so a command owns its workspace (git checks that) and a pulled file needs no
 * chown. Every other owner (box root, nobody, any uid root hands a file to) is stored as the
 * host uid it is. `addon` is the FUSE addon's system-call helpers (fuse/fuse-native.c).
 */
export function makeOps(
  ctx: SyncContext,
  hydrator: Hydrator,
  owner: number,
  addon: FuseAddon,
  links: LinkNames,
): Record<string, Cb> {
  const { replica, dirty, state } = ctx;
  const local = relative;
  const stored = (id: number) => (id === owner ? 0 : id);

  /**
   * Gives a file the daemon just made (as root) to its caller: `uid`, and `gid` unless the
   * parent directory is setgid, whose group the kernel already gave it. chown clears a
   * file's setuid and setgid bits, so a mode that asked for them gets them back. The box
   * user's files are stored as root's, which they already are: for the common caller this
   * costs nothing.
   */
  const giveTo = (path: string, uid: number, gid: number, mode: number) => {
    if (stored(uid) === 0 && stored(gid) === 0) return;
    const parent = fs.lstatSync(local(parentOf(path)));
    const keepGroup = (parent.mode & S_ISGID) !== 0;
    fs.lchownSync(local(path), stored(uid), keepGroup ? -1 : stored(gid));
    if ((mode & setIdBits) !== 0 && (mode & S_IFMT) !== S_IFDIR) fs.chmodSync(local(path), mode & 0o7777);
  };

  /** Answers like `answer`, once the kernel dropped its cached attributes of the other names of a hard-linked file that `fn` returns (linkNames.ts). */
  const answerRefreshing = (cb: Cb, fn: () => string[]) => {
    let stale: string[];
    try {
      stale = fn();
    } catch (err) {
      cb(toErrno(err));
      return;
    }
    links.refresh(stale, () => cb(0));
  };

  /** Runs an async op and answers FUSE with 0 (or `value`) or the error's errno. */
  const run = (cb: Cb, fn: () => Promise<unknown>) => {
    fn().then(
      (value) => (value === undefined ? cb(0) : cb(0, value)),
      (err) => cb(toErrno(err)),
    );
  };

  /** Answers FUSE with `fn()` once `path` holds its content: at once when it already does. */
  const whenLocal = <T>(cb: Cb, path: string, fn: () => T, reply: (cb: Cb, fn: () => T) => void = answer) => {
    let ready: Promise<number> | number;
    try {
      ready = hydrator.ensure(path);
    } catch (err) {
      cb(toErrno(err));
      return;
    }
    if (ready === 0) reply(cb, fn);
    else
      Promise.resolve(ready).then(
        (result) => (result === 0 ? reply(cb, fn) : cb(result)),
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
    getattr: (path: string, cb: Cb) => getattr(addon, local(path), owner, cb),
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

    create: (path: string, mode: number, uid: number, gid: number, cb: Cb) => {
      try {
        dirty.touch(path);
      } catch (err) {
        cb(toErrno(err));
        return;
      }
      whenLocal(cb, path, () => {
        const fd = fs.openSync(local(path), fs.constants.O_CREAT | fs.constants.O_RDWR, mode & 0o7777);
        try {
          giveTo(path, uid, gid, mode);
        } catch (err) {
          fs.closeSync(fd);
          throw err;
        }
        return fd;
      });
    },

    // Data ops too: a 128 KiB pread or pwrite in the page cache takes microseconds, and
    // answering inline measured faster than a thread-pool hop (dd 64 MiB: ~600 vs ~350 MB/s).
    read: (_path: string, fd: number, buf: Buffer, len: number, pos: number, cb: Cb) =>
      answerCount(cb, () => fs.readSync(fd, buf, 0, len, pos)),

    write: (path: string, fd: number, buf: Buffer, len: number, pos: number, cb: Cb) => {
      dirty.touch(path);
      const stale = links.sharing(path, local(path));
      const write = () => fs.writeSync(fd, buf, 0, len, pos);
      if (stale.length === 0) answerCount(cb, write);
      else answerCount((n: number) => links.refresh(stale, () => cb(n)), write);
    },

    // `cp` and Node's copyFile ask the kernel to copy between two files of the mount; without
    // this op it splits the copy into 64 KiB reads and writes, each a round trip through this
    // event loop (a 64 MiB `cp` took 190–200 ms, where writing 64 MiB takes 55–65). Here the
    // kernel copies on the replica, at most 8 MiB a request (fuse-native.c).
    copy_file_range: (
      _pathIn: string,
      fdIn: number,
      offIn: number,
      pathOut: string,
      fdOut: number,
      offOut: number,
      len: number,
      cb: Cb,
    ) => {
      dirty.touch(pathOut);
      const stale = links.sharing(pathOut, local(pathOut));
      const result = addon.cubicle_copy_range(fdIn, offIn, fdOut, offOut, len);
      if (result < 0 || stale.length === 0) cb(result);
      else links.refresh(stale, () => cb(result));
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
        const stale = links.sharing(path, local(path));
        await fsp.truncate(local(path), size);
        await new Promise<void>((resolve) => links.refresh(stale, resolve));
      }),

    // These answer synchronously too, like the metadata ops above: npm, tar and cp -p issue
    // one or more per file, and each is one local syscall. (ftruncate arrives as truncate:
    // libfuse 3 hands truncate the file handle, which this op does not need.)
    chmod: (path: string, mode: number, cb: Cb) =>
      answerRefreshing(cb, () => {
        dirty.touch(path);
        const stale = links.sharing(path, local(path));
        fs.chmodSync(local(path), mode & 0o7777);
        return stale;
      }),

    // An owner and an mtime travel with every push (sync/pushRead.ts), so a chown or a utimens
    // is a change like any other: marked dirty first, or a later pull of the path would put
    // back the object's older owner or time. Marked as attributes alone, so a symlink's push
    // takes its target from its base instead of reading it, which would move the access
    // time just set (dirty.ts). (uid_t)-1 ("leave it") passes through as itself.
    chown: (path: string, uid: number, gid: number, cb: Cb) =>
      answerRefreshing(cb, () => {
        dirty.touchAttributes(path);
        const stale = links.sharing(path, local(path));
        fs.lchownSync(local(path), stored(uid), stored(gid));
        return stale;
      }),

    utimens: (path: string, atimeSec: number, atimeNsec: number, mtimeSec: number, mtimeNsec: number, cb: Cb) => {
      dirty.touchAttributes(path);
      const stale = links.sharing(path, local(path));
      const result = addon.cubicle_utimensat(local(path), atimeSec, atimeNsec, mtimeSec, mtimeNsec);
      if (result === 0) links.refresh(stale, () => cb(0));
      else cb(result);
    },

    unlink: (path: string, cb: Cb) =>
      answerRefreshing(cb, () => {
        dirty.touch(path);
        const ino = links.known(local(path));
        fs.unlinkSync(local(path));
        state.forgetTree(path);
        return ino === null ? [] : links.removed(path, ino);
      }),

    rmdir: (path: string, cb: Cb) =>
      answer(cb, () => {
        dirty.touch(path);
        fs.rmdirSync(local(path));
      }),

    mkdir: (path: string, mode: number, uid: number, gid: number, cb: Cb) =>
      answer(cb, () => {
        dirty.touch(path);
        fs.mkdirSync(local(path), mode & 0o7777);
        giveTo(path, uid, gid, mode | S_IFDIR);
      }),

    symlink: (target: string, path: string, uid: number, gid: number, cb: Cb) =>
      answer(cb, () => {
        dirty.touch(path);
        fs.symlinkSync(target, local(path));
        giveTo(path, uid, gid, 0);
      }),

    // A hard link: one more name for the replica's file, pushed as a `link` (sync/pushRead.ts).
    // A placeholder is downloaded first, so no name of it is ever taken for real content.
    link: (src: string, dest: string, cb: Cb) =>
      whenLocal(
        cb,
        src,
        () => {
          dirty.touch(dest);
          fs.linkSync(local(src), local(dest));
          return links.linked(src, dest, fs.lstatSync(local(dest)).ino);
        },
        answerRefreshing,
      ),

    // Renaming a file whose content is local (git's lock files, npm, editors saving) is done
    // synchronously; a directory, or a placeholder to download first, goes the async way.
    rename: (src: string, dest: string, cb: Cb) => {
      // Hard-linked names the table knows: the moved name, and the one a rename replaces.
      const srcIno = links.known(local(src));
      const destIno = links.known(local(dest));
      const renamed = () => [
        ...(destIno !== null && destIno !== srcIno ? links.removed(dest, destIno) : []),
        ...(srcIno !== null ? links.renamed(src, dest, srcIno) : []),
      ];
      let done: boolean;
      try {
        done = renameLocalFile(ctx, hydrator, src, dest);
      } catch (err) {
        cb(toErrno(err));
        return;
      }
      if (done) links.refresh(renamed(), () => cb(0));
      else
        run(cb, async () => {
          await renamePath(ctx, hydrator, src, dest);
          await new Promise<void>((resolve) => links.refresh(renamed(), resolve));
        });
    },

    // FIFOs and sockets (a unix socket's bind makes one) are made on the replica and never
    // pushed: the object has no counterpart (sync/pushRead.ts skips them). A device node would be
    // a real device on the host's disk, so it is refused whatever the caller; the box's
    // kernel refuses it before it gets here anyway.
    mknod: (path: string, mode: number, dev: number, uid: number, gid: number, cb: Cb) => {
      const type = mode & S_IFMT;
      if (type === S_IFCHR || type === S_IFBLK) return cb(EPERM);
      answer(cb, () => {
        if (type === S_IFREG) dirty.touch(path);
        const result = addon.cubicle_mknod(local(path), mode, dev);
        if (result < 0) throw Object.assign(new Error("mknod failed"), { errno: result });
        giveTo(path, uid, gid, mode);
      });
    },

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

const noThrow = { throwIfNoEntry: false } as const;
/** renamePath's fast path: false (nothing done) unless `src` is a non-directory with its content here. */
function renameLocalFile(ctx: SyncContext, hydrator: Hydrator, src: string, dest: string): boolean {
  const st = fs.lstatSync(relative(src), noThrow);
  if (!st || st.isDirectory() || hydrator.ensure(src) !== 0) return false;
  ctx.dirty.touchMany([src, dest]);
  fs.renameSync(relative(src), relative(dest));
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
  await fsp.rename(relative(src), relative(dest));
  ctx.state.forgetTree(src);
  ctx.state.forgetTree(dest);
}
