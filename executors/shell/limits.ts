/**
 * Limits of the shell executor (just-bash in a Dynamic Worker), each with its reason. The
 * per-run numbers (wall time, output bytes) come in the ExecRequest; these are the rest.
 */
export const shellLimits = {
  /**
   * just-bash's `maxOutputSize`: every byte its commands produce in a run, piped, substituted
   * or redirected into files, not only what reaches the sink (the run's `outputBytesMax` caps
   * that, in the OutputPump). 128 MiB is the most workerd's zlib accepts as gzip's bound.
   */
  producedBytesMax: 128 * 1024 * 1024,
  /** The scratch filesystem (/tmp, /home/user) lives in the isolate's 128 MB heap; leave room for the shell. */
  scratchBytesMax: 64 * 1024 * 1024,
  /**
   * /dev/urandom and /dev/zero are files of this size made for each run (just-bash reads a
   * file whole, so an endless device cannot be one): enough for the keys, tokens and
   * padding scripts draw from them, small enough to cost nothing per run.
   */
  deviceBytes: 64 * 1024,
  /** After the timeout, how long the shell gets to stop at a statement boundary before the run is given up on. */
  stopGraceMs: 2_000,
  /** Workspace paths longer than this are refused before an RPC (the workspace refuses them too). */
  symlinkDepthMax: 40,
} as const;
