/**
 * The shell's `publish` and `share` commands: thin clients of the run's tools capability
 * (WorkspaceToolsApi), which the workspace object binds to this workspace, the run's path
 * prefix and credential. The commands only turn shell paths into workspace paths and print.
 *
 *   publish <path> [--json]          publishes a file or directory as an artifact; prints its
 *                                    id, digest, size and download URL, or with --json the
 *                                    whole ArtifactInfo
 *   share <path> [--ttl <seconds>] [--json]
 *                                    prints a public link to one file (default ttl one hour)
 */
import { type Command, defineCommand } from "just-bash";
import type { FsError, WorkspaceToolsApi } from "../../contract.ts";

/** `share` without `--ttl`: an hour, the API's default too (tenants/shares/limits.ts, not importable from a guest). */
const shareTtlSecondsDefault = 3600;

type Result = { stdout: string; stderr: string; exitCode: number };

const ok = (stdout: string): Result => ({ stdout, stderr: "", exitCode: 0 });
const failed = (name: string, message: string, exitCode = 1): Result => ({
  stdout: "",
  stderr: `${name}: ${message}\n`,
  exitCode,
});

/** A workspace path (`/dist`) for a shell path, or null when it is outside the workspace mount. */
export function workspacePathOf(absolute: string, mountPoint: string): string | null {
  if (absolute === mountPoint) return "/";
  return absolute.startsWith(`${mountPoint}/`) ? absolute.slice(mountPoint.length) : null;
}

export function publishCommands(tools: WorkspaceToolsApi | null, mountPoint: string): Command[] {
  const resolve = (name: string, arg: string, cwd: string, fs: { resolvePath(base: string, path: string): string }) => {
    const path = workspacePathOf(fs.resolvePath(cwd, arg), mountPoint);
    return path ?? failed(name, `${arg}: not in the workspace (${mountPoint}); only workspace files can be published`);
  };
  const explain = (name: string, arg: string, error: FsError) =>
    failed(name, `${arg}: ${error.message} (${error.code})`);

  const publish = defineCommand("publish", async (args, ctx) => {
    const json = args.includes("--json");
    const paths = args.filter((a) => a !== "--json");
    if (paths.length !== 1 || paths[0]?.startsWith("-")) return failed("publish", "usage: publish <path> [--json]", 2);
    if (!tools) return failed("publish", "publishing is not available in this run", 126);
    const arg = paths[0] as string;
    const path = resolve("publish", arg, ctx.cwd, ctx.fs);
    if (typeof path !== "string") return path;
    const result = await tools.publish(path);
    if (!result.ok) return explain("publish", arg, result);
    const { artifact } = result;
    if (json) return ok(`${JSON.stringify(artifact)}\n`);
    return ok(
      `${artifact.id}\n` +
        `digest    ${artifact.digest}\n` +
        `files     ${artifact.files.length} (${artifact.bytes} bytes)\n` +
        `download  ${artifact.downloadUrl}\n`,
    );
  });

  const share = defineCommand("share", async (args, ctx) => {
    const usage = "usage: share <path> [--ttl <seconds>] [--json]";
    let ttlSeconds = shareTtlSecondsDefault;
    let json = false;
    const paths: string[] = [];
    for (let i = 0; i < args.length; i++) {
      const arg = args[i] as string;
      if (arg === "--json") json = true;
      else if (arg === "--ttl") {
        const value = Number(args[++i]);
        if (!Number.isInteger(value) || value <= 0) return failed("share", `--ttl wants whole seconds; ${usage}`, 2);
        ttlSeconds = value;
      } else if (arg.startsWith("-")) return failed("share", usage, 2);
      else paths.push(arg);
    }
    if (paths.length !== 1) return failed("share", usage, 2);
    if (!tools) return failed("share", "sharing is not available in this run", 126);
    const arg = paths[0] as string;
    const path = resolve("share", arg, ctx.cwd, ctx.fs);
    if (typeof path !== "string") return path;
    const result = await tools.share(path, ttlSeconds);
    if (!result.ok) return explain("share", arg, result);
    return ok(json ? `${JSON.stringify(result.share)}\n` : `${result.share.url}\n`);
  });

  return [publish, share];
}
