/** The dashboard's limits, each with the reason for its value. */
export const dashboardLimits = {
  /** A session is a short-lived token: a stolen cookie is worth an hour at most; signing in again is one paste. */
  sessionTtlSeconds: 3600,
  /** The longest pasted credential accepted at sign-in; a key is 44 characters. */
  credentialLengthMax: 256,
  /** Rows on a list page (keys, workspaces, runs, files); the API's own page maximum. */
  pageRowsMax: 100,
  /** The largest file shown inline as a preview; bigger ones are offered as a download only. */
  previewBytesMax: 64 * 1024,
  /** The largest PDF previewed: the page reads it whole into the browser to hand it to the preview frame. */
  pdfPreviewBytesMax: 16 * 1024 * 1024,
  /** Pages a PDF preview draws; a report's first pages show what it is, and each page is a full-width canvas. */
  pdfPreviewPagesMax: 20,
  /** Output shown for one run; the rest is a download away through the API. */
  runOutputBytesMax: 64 * 1024,
  /** Change-log entries the timeline reads for restores: the API's own change-log page maximum (`GET …/fs/changes`). */
  timelineChangesMax: 1_000,
  /** Files whose patch a diff page draws: a page a person scrolls; the file list still names every change. */
  diffPatchFilesMax: 100,
  /** Bytes of changed files (both sides) past which a diff page lists the files without their patch, which the API has. */
  diffPatchBytesMax: 1024 * 1024,
} as const;
