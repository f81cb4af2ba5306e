import { describe, expect, it } from "vitest";
import { sh } from "./harness.ts";
import { MemoryFs } from "./memoryFs.ts";

const env = { GIT_AUTHOR_NAME: "Ada", GIT_AUTHOR_EMAIL: "ada@example.com" };

/** A workspace with a repository holding one commit of a.txt and src/b.txt. */
async function repo(): Promise<MemoryFs> {
  const fs = new MemoryFs();
  fs.put("/a.txt", "one\ntwo\nthree\n");
  fs.put("/src/b.txt", "bee\n");
  const { outcome, stderr } = await sh("git init && git add . && git commit -m 'first commit'", { fs, env });
  expect(stderr).toBe("");
  expect(outcome.exitCode).toBe(0);
  return fs;
}

describe("shell git: init, add, commit", () => {
  it("initialises, stages and commits, printing what git prints", async () => {
    const fs = new MemoryFs();
    fs.put("/a.txt", "hello\n");
    fs.put("/empty", "");
    const { outcome, stdout } = await sh("git init; git add .; git commit -m 'first'", { fs, env });
    expect(outcome.exitCode).toBe(0);
    const [init, header, stat, ...modes] = stdout.trimEnd().split("\n");
    expect(init).toBe("Initialized empty Git repository in /workspace/.git/");
    expect(header).toMatch(/^\[main \(root-commit\) [0-9a-f]{7}\] first$/);
    expect(stat).toBe(" 2 files changed, 1 insertion(+)");
    expect(modes).toEqual([" create mode 100644 a.txt", " create mode 100644 empty"]);
    expect(fs.text("/.git/HEAD")).toBe("ref: refs/heads/main\n");
    expect(fs.text("/.git/config")).toContain("filemode = true");
  });

  it("says so when there is nothing to commit, with exit 1", async () => {
    const fs = await repo();
    const { outcome, stdout } = await sh("git commit -m again", { fs, env });
    expect(outcome.exitCode).toBe(1);
    expect(stdout).toBe("On branch main\nnothing to commit, working tree clean\n");
  });

  it("stages deletions with add -A and tracked changes with commit -a", async () => {
    const fs = await repo();
    const script =
      "rm a.txt; echo more >> src/b.txt; echo new > c.txt; git commit -qam 'second'; git status --porcelain";
    const { stdout } = await sh(script, { fs, env });
    expect(stdout).toBe("?? c.txt\n");
    expect((await sh("git add -A && git status --porcelain", { fs, env })).stdout).toBe("A  c.txt\n");
  });

  it("takes the author from --author, then GIT_AUTHOR_*, then git config, then the default", async () => {
    const fs = await repo();
    const script = [
      "echo 1 > x; git add x; git commit -q -m one --author 'Bob <bob@example.com>'",
      "echo 0 > x; git -c user.name=Dan -c user.email=dan@example.com commit -qam zero",
      "git config user.name Carol; git config user.email carol@example.com; git config user.name",
      "echo 2 > x; git add x; git commit -q -m two",
      "git log --format='%an <%ae> %s'",
    ].join("\n");
    const { stdout } = await sh(script, { fs });
    expect(stdout).toBe(
      "Carol\nCarol <carol@example.com> two\nDan <dan@example.com> zero\nBob <bob@example.com> one\nAda <ada@example.com> first commit\n",
    );
    const fresh = new MemoryFs();
    fresh.put("/a", "a");
    const byDefault = await sh("git init -q; git add a; git commit -qm a; git log --format='%an <%ae>|%cn'", {
      fs: fresh,
    });
    expect(byDefault.stdout).toBe("Cubicle Agent <agent@cubicle.dev>|Cubicle Agent\n");
  });

  it("refuses a path that matches nothing", async () => {
    const fs = await repo();
    const { outcome, stderr } = await sh("git add nope.txt", { fs, env });
    expect(outcome.exitCode).toBe(128);
    expect(stderr).toBe("fatal: pathspec 'nope.txt' did not match any files\n");
  });
});

describe("shell git: status", () => {
  it("prints the long format with staged, unstaged and untracked sections", async () => {
    const fs = await repo();
    const script =
      "echo four >> a.txt; echo x > new.txt; git add new.txt; rm src/b.txt; mkdir -p out/deep; echo 1 > out/deep/f; git status";
    const { stdout } = await sh(script, { fs, env });
    expect(stdout).toBe(
      [
        "On branch main",
        "Changes to be committed:",
        "\tnew file:   new.txt",
        "",
        "Changes not staged for commit:",
        "\tmodified:   a.txt",
        "\tdeleted:    src/b.txt",
        "",
        "Untracked files:",
        "\tout/",
        "",
        "",
      ].join("\n"),
    );
  });

  it("prints -s relative to the working directory, --porcelain relative to the root", async () => {
    const fs = await repo();
    const script = "echo x >> a.txt; echo y > src/c.txt; cd src; git status -s; git status --porcelain";
    const { stdout } = await sh(script, { fs, env });
    expect(stdout).toBe(" M ../a.txt\n?? c.txt\n M a.txt\n?? src/c.txt\n");
  });

  it("reports no commits yet, and a clean tree", async () => {
    const fs = new MemoryFs();
    fs.put("/a", "a");
    expect((await sh("git init -q; git status", { fs })).stdout).toContain("On branch main\n\nNo commits yet\n");
    const clean = await sh("git add a; git commit -qm a; git status", { fs });
    expect(clean.stdout).toBe("On branch main\nnothing to commit, working tree clean\n");
  });

  it("finds the repository from a subdirectory, and fails outside one", async () => {
    const fs = await repo();
    fs.put("/elsewhere/x", "x");
    expect((await sh("git rev-parse --show-toplevel", { fs, cwd: "/workspace/src" })).stdout).toBe("/workspace\n");
    const nested = new MemoryFs();
    nested.put("/proj/f", "f");
    const outside = await sh("git init -q proj && cd proj && git status -s; cd /workspace && git status", {
      fs: nested,
    });
    expect(outside.stdout).toBe("?? f\n");
    expect(outside.outcome.exitCode).toBe(128);
    expect(outside.stderr).toBe("fatal: not a git repository (or any of the parent directories): .git\n");
  });
});

describe("shell git: log and diff", () => {
  it("logs in the default, --oneline and -n forms", async () => {
    const fs = await repo();
    await sh("echo four >> a.txt; git commit -qam 'second commit'", { fs, env });
    const oneline = await sh("git log --oneline", { fs, env });
    expect(oneline.stdout).toMatch(/^[0-9a-f]{7} second commit\n[0-9a-f]{7} first commit\n$/);
    const medium = await sh("git log -n 1", { fs, env });
    expect(medium.stdout).toMatch(
      /^commit [0-9a-f]{40}\nAuthor: Ada <ada@example.com>\nDate: {3}\w{3} \w{3} \d+ \d\d:\d\d:\d\d \d{4} \+0000\n\n {4}second commit\n$/,
    );
    const head = await sh("git rev-parse HEAD; git rev-parse --short HEAD~1; git log -1 --format=%H", { fs, env });
    const [full, short, logged] = head.stdout.trimEnd().split("\n");
    expect(full).toBe(logged);
    expect(oneline.stdout.split("\n")[1]?.startsWith(short ?? "?")).toBe(true);
  });

  it("diffs the working tree, the index and commits in git's format", async () => {
    const fs = await repo();
    const worktree = await sh("printf 'one\\nTWO\\nthree\\n' > a.txt; git diff", { fs, env });
    expect(worktree.stdout).toMatch(
      /^diff --git a\/a.txt b\/a.txt\nindex [0-9a-f]{7}\.\.[0-9a-f]{7} 100644\n--- a\/a.txt\n\+\+\+ b\/a.txt\n@@ -1,3 \+1,3 @@\n one\n-two\n\+TWO\n three\n$/,
    );
    expect((await sh("git diff --cached", { fs, env })).stdout).toBe("");
    await sh("git add a.txt; echo new > n.txt; git add n.txt", { fs, env });
    const cached = await sh("git diff --cached --name-status; git diff --cached -- n.txt", { fs, env });
    expect(cached.stdout).toMatch(
      /^M\ta.txt\nA\tn.txt\ndiff --git a\/n.txt b\/n.txt\nnew file mode 100644\nindex 0000000\.\.[0-9a-f]{7}\n--- \/dev\/null\n\+\+\+ b\/n.txt\n@@ -0,0 \+1 @@\n\+new\n$/,
    );
    await sh("git commit -qm second", { fs, env });
    const commits = await sh("git diff HEAD~1 HEAD --stat; git diff HEAD~1 --numstat", { fs, env });
    expect(commits.stdout).toBe(
      " a.txt | 2 +-\n n.txt | 1 +\n 2 files changed, 2 insertions(+), 1 deletion(-)\n1\t1\ta.txt\n1\t0\tn.txt\n",
    );
  });
});

describe("shell git: branches", () => {
  it("creates, lists, switches and deletes branches, updating the working tree", async () => {
    const fs = await repo();
    const script = [
      "git checkout -b feature",
      "echo feature > f.txt; git add f.txt; git commit -qm 'on feature'",
      "git checkout main",
      "ls; git branch",
      "git branch -d feature; git branch -D feature; git branch --show-current",
    ].join("\n");
    const { stdout, stderr } = await sh(script, { fs, env });
    expect(stderr).toMatch(
      /^Switched to a new branch 'feature'\nSwitched to branch 'main'\nfatal: The branch 'feature' is not fully merged.\n$/,
    );
    expect(stdout).toMatch(/^a.txt\nsrc\n {2}feature\n\* main\nDeleted branch feature \(was [0-9a-f]{7}\)\.\nmain\n$/);
    expect(fs.text("/f.txt")).toBeUndefined();
  });

  it("refuses unknown subcommands and options, listing what is supported", async () => {
    const fs = await repo();
    const { outcome, stderr } = await sh("git push origin main", { fs, env });
    expect(outcome.exitCode).toBe(1);
    expect(stderr).toBe(
      "git: 'push' is not a git command supported here. Supported: init, add, commit, status, log, diff, branch, checkout, rev-parse, config\n",
    );
    expect((await sh("git log --graph", { fs, env })).stderr).toBe(
      "fatal: git log: option '--graph' is not supported here\n",
    );
  });
});
