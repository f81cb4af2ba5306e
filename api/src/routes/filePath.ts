/** The `{path}` part of file URLs: everything after `/files/`, checked by the workspace's path rules. */
import { z } from "@hono/zod-openapi";
import { normalizePath } from "../../../tenants/workspace/paths.ts";
import { ApiError } from "../errors.ts";

export const FilePath = z.string().openapi({
  param: { name: "path", in: "path" },
  description: "The file's path inside the workspace, without the leading slash; `/` separators are allowed.",
  example: "src/main.ts",
});

/** Normalises a URL path into a workspace path, or answers 400 with why it was refused. */
export function workspacePath(raw: string): string {
  const result = normalizePath(raw);
  if (!result.ok) {
    throw new ApiError("invalid_path", result.detail, {
      errors: [{ in: "path", pointer: "/path", detail: result.detail }],
    });
  }
  if (result.path === "/") throw new ApiError("invalid_path", "the workspace root is a directory, not a file");
  return result.path;
}
