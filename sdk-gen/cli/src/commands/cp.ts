/**
 * `cubicle cp <src> <dst>`: copies a file or a directory tree between this machine and a
 * workspace (`ws:<id>:/path`), in either direction, as `cp -r` would name the result: into
 * an existing directory (or one named with a trailing `/`) under the source's name, else
 * as the destination itself. Directories come first, then files, a few at a time, with a
 * progress bar on a terminal for large copies. Symbolic links are skipped, and said so.
 */
import { existsSync, mkdirSync, openAsBlob, readdirSync, statSync, writeFileSync } from "node:fs";
import { basename, join, relative } from "node:path";
import type { Workspace } from "@cubicle/sdk";
import { Presets, SingleBar } from "cli-progress";
import type { Command } from "commander";
import { cliLimits } from "../limits.ts";
import { CliError, clientFor, examples, flagsOf, formatBytes, printJson } from "../output.ts";
import { joinRemote, parseRemote, type RemotePath } from "../remotePath.ts";
import { workspaceById } from "../workspace.ts";

interface Plan {
  dirs: string[];
  files: { from: string; to: string; size: number; mode: number }[];
  skipped: string[];
}

export function registerCp(program: Command): void {
  program
    .command("cp")
    .description("copy files and directory trees between here and a workspace (ws:<id>:/path)")
    .argument("<src>", "a local path, or ws:<workspace id>:/path")
    .argument("<dst>", "a local path, or ws:<workspace id>:/path")
    .addHelpText(
      "after",
      examples("cubicle cp ./src ws:$WS:/src", "cubicle cp ws:$WS:/out ./out", "cubicle cp report.md ws:$WS:/docs/"),
    )
    .action(async (src: string, dst: string, _options: unknown, command: Command) => {
      const flags = flagsOf(command);
      const client = clientFor(flags);
      const [from, to] = [parseRemote(src), parseRemote(dst)];
      if (Boolean(from) === Boolean(to))
        throw new CliError("one of <src> and <dst> must be ws:<id>:/path, and only one", 2);
      let done: { files: number; dirs: number; bytes: number; skipped: string[] };
      if (to) {
        const workspace = workspaceById(client, to.workspaceId);
        done = await run(
          await planUpload(src, to, workspace),
          (file) => upload(workspace, file),
          (dir) => workspace.files.mkdir(dir, { recursive: true }),
        );
      } else {
        const remote = from as RemotePath;
        const workspace = workspaceById(client, remote.workspaceId);
        done = await run(
          await planDownload(remote, dst, workspace),
          (file) => download(workspace, file),
          (dir) => mkdirSync(dir, { recursive: true }),
        );
      }
      for (const path of done.skipped) process.stderr.write(`cubicle: skipped ${path}: not a file or directory\n`);
      if (flags.json) printJson(done);
      else
        process.stdout.write(
          `copied ${done.files} file${done.files === 1 ? "" : "s"} (${formatBytes(done.bytes)}) to ${dst}\n`,
        );
    });
}

async function planUpload(local: string, remote: RemotePath, workspace: Workspace): Promise<Plan> {
  const stat = statOrNull(local);
  if (!stat) throw new CliError(`${local}: no such file or directory`);
  const into = remote.intoDirectory || (await remoteType(workspace, remote.path)) === "dir";
  const root = into ? joinRemote(remote.path, basename(local)) : remote.path;
  if (stat.isFile())
    return { dirs: [], files: [{ from: local, to: root, size: stat.size, mode: stat.mode }], skipped: [] };
  const plan: Plan = { dirs: [root], files: [], skipped: [] };
  for (const entry of readdirSync(local, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    const target = joinRemote(root, relative(local, path).split("\\").join("/"));
    if (entry.isDirectory()) plan.dirs.push(target);
    else if (entry.isFile()) plan.files.push({ from: path, to: target, size: statSync(path).size, mode: 0 });
    else plan.skipped.push(path);
  }
  return plan;
}

async function planDownload(remote: RemotePath, local: string, workspace: Workspace): Promise<Plan> {
  const info = await workspace.files.stat(remote.path);
  const localIsDir = statOrNull(local)?.isDirectory() ?? false;
  const into = localIsDir || local.endsWith("/");
  const root = into ? join(local, basename(remote.path)) : local;
  if (info.type === "file")
    return { dirs: [], files: [{ from: remote.path, to: root, size: info.size, mode: info.mode }], skipped: [] };
  if (info.type !== "dir") return { dirs: [], files: [], skipped: [remote.path] };
  const plan: Plan = { dirs: [root], files: [], skipped: [] };
  const base = remote.path === "/" ? "" : remote.path;
  for await (const entry of workspace.files.list(remote.path, { recursive: true })) {
    const target = join(root, ...entry.path.slice(base.length).split("/").filter(Boolean));
    if (entry.type === "dir") plan.dirs.push(target);
    else if (entry.type === "file")
      plan.files.push({ from: entry.path, to: target, size: entry.size, mode: entry.mode });
    else plan.skipped.push(entry.path);
  }
  return plan;
}

async function run(
  plan: Plan,
  copy: (file: Plan["files"][number]) => Promise<unknown>,
  makeDir: (dir: string) => unknown,
) {
  for (const dir of plan.dirs) await makeDir(dir);
  const bytes = plan.files.reduce((sum, file) => sum + file.size, 0);
  const bar =
    process.stderr.isTTY && bytes >= cliLimits.progressBytesMin ? progressBar(bytes, plan.files.length) : null;
  let copied = 0;
  let next = 0;
  const worker = async () => {
    for (let file = plan.files[next++]; file; file = plan.files[next++]) {
      await copy(file);
      copied++;
      bar?.increment(file.size, { files: copied });
    }
  };
  try {
    await Promise.all(Array.from({ length: cliLimits.copyConcurrency }, worker));
  } finally {
    bar?.stop();
  }
  return { files: copied, dirs: plan.dirs.length, bytes, skipped: plan.skipped };
}

function progressBar(totalBytes: number, totalFiles: number): SingleBar {
  const bar = new SingleBar(
    {
      stream: process.stderr,
      format: `{bar} {percentage}% | {value}/{total} bytes | {files}/${totalFiles} files | {eta_formatted}`,
      hideCursor: true,
    },
    Presets.shades_classic,
  );
  bar.start(totalBytes, 0, { files: 0 });
  return bar;
}

/** A file streams from disk (`openAsBlob`): a large one is never held in memory whole. */
async function upload(workspace: Workspace, file: Plan["files"][number]) {
  return workspace.files.write(file.to, await openAsBlob(file.from));
}

async function download(workspace: Workspace, file: Plan["files"][number]) {
  writeFileSync(file.to, await workspace.files.read(file.from), { mode: file.mode & 0o777 });
}

async function remoteType(workspace: Workspace, path: string): Promise<string | null> {
  try {
    return (await workspace.files.stat(path)).type;
  } catch (error) {
    if ((error as { status?: number }).status === 404) return null;
    throw error;
  }
}

function statOrNull(path: string) {
  return existsSync(path) ? statSync(path) : null;
}
