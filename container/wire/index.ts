/**
 * The capnweb interface between a workspace object (executors/container) and computerd
 * (container/src), shared by both sides. This file is the contract: read it before
 * changing either end (with exec.ts, its part about one command). It imports nothing outside
 * container/wire, so both a Worker and Node can use it.
 *
 * One session = one WebSocket, always opened by the workspace object (in production with
 * `fetch` into the Cloudflare Container; locally to the port the supervisor reports), at
 * `GET /session` on computerd. The object is the client; computerd's main object is a
 * `ComputerApi`. The object hands computerd a `WorkspaceSyncApi` stub in `hello`, and
 * computerd calls back through it on the same socket for the rest of the session.
 *
 * Ownership and lifetime:
 * - The object owns the session: it opens it, and closes it when it no longer needs the
 *   computer. computerd never opens one. When the socket drops, computerd keeps its replica
 *   and its list of unpushed changes on disk; the next session's `hello` resumes from the
 *   last revision it applied, and it pushes what it still holds. Nothing is lost.
 * - Running commands survive a dropped session (their output sink is gone, so their output
 *   past that point is lost), but the object ends such runs as abandoned anyway.
 * - Every call before a successful `hello` fails with "unauthenticated".
 *
 * Sync model (docs/container-sync.md): the object is the source of truth. Changes flow
 * down as revisions of the object's change log (`changes`), and up as the *current state*
 * of each path the container changed (`apply`), so applying the same op twice gives the
 * same tree (idempotent), and a crash between two pushes only repeats work.
 */

import type { ContainerExecOutcome, ContainerExecRequest, MountMode, OutputSinkApi } from "./exec.ts";

// One command's request and outcome, and the statuses and exit codes every side shares.
export * from "./exec.ts";

/** Seconds a session token is valid; both sides refuse older ones. */
export const SESSION_TOKEN_TTL_SECONDS = 60;
/** The JWT audience of the token the object presents to computerd, and of computerd's answer. */
export const AUDIENCE_COMPUTERD = "cubicle:computerd";
export const AUDIENCE_WORKSPACE = "cubicle:workspace";

export const wireLimits = {
  /**
   * Bytes of file content in one RPC message, which must stay well under 24 MiB: raw in the
   * session's binary framing (socket.ts), a third more as base64 in JSON text without it.
   */
  chunkBytesMax: 4 * 1024 * 1024,
  /**
   * Ops in one `apply` batch: bounds one message and one object transaction's work. Every
   * batch costs the object a storage commit that held its next request for about half a
   * second on a loaded machine whatever the batch's size (issue 19: creating 1,000 files
   * answered after 4.6 s in four batches of 256, 1.9–2.6 s in one), so a command's usual
   * burst of small files goes in one.
   */
  applyOpsMax: 1_024,
  /**
   * Bytes of file content in one `apply` batch (each file's at most chunkBytesMax): fewer
   * commits for the same reason, while the message (8 MiB raw, about 11 MiB as JSON text
   * without the binary framing) stays well under 24 MiB.
   */
  applyBytesMax: 8 * 1024 * 1024,
  /** Change-log entries per `changes` page. */
  changesPageMax: 1_000,
  /** Paths per `lstatMany`. */
  lstatPathsMax: 1_000,
  /** Entries per `walk` page. */
  walkPageMax: 10_000,
} as const;

/**
 * The ids the object gives what it makes itself (API writes, the shell and javascript
 * executors): the box's default user and group, `boxLimits.uid` in container/src/limits.ts.
 * Ids on the wire are always the box's view (0 is the box's root), never a host's.
 */
export const BOX_DEFAULT_OWNER = { uid: 1000, gid: 1000 } as const;

/**
 * One path as the object stores it (what the mount must show). Paths are workspace paths: `/src/a.ts`.
 * The fields after `target` came with hard links and POSIX metadata; an object older than
 * them leaves them out, and computerd then keeps its defaults (BOX_DEFAULT_OWNER, whole ms).
 */
export interface RemoteEntry {
  path: string;
  type: "file" | "dir" | "symlink";
  size: number;
  /** Permission bits (0o755…). */
  mode: number;
  /** Modification time: whole milliseconds since 1970, rounded down (see mtimeNsec). */
  mtimeMs: number;
  /** Files: the content's strong ETag; equal ETag, equal bytes. */
  etag?: string;
  /** Symlinks: the link's target, as stored. */
  target?: string;
  /** Nanoseconds past `mtimeMs` (0–999,999): the exact time is mtimeMs × 10⁶ + mtimeNsec ns, before 1970 too. */
  mtimeNsec?: number;
  /** Owner, in the box's ids. */
  uid?: number;
  gid?: number;
  /**
   * The object's inode number. Two entries with the same `ino` are hard links: one file with
   * two names, whose content and metadata are one. Stable while the file lives; never reused
   * within one object's life, but a new number after the object copies a file.
   */
  ino?: number;
  /** Names of a file or link; 2 + subdirectories for a directory. */
  nlink?: number;
}

/**
 * What an op that creates or replaces a path may say about it, so a pushed file lands with
 * the box's owner and modification time rather than the object's defaults (BOX_DEFAULT_OWNER,
 * the commit time). Each field left out keeps the object's default. A directory's mtime is
 * set, but moves again on the object whenever an entry in it changes there.
 */
export interface SyncAttrs {
  uid?: number;
  gid?: number;
  /** Whole milliseconds since 1970, rounded down; with mtimeNsec, the exact time. */
  mtimeMs?: number;
  /** Nanoseconds past mtimeMs, 0–999,999 (0 when left out and mtimeMs is given). */
  mtimeNsec?: number;
}

export interface WireError {
  ok: false;
  /** POSIX code (ENOENT, EACCES, ENOSPC…) or EPRECONDITION. */
  code: string;
  message: string;
}

/**
 * What the container last knew the object to hold at a path, before its own change there:
 * nothing (null), a directory, a link to `target`, or a file with ETag `etag`. computerd
 * takes it from its synced index (the object's state as last pulled or pushed), which a
 * path's local change never moves, so it is the version the change was made on top of.
 */
export type SyncBase = null | { type: "dir" } | { type: "symlink"; target: string } | { type: "file"; etag: string };

/**
 * One container-side change, pushed as the path's state now (not the syscall that made it),
 * with the base it was made on. Special files (FIFOs, sockets, character and block devices)
 * have no op: they live on the box only and are never pushed. Each op carries the base (docs/container-sync.md, "Conflicts"). The object applies an
 * op only while the path still holds its base (or already holds what the op wants); else the
 * object's version stays and the container's is kept beside it (ApplyResult.conflicts). An op
 * without `base` (a computerd older than the field) replaces whatever is there.
 */
export type SyncOp = SyncOpState & { base?: SyncBase };

/** The state part of a SyncOp. */
export type SyncOpState =
  /**
   * The file's whole content (≤ chunkBytesMax); replaces whatever is at `path` (a dir or link
   * included). A file with other names on the object (hard links) is written through, so
   * they all show the content, unless `nlink` is 1: the box's file has this name only (it
   * was replaced, not written through), so the object gives `path` a file of its own first.
   */
  | ({ op: "write"; path: string; bytes: Uint8Array; mode: number; nlink?: number } & SyncAttrs)
  /** The content staged by `upload()` under `uploadId`, for larger files; same replace and `nlink` rules. */
  | ({ op: "commitUpload"; path: string; uploadId: string; mode: number; nlink?: number } & SyncAttrs)
  /** A directory (parents created); an existing file or link at `path` is replaced. */
  | ({ op: "mkdir"; path: string; mode: number } & SyncAttrs)
  | ({ op: "symlink"; path: string; target: string } & SyncAttrs)
  /**
   * `path` becomes another name of the file or link at `existing` (a hard link; its final
   * symlink is not followed), replacing whatever was at `path`. Already so: nothing to do.
   * Refused when `existing` is missing (ENOENT) or a directory (EPERM): push it as a write.
   */
  | { op: "link"; path: string; existing: string }
  /** Removes `path` and everything under it; nothing there is success. */
  | { op: "remove"; path: string }
  | { op: "chmod"; path: string; mode: number }
  /**
   * Metadata of the entry at `path` itself (a final symlink is not followed; a link's mode
   * stays 0o777), for every name of its inode. Fields left out stay as they are, as chown's
   * −1 and utimensat's UTIME_OMIT; nothing at `path` is success.
   */
  | ({ op: "setattr"; path: string; mode?: number } & SyncAttrs);

export interface ApplyResult {
  ok: true;
  /**
   * The change-log revision each op produced, in order (0 for an op that changed nothing).
   * computerd skips these when they come back down through `changes`: they are its own.
   */
  revs: number[];
  /**
   * The revision before each op, in order: an op may log several changes (a directory made,
   * then its owner and times set), and every revision in (revsFrom[i], revs[i]] is that op's.
   * Absent from an object older than this field (then only revs[i] is known to be the op's).
   */
  revsFrom?: number[];
  /**
   * Each op's path as the object now stores it (null: nothing there), so computerd knows the
   * ETag of what it pushed and does not download its own write again.
   */
  entries: (RemoteEntry | null)[];
  revision: number;
  /** Ops the object refused (a quota, a prefix), by index. The container keeps its copy; the path stays dirty. */
  failures: { index: number; code: string; message: string }[];
  /**
   * Ops whose base no longer matched, by index: the object kept its version at `path` (its
   * state is `entries[index]`), and the container's version was saved at `savedAs` (null when
   * there was nothing to save: a removal or a mode change, dropped). The change log lists
   * `savedAs`, so a pull brings the copy down. Absent from an object older than this field.
   */
  conflicts?: SyncConflict[];
  /**
   * Ops that wanted their own base back (the container changed nothing at the path in the
   * end) while the object's version moved on, by index: nothing was applied, and the object's
   * version (`entries[index]`) is the one computerd brings down. Absent from an older object.
   */
  unchanged?: number[];
}

/** One op the object did not apply as sent, because the path changed since the op's base. */
export interface SyncConflict {
  index: number;
  path: string;
  savedAs: string | null;
}

/** Stages a large file's content on the object, chunk by chunk, for one `commitUpload`. */
export interface UploadApi {
  /** Appends the next chunk (≤ chunkBytesMax). */
  append(bytes: Uint8Array): Promise<void>;
  /** The id to name in a `commitUpload` op. Valid for this session only. */
  id(): Promise<string>;
}

/**
 * Served by the workspace object, called by computerd. Bound to one workspace (and the
 * run's path prefix when the credential has one): it cannot name anything else.
 */
export interface WorkspaceSyncApi {
  /**
   * Change-log entries after `afterRev`, oldest first, up to `limit`. When `oldestRev >
   * afterRev + 1` the log no longer reaches back that far: walk the tree again (`walk`).
   */
  changes(
    afterRev: number,
    limit: number,
  ): Promise<{ changes: { rev: number; paths: string[] }[]; revision: number; oldestRev: number }>;
  /** computerd has applied everything up to `rev`: the object keeps its log from there (a cursor). */
  ack(rev: number): Promise<void>;
  /** lstat of each path, null where nothing is (no symlink is followed). */
  lstatMany(paths: string[]): Promise<(RemoteEntry | null)[]>;
  /**
   * Every entry under `path` (the path itself excluded), parents before children, paged by
   * an opaque cursor. `revision` is the object's revision when the page was read.
   */
  walk(
    path: string,
    cursor: string | null,
  ): Promise<{ ok: true; entries: RemoteEntry[]; next: string | null; revision: number } | WireError>;
  /** Bytes `[offset, offset + length)` of a file (length ≤ chunkBytesMax), with its ETag at that moment. */
  read(
    path: string,
    offset: number,
    length: number,
  ): Promise<{ ok: true; bytes: Uint8Array; etag: string; size: number } | WireError>;
  /** Starts staging a large file's content. */
  upload(): Promise<UploadApi>;
  /** Applies ops in order, in one transaction (each op is idempotent, and checked against its base); see ApplyResult. */
  apply(ops: SyncOp[]): Promise<ApplyResult | WireError>;
}

/** computerd's main object. */
export interface ComputerApi {
  /**
   * Authenticates both ways and starts syncing. `token` is a JWT (HS256, the shared
   * computerd secret) from the object: audience AUDIENCE_COMPUTERD, subject the workspace
   * name computerd serves, a nonce (`jti`), ≤ SESSION_TOKEN_TTL_SECONDS old. computerd
   * answers with its own JWT: audience AUDIENCE_WORKSPACE, same subject, `nonce` = the
   * object's `jti`, which the object verifies before using the session.
   */
  hello(token: string, workspace: WorkspaceSyncApi): Promise<{ token: string; appliedRev: number }>;
  /** Runs one command; resolves after it ended and every change it made is on the object. */
  exec(request: ContainerExecRequest, sink: OutputSinkApi): Promise<ContainerExecOutcome>;
  /** Ends a running command (SIGKILL to its process group); its `exec` resolves as cancelled. */
  kill(execId: string): Promise<void>;
  /** The object's revision is now `revision`: pull if behind. Fire and forget. */
  changed(revision: number): Promise<void>;
  /** Pushes every unpushed change now; resolves with the object's revision after. */
  flush(): Promise<{ revision: number }>;
}

/** `GET /healthz` on computerd: what the supervisor polls to stop idle daemons. */
export interface ComputerdHealth {
  ok: true;
  /** Milliseconds since the last session call or command output; 0 while a command runs. */
  idleMs: number;
  /** Commands running now. */
  running: number;
  /** Whether a session is connected. */
  session: boolean;
  /** How the workspace is mounted; null before the mount is up. */
  mount: MountMode | null;
}

/** What computerd prints as one JSON line on stdout once it serves the mount and the port. */
export interface ComputerdReady {
  ready: true;
  port: number;
  mount: string;
  pid: number;
}

/** computerd's environment (the supervisor or the Container sets it). */
export const COMPUTERD_ENV = {
  /** `<tenantId>:<workspaceId>`: the only workspace this daemon serves (the token's subject). */
  workspace: "COMPUTERD_WORKSPACE",
  /** The HS256 secret both sides sign session tokens with. */
  secret: "COMPUTERD_SECRET",
  /** Port to listen on; 0 picks one (reported in ComputerdReady). Default 8080. */
  port: "COMPUTERD_PORT",
  /** Address to listen on. Default 127.0.0.1 (0.0.0.0 in the image). */
  host: "COMPUTERD_HOST",
  /** The replica and its state database; survives daemon restarts. */
  stateDir: "COMPUTERD_STATE_DIR",
  /**
   * The box's read-only root image: a directory holding a whole Debian tree with Node 24, the
   * `/` every command sees (docs/container-image.md). The Dockerfile bakes it in at
   * /opt/cubicle/rootfs; locally the supervisor passes the image container/image/build.ts
   * made, and starts no daemon before that image is ready.
   */
  rootfs: "COMPUTERD_ROOTFS",
  /** Where the workspace is mounted. Default /workspace. */
  mount: "COMPUTERD_MOUNT",
  /**
   * The first of the 65,536 host uids and gids this computer's boxes map to: box uid n is
   * host uid `COMPUTERD_BOX_UID + n`, so box root is this uid and the box user 1000 is this
   * plus 1000. Never 0, and the ranges of two computers on one host never overlap (the
   * supervisor assigns them). Default 100000.
   */
  boxUid: "COMPUTERD_BOX_UID",
  /**
   * How the workspace is mounted (docs/container-sync.md): `native` (a local ext4 filesystem
   * with fanotify hydration and change journal), `fuse` (the passthrough fallback), or `auto`
   * (the default: native where the kernel and host allow it, else fuse).
   */
  mountMode: "COMPUTERD_MOUNT_MODE",
  /**
   * The native mode's fanotify helper binary (container/native): the image bakes it in; the
   * local supervisor builds it and passes its path. Unset or missing: the native mode is
   * unavailable and `auto` uses FUSE.
   */
  fanotifyBin: "COMPUTERD_FANOTIFY_BIN",
  /**
   * The device-node supervisor and launcher (`cubicle-mknod`, container/native/mknod): the
   * image bakes it in; the local supervisor builds it and passes its path. Unset: a device
   * mknod in the box gets the kernel's EPERM (docs/container-sandbox.md, "Device nodes").
   */
  mknodBin: "COMPUTERD_MKNOD_BIN",
  /**
   * Benchmarks only, never set in production: a host directory (in practice the root of a
   * fresh ext4 loop mount) that every command's box shows read-write at /mnt, so the
   * container benchmark has the box's own disk to compare the workspace with
   * (bench/container.bench.ts). Unset: /mnt is the image's empty, read-only directory.
   */
  boxScratch: "COMPUTERD_BOX_SCRATCH",
  /**
   * `1`: computerd writes a timestamp line on stderr at each step of a command and of a
   * first pull (container/src/trace.ts), for measuring where the time goes. The local
   * supervisor passes it through from its own environment. Unset: no trace.
   */
  trace: "COMPUTERD_TRACE",
} as const;
