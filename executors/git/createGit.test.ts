import { describe, expect, it } from "vitest";
import { MemoryFs } from "../shell/guest/memoryFs.ts";
import { createGit, GitError, gitFsFromCapability } from "./index.ts";

const author = { name: "Ada", email: "ada@example.com" };

async function repo(files: Record<string, string> = { "/p/a.txt": "one\n", "/p/src/b.txt": "bee\n" }) {
  const memory = new MemoryFs();
  for (const [path, content] of Object.entries(files)) memory.put(path, content);
  const git = createGit(gitFsFromCapability(memory), { dir: "/p", author });
  await git.init();
  return { memory, git };
}

describe("gitFsFromCapability", () => {
  it("gives stats with type bits and Node-style errors", async () => {
    const memory = new MemoryFs();
    memory.put("/x/run.sh", "#!/bin/sh\n");
    await memory.chmod("/x/run.sh", 0o755);
    await memory.symlink("run.sh", "/x/link");
    const { promises: fs } = gitFsFromCapability(memory);
    expect((await fs.lstat("//x/./run.sh")).mode).toBe(0o100755);
    expect((await fs.lstat("/x/link")).mode).toBe(0o120777);
    expect((await fs.lstat("/x/link")).isSymbolicLink()).toBe(true);
    expect((await fs.stat("/x")).mode).toBe(0o040755);
    expect(await fs.readFile("/x/run.sh", "utf8")).toBe("#!/bin/sh\n");
    await expect(fs.readFile("/x/nope")).rejects.toMatchObject({ code: "ENOENT" });
    await expect(fs.rmdir("/x/run.sh")).rejects.toMatchObject({ code: "ENOTDIR" });
    await expect(fs.mkdir("/x")).rejects.toMatchObject({ code: "EEXIST" });
  });
});

describe("createGit", () => {
  it("reports each kind of change the way git's short status does", async () => {
    const { memory, git } = await repo({ "/p/keep": "k\n", "/p/mod": "m\n", "/p/gone": "g\n", "/p/both": "b\n" });
    await git.add(".");
    await git.commit({ message: "first" });
    memory.put("/p/mod", "m2\n");
    await memory.rm("/p/gone");
    memory.put("/p/both", "b2\n");
    await git.add("both");
    memory.put("/p/both", "b3\n");
    memory.put("/p/new", "n\n");
    memory.put("/p/staged", "s\n");
    await git.add("staged");
    memory.put("/p/staged", "s2\n");
    const codes = (await git.status()).map((e) => `${e.code} ${e.path}`);
    expect(codes).toEqual(["MM both", " D gone", " M mod", "?? new", "AM staged"]);
    const staged = await git.status({ paths: ["staged"] });
    expect(staged).toEqual([{ path: "staged", staged: "new", unstaged: "modified", code: "AM" }]);
  });

  it("sees a same-size rewrite made in the same millisecond as the add (racy git)", async () => {
    const { memory, git } = await repo({ "/p/f": "aaaa\n" });
    // One millisecond for everything, as a Worker's clock gives between I/O events.
    const instant = new Date(Date.now() + 60_000).toISOString();
    const freeze = (path: string) => {
      const node = memory.nodes.get(path);
      if (node) node.mtime = instant;
    };
    freeze("/p/f");
    await git.add("f");
    freeze("/p/.git/index");
    memory.put("/p/f", "bbbb\n");
    freeze("/p/f");
    expect((await git.status()).map((e) => e.code)).toEqual(["AM"]);
    expect(await git.diff()).toContain("-aaaa\n+bbbb\n");
  });

  it("commits modes and symlinks as git records them", async () => {
    const { memory, git } = await repo({ "/p/run.sh": "echo hi\n" });
    await memory.chmod("/p/run.sh", 0o755);
    await memory.symlink("run.sh", "/p/link");
    await git.add(".");
    const { oid, root, branch, paths } = await git.commit({ message: "modes\n\n" });
    expect({ root, branch, paths }).toEqual({ root: true, branch: "main", paths: ["link", "run.sh"] });
    const changes = await git.changes({ to: oid });
    expect(changes.map((c) => [c.path, c.newMode?.toString(8)])).toEqual([
      ["link", "120000"],
      ["run.sh", "100755"],
    ]);
    const [commit] = await git.log();
    expect(commit).toMatchObject({ oid, message: "modes\n", subject: "modes", parents: [], author });
    expect(await git.status()).toEqual([]);
  });

  it("diffs commits, the index and the working tree with git's choice of sides", async () => {
    const { memory, git } = await repo();
    await git.add(".");
    await git.commit({ message: "one" });
    memory.put("/p/a.txt", "one\ntwo\n");
    await git.add("a.txt");
    await git.commit({ message: "two" });
    memory.put("/p/a.txt", "one\ntwo\nthree\n");
    expect(await git.diff()).toContain("@@ -1,2 +1,3 @@\n one\n two\n+three\n");
    expect(await git.diff({ cached: true })).toBe("");
    expect(await git.diff({ from: "HEAD~1" })).toContain("@@ -1 +1,3 @@\n one\n+two\n+three\n");
    expect(await git.diff({ from: "HEAD~1", to: "HEAD" })).toContain("@@ -1 +1,2 @@\n one\n+two\n");
    expect(await git.diff({ from: "HEAD~1", paths: ["src"] })).toBe("");
    const [change] = await git.changes({ from: "HEAD~1", to: "HEAD" });
    expect(change).toMatchObject({ path: "a.txt", status: "modified", added: 1, removed: 0 });
  });

  it("creates, switches and deletes branches", async () => {
    const { memory, git } = await repo();
    await git.add(".");
    await git.commit({ message: "one" });
    await git.checkout({ ref: "feature", create: true });
    memory.put("/p/f.txt", "f\n");
    await git.add("f.txt");
    const { oid } = await git.commit({ message: "feature work" });
    expect(await git.branch.list()).toEqual(["feature", "main"]);
    await git.checkout({ ref: "main" });
    expect(memory.text("/p/f.txt")).toBeUndefined();
    await expect(git.branch.delete("feature")).rejects.toMatchObject({ code: "BranchNotDeletable" });
    await expect(git.branch.delete("main")).rejects.toMatchObject({ code: "BranchNotDeletable" });
    await git.checkout({ ref: oid });
    expect(await git.branch.current()).toBeNull();
    expect(memory.text("/p/f.txt")).toBe("f\n");
    await git.checkout({ ref: "main" });
    expect(await git.branch.delete("feature", { force: true })).toEqual({ oid });
    await expect(git.branch.create("main")).rejects.toMatchObject({ code: "BranchExists" });
  });

  it("fails with GitError codes callers can branch on", async () => {
    const memory = new MemoryFs();
    const git = createGit(gitFsFromCapability(memory), { dir: "/" });
    await expect(git.status()).rejects.toMatchObject({ code: "NotAGitRepository" });
    await git.init();
    expect(await git.init()).toEqual({ created: false });
    await expect(git.log()).rejects.toMatchObject({ code: "NoCommits" });
    await expect(git.commit({ message: "x" })).rejects.toMatchObject({ code: "NothingToCommit" });
    await expect(git.add("missing")).rejects.toBeInstanceOf(GitError);
    memory.put("/a", "a");
    await git.add("a");
    await expect(git.commit({ message: "  \n" })).rejects.toMatchObject({ code: "EmptyMessage" });
    await expect(git.commit({ message: "x", author: "nobody" })).rejects.toMatchObject({ code: "InvalidAuthor" });
    await expect(git.resolve("nope")).rejects.toMatchObject({ code: "UnknownRevision" });
    expect((await git.commit({ message: "x" })).root).toBe(true);
    await expect(git.resolve("HEAD~1")).rejects.toMatchObject({ code: "UnknownRevision" });
  });
});
