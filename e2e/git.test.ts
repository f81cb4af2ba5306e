/**
 * Git interoperability, both ways, through the public API and the real `git` (/usr/bin/git):
 * a repository made by the shell's `git` (two commits, a branch, an executable and a
 * symlink) is copied out file by file and must pass `git fsck --strict` with the same
 * history, a clean status and the expected diff; and a repository made by the real git and
 * uploaded into a workspace must show the same history and diff in the shell.
 */
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newWorkspace, signUp } from "./platform.ts";
import { sharedPlatform } from "./sharedPlatform.ts";

const platform = sharedPlatform();
let auth: Record<string, string>;
const temps: string[] = [];

beforeAll(async () => {
  ({ auth } = await signUp(platform.url, "git@example.com"));
});

afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "cubicle-git-"));
  temps.push(dir);
  return dir;
}

/** The real git, with no user or system configuration of this machine. */
function realGit(cwd: string, args: string[]) {
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: cwd, GIT_CONFIG_NOSYSTEM: "1", LC_ALL: "C" };
  const result = spawnSync("/usr/bin/git", args, { cwd, env, encoding: "utf8" });
  return { stdout: result.stdout, stderr: result.stderr, status: result.status };
}

async function api(path: string, init: RequestInit = {}): Promise<Response> {
  const response = await fetch(`${platform.url}${path}`, { ...init, headers: { ...auth, ...init.headers } });
  if (!response.ok) throw new Error(`${init.method ?? "GET"} ${path}: ${response.status} ${await response.text()}`);
  return response;
}

const json = { "content-type": "application/json" };
const encoded = (path: string) => path.split("/").filter(Boolean).map(encodeURIComponent).join("/");

async function put(workspaceId: string, path: string, content: string | Uint8Array): Promise<void> {
  const body = typeof content === "string" ? content : new Uint8Array(content);
  await api(`/v1/workspaces/${workspaceId}/files/${encoded(path)}`, {
    method: "PUT",
    headers: { "content-type": "application/octet-stream" },
    body,
  });
}

async function shell(workspaceId: string, command: string) {
  const response = await api(`/v1/workspaces/${workspaceId}/exec`, {
    method: "POST",
    headers: json,
    body: JSON.stringify({ executor: "shell", command, timeoutMs: 60_000 }),
  });
  return (await response.json()) as { stdout: string; stderr: string; exitCode: number };
}

interface Entry {
  path: string;
  type: "file" | "dir" | "symlink";
  mode: number;
  target?: string;
}

/** Every entry under `path`, through the paginated recursive listing. */
async function listAll(workspaceId: string, path: string): Promise<Entry[]> {
  const entries: Entry[] = [];
  let cursor: string | null = null;
  do {
    const query = new URLSearchParams({ path, recursive: "true", limit: "1000", ...(cursor ? { cursor } : {}) });
    const page = (await (await api(`/v1/workspaces/${workspaceId}/fs/list?${query}`)).json()) as {
      entries: Entry[];
      nextCursor: string | null;
    };
    entries.push(...page.entries);
    cursor = page.nextCursor;
  } while (cursor);
  return entries;
}

/** Copies the workspace's `from` directory into `to` on this machine: files, modes, symlinks. */
async function copyOut(workspaceId: string, from: string, to: string): Promise<number> {
  const entries = await listAll(workspaceId, from);
  for (const entry of entries) {
    const local = join(to, entry.path.slice(from.length));
    if (entry.type === "dir") mkdirSync(local, { recursive: true });
    else if (entry.type === "symlink") symlinkSync(entry.target ?? "", local);
    else {
      const bytes = new Uint8Array(
        await (await api(`/v1/workspaces/${workspaceId}/files/${encoded(entry.path)}`)).arrayBuffer(),
      );
      writeFileSync(local, bytes);
      chmodSync(local, entry.mode & 0o777);
    }
  }
  return entries.length;
}

/** Every file under `dir` on this machine, as paths relative to it. */
function localFiles(dir: string, prefix = ""): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((entry) => {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    return entry.isDirectory() ? localFiles(dir, path) : [path];
  });
}

describe("git interoperability", () => {
  it("makes repositories the real git reads: fsck, log, status and diff agree", async () => {
    const workspaceId = await newWorkspace(platform.url, auth);
    await put(workspaceId, "/proj/README.md", "# Project\n");
    await put(workspaceId, "/proj/src/app.ts", 'export const app = "v1";\n');
    await put(workspaceId, "/proj/src/util.ts", "export const add = (a: number, b: number) => a + b;\n");
    await put(workspaceId, "/proj/bin/run.sh", "#!/bin/sh\necho run\n");
    const script = [
      "set -e",
      "cd proj",
      "git init -q",
      "chmod +x bin/run.sh",
      "ln -s src/app.ts app-link.ts",
      "git add .",
      'git commit -q -m "first commit" --author "Ada <ada@example.com>"',
      "git checkout -q -b feature",
      `printf 'export const app = "v2";\\nexport const extra = 1;\\n' > src/app.ts`,
      "rm src/util.ts",
      "echo notes > NOTES.md",
      "git add -A",
      'git commit -q -m "second commit"',
      "git log --oneline",
      "git status --porcelain",
    ].join("\n");
    const made = await shell(workspaceId, script);
    expect(made.stderr).toBe("");
    expect(made.exitCode).toBe(0);
    const cubicleLog = made.stdout.trimEnd().split("\n");
    expect(cubicleLog).toHaveLength(2);
    expect(cubicleLog[0]).toMatch(/^[0-9a-f]{7} second commit$/);
    expect(cubicleLog[1]).toMatch(/^[0-9a-f]{7} first commit$/);

    const local = tempDir();
    expect(await copyOut(workspaceId, "/proj", local)).toBeGreaterThan(10);

    const fsck = realGit(local, ["fsck", "--strict", "--full"]);
    expect(fsck.stderr).toBe("");
    expect(fsck.status).toBe(0);
    const log = realGit(local, ["log", "--oneline"]);
    expect(log.status).toBe(0);
    expect(log.stdout.trimEnd().split("\n")).toEqual(cubicleLog);
    const status = realGit(local, ["status", "--porcelain"]);
    expect(status).toMatchObject({ status: 0, stdout: "" });
    const stat = realGit(local, ["diff", "HEAD~1", "--stat"]);
    expect(stat.status).toBe(0);
    expect(stat.stdout).toBe(
      [
        " NOTES.md    | 1 +",
        " src/app.ts  | 3 ++-",
        " src/util.ts | 1 -",
        " 3 files changed, 3 insertions(+), 2 deletions(-)",
        "",
      ].join("\n"),
    );
    expect(realGit(local, ["branch", "--format=%(refname:short)"]).stdout).toBe("feature\nmain\n");
    const tree = realGit(local, ["ls-tree", "-r", "HEAD~1"]).stdout;
    expect(tree).toMatch(/^120000 blob [0-9a-f]{40}\tapp-link.ts$/m);
    expect(tree).toMatch(/^100755 blob [0-9a-f]{40}\tbin\/run.sh$/m);
    const first = realGit(local, ["log", "-1", "--format=%an <%ae>|%cn", "HEAD~1"]).stdout;
    expect(first).toBe("Ada <ada@example.com>|Ada\n");
  });

  it("reads repositories the real git made", async () => {
    const local = tempDir();
    const run = (args: string[]) => {
      const result = realGit(local, args);
      if (result.status !== 0) throw new Error(`git ${args.join(" ")}: ${result.stderr}`);
      return result.stdout;
    };
    run(["init", "-q", "-b", "main"]);
    run(["config", "user.name", "Grace"]);
    run(["config", "user.email", "grace@example.com"]);
    writeFileSync(join(local, "a.txt"), "alpha\n");
    mkdirSync(join(local, "lib"));
    writeFileSync(join(local, "lib/b.txt"), "beta\n");
    run(["add", "."]);
    run(["commit", "-q", "-m", "made by git"]);
    writeFileSync(join(local, "a.txt"), "alpha\nmore\n");
    run(["commit", "-q", "-am", "changed by git"]);
    const gitLog = run(["log", "--oneline"]);
    const gitNumstat = run(["diff", "HEAD~1", "--numstat"]);

    const workspaceId = await newWorkspace(platform.url, auth);
    for (const path of localFiles(local)) await put(workspaceId, `/repo/${path}`, readFileSync(join(local, path)));
    const shown = await shell(
      workspaceId,
      "cd repo && git log --oneline && git diff HEAD~1 --numstat && git status --porcelain",
    );
    expect(shown.stderr).toBe("");
    expect(shown.exitCode).toBe(0);
    expect(shown.stdout).toBe(`${gitLog}${gitNumstat}`);
    const committed = await shell(
      workspaceId,
      "cd repo && echo gamma > c.txt && git add c.txt && git commit -q -m 'made by cubicle' && git log --format=%an",
    );
    expect(committed.stdout).toBe("Grace\nGrace\nGrace\n");
  });
});
