/**
 * The MCP tools, one row each: the REST operation it stands for and a description written
 * for a model. Rows without `run` pass their arguments to the operation as they are.
 * Snapshot, fork, diff and restore (issue 22) become rows here once their routes exist.
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
      'List a directory of a workspace (`recursive: "true"` for the whole subtree): names, types, sizes, modification times.',
    annotations: { title: "List a directory", ...readOnly },
  },
  {
    name: "grep",
    operationId: "grep",
    description:
      "Search file contents of a workspace with a regular expression (RE2: no backreferences or lookaround); answers path, line number and line of each match. Faster than running grep.",
    annotations: { title: "Search file contents", ...readOnly },
  },
  {
    name: "find",
    operationId: "find",
    description: "Find files and directories of a workspace by name glob (`*.ts`), type, size or modification time.",
    annotations: { title: "Find files", ...readOnly },
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
