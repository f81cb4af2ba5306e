/**
 * Limits of the native mode's fanotify helper as computerd drives it (fanotify.ts), each with
 * the reason it exists. The helper's own limits (placeholders at once, waiting readers, batch
 * bytes) are in container/native/native.h.
 */
export const nativeLimits = {
  /**
   * Size of a computer's ext4 image (disk.ts). It is sparse, so the host's disk pays only for
   * what is written; the size caps what one computer's commands can put there (the largest
   * plan's workspace quota plus room for build output that is deleted again).
   */
  imageBytes: 16 * 1024 * 1024 * 1024,
  /**
   * The extended attribute that marks a placeholder (a file whose content is not here yet).
   * `trusted.*`: only root can read or write it, so a command can neither fake nor remove it.
   */
  placeholderXattr: "trusted.cubicle.placeholder",
  /** How long the helper may take to check the mount, mark it and say ready: a few syscalls, so a stall means a broken kernel. */
  readyTimeoutMs: 10_000,
  /**
   * How long one placeholder may take to arrive before its readers get EIO: the same bound as
   * a FUSE callback (daemonLimits.fuseOpTimeoutMs), since a large file can take a while.
   */
  hydrateTimeoutMs: 10 * 60_000,
  /**
   * How far before a drain's start a replica change may be stamped and still be one the
   * journal had not reported: the kernel stamps ctime from a coarse clock (a jiffy, up to 10
   * ms behind), so twice that.
   */
  ctimeSlackMs: 20,
  /**
   * Bytes of zeros written at the start of every placeholder, one filesystem block: a
   * placeholder that is all hole lets GNU cp (and any SEEK_DATA or FIEMAP reader) copy it as
   * zeros without reading it, so no pre-content event fills it first. With its first block
   * data, the copy reads there, and that read fills the whole file before it returns.
   */
  placeholderDataBytes: 4096,
  /** How long drain() waits for `synced`: reading the queued journal is a few reads, so this only catches a dead helper. */
  drainTimeoutMs: 30_000,
  /** After stdin closes, how long the helper has to deny its waiters, finish the fills it is copying (≤ 5 s) and exit, before SIGKILL. */
  stopTimeoutMs: 10_000,
  /** Bytes of the helper's stderr kept for the exit report; its diagnostics are short lines. */
  stderrKeptBytes: 16 * 1024,
  /**
   * Largest content answered inline (`{ bytes }`), as the helper's INLINE_BYTES_MAX: no file
   * to write and remove, which on a journaled disk costs more than the copy. Larger: `{ file }`.
   */
  inlineBytesMax: 256 * 1024,
  /** Longest stdout line accepted: a hydrate request with a 64 KiB key, every byte escaped (6×). */
  lineBytesMax: 400 * 1024,
} as const;
