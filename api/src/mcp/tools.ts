/**
 * The MCP tools, one row each: the REST operation it stands for and a description written
 * for a model. Rows without `run` pass their arguments to the operation as they are.
 */
import { execTool } from "./execTool.ts";
import { fileReadTool, fileWriteTool } from "./fileTools.ts";
import type { Tool } from "./tool.ts";

const readOnly = { readOnlyHint: true, openWorldHint: false } as const;

export const TOOLS: readonly Tool[] = [
  {
    name: "workspace_create",
    operationId: "createWorkspace",
    description:
      "Create a workspace: a persistent filesystem that every executor sees at /workspace. Answers its `id`, which the other tools take as `workspaceId`.",
    annotations: { title: "Create a workspace", readOnlyHint: false, destructiveHint: false, openWorldHint: false },
  },
  {
    name: "workspace_list",
    operationId: "listWorkspaces",
    description: "List the workspaces this credential can reach, oldest first; page with `cursor` (`nextCursor`).",
    annotations: { title: "List workspaces", ...readOnly },
  },
  {
    name: "workspace_delete",
    operationId: "deleteWorkspace",
    description: "Delete a workspace and every file in it. It cannot be undone.",
    annotations: { title: "Delete a workspace", readOnlyHint: false, destructiveHint: true, openWorldHint: false },
  },
  execTool,
  fileReadTool,
  fileWriteTool,
  {
    name: "file_list",
    operationId: "listPath",
    description:
      'List a directory of a workspace (`recursive: "true"` for the whole subtree): names, types, sizes, modification times. `at` (a snapshot id or a kept revision) lists it as it was then.',
    annotations: { title: "List a directory", ...readOnly },
  },
  {
    name: "grep",
    operationId: "grep",
    description:
      "Search file contents of a workspace with a regular expression (RE2: no backreferences or lookaround); answers path, line number and line of each match. Faster than running grep. `at` (a snapshot id or a kept revision) searches the files as they were then.",
    annotations: { title: "Search file contents", ...readOnly },
  },
  {
    name: "find",
    operationId: "find",
    description:
      "Find files and directories of a workspace by name glob (`*.ts`), type, size or modification time. `at` (a snapshot id or a kept revision) searches the tree as it was then.",
    annotations: { title: "Find files", ...readOnly },
  },
  {
    name: "snapshot_create",
    operationId: "createSnapshot",
    description:
      'Pin the workspace\'s current version under a snapshot id, copying nothing: take one before a risky change, then `restore` it to undo. (`exec` with `snapshot: "before"` takes one just before a command.)',
    annotations: { title: "Take a snapshot", readOnlyHint: false, destructiveHint: false, openWorldHint: false },
  },
  {
    name: "snapshot_list",
    operationId: "listSnapshots",
    description: "List a workspace's snapshots, oldest first: id, name, revision, size and file count.",
    annotations: { title: "List snapshots", ...readOnly },
  },
  {
    name: "snapshot_delete",
    operationId: "deleteSnapshot",
    description: "Delete a snapshot. The files it pinned stay as they are in the live workspace.",
    annotations: { title: "Delete a snapshot", readOnlyHint: false, destructiveHint: true, openWorldHint: false },
  },
  {
    name: "workspace_fork",
    operationId: "forkWorkspace",
    description:
      "Fork a workspace into a new one with the same files, at a snapshot (`snapshotId`), a kept revision (`revision`), or as it is now (neither): try an alternative without touching the original. Nothing is copied up front; answers the new workspace's `id`.",
    annotations: { title: "Fork a workspace", readOnlyHint: false, destructiveHint: false, openWorldHint: false },
  },
  {
    name: "restore",
    operationId: "restoreWorkspace",
    description:
      "Make the whole workspace equal to a snapshot (`snapshotId`) or a kept revision (`revision`); the answer names it as `restoredTo`. The restore is a new revision itself, so it can be undone the same way; a workspace already equal to it is left alone (`changedPaths` 0).",
    annotations: { title: "Restore a version", readOnlyHint: false, destructiveHint: true, openWorldHint: false },
  },
  {
    name: "diff",
    operationId: "diffWorkspace",
    description:
      'What changed between two versions (snapshot ids, revisions, or `to: "live"`): paths added, modified, deleted or renamed; `path` keeps one file or directory; `format: "patch"` for a unified diff of the text files (at most 8 MiB: narrow a larger one with `path`).',
    annotations: { title: "Diff two versions", ...readOnly },
  },
  {
    name: "file_history",
    operationId: "fileHistory",
    description:
      "The kept versions of one file: revision, time, size, ETag, the exec or key that made each, and `readAt`: pass it as `at` to `file_read` to read that version.",
    annotations: { title: "A file's history", ...readOnly },
  },
  {
    name: "share_create",
    operationId: "createShare",
    description:
      "Make a public link to one file of a workspace, for a person to open without a credential, until it expires (`ttlSeconds`).",
    annotations: { title: "Share a file", readOnlyHint: false, destructiveHint: false, openWorldHint: true },
  },
  {
    name: "usage",
    operationId: "getUsage",
    description:
      "Metered usage over time, per meter (or per workspace or key with `groupBy`): requests, run time, storage, egress.",
    annotations: { title: "Usage", ...readOnly },
  },
  {
    name: "quotas",
    operationId: "getQuotas",
    description: "What the plan allows this period, per meter, and how much is used: check before a large job.",
    annotations: { title: "Quotas", ...readOnly },
  },
];
