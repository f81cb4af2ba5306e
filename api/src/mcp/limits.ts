/** Limits of the MCP endpoint, each with the reason it exists. */
export const mcpLimits = {
  /**
   * Resources `resources/list` names in one page: a client lists them to offer a picker, and
   * a workspace may hold a million files; the next page is a cursor away.
   */
  resourcesPageMax: 500,
  /** Workspaces one `resources/list` page walks: each costs a `find` call billed as a request. */
  resourceWorkspacesPageMax: 20,
  /**
   * A file's bytes `file_read` and `resources/read` return inline: the answer goes into a
   * model's context, where megabytes help no one; a larger file is read by range.
   */
  readBytesMax: 1024 * 1024,
  /**
   * Output events of one exec that become progress notifications. Past it the run goes on
   * and its output is still in the final result; the client is spared a flood of frames.
   */
  progressEventsMax: 10_000,
} as const;
