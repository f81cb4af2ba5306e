/** Limits of the CLI, each with the reason it exists. */
export const cliLimits = {
  /** Files `cp` moves at once: enough to hide a round trip's latency, few enough to stay under the rate limit's burst. */
  copyConcurrency: 4,
  /** From this many bytes a copy shows a progress bar (on a terminal): below it, it is over before a bar would help. */
  progressBytesMin: 1024 * 1024,
  /** Lines the shell keeps in its history file, as bash's default HISTFILESIZE. */
  historyLinesMax: 500,
} as const;
