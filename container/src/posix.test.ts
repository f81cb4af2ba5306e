/** Everyday tools on the mount behave as on a local disk, and what they write reaches the object. */
import { describe, expect, it } from "vitest";
import { nodeBinDir, useDaemon } from "./testing/harness.ts";

const fixture = useDaemon();

/** Runs in a fresh directory per test; fails the test with the output when the command fails. */
const sh = async (dir: string, command: string, env: Record<string, string> = {}, egress = false) => {
  return fixture.sh(`mkdir -p ${dir} && cd ${dir} && { ${command}\n}`, { env, egress, timeoutMs: 120_000 });
};
const ok = async (dir: string, command: string, env: Record<string, string> = {}, egress = false) => {
  const r = await sh(dir, command, env, egress);
  expect(r.outcome.exitCode, `${r.stdout}\n${r.stderr}`).toBe(0);
  return r;
};

describe("posix tools on the mount", () => {
  it("git: init, add, commit, log, status", async () => {
    const r = await ok(
      "git",
      `git init -q . && echo one > a.txt && git add a.txt &&
       git -c user.name=t -c user.email=t@e commit -qm first &&
       echo two >> a.txt && git -c user.name=t -c user.email=t@e commit -qam second &&
       git log --format=%s && git status --porcelain`,
    );
    expect(r.stdout).toBe("second\nfirst\n");
    expect(fixture.twin.text("/git/a.txt")).toBe("one\ntwo\n");
    expect(fixture.twin.entry("/git/.git/HEAD")?.type).toBe("file");
  });

  it("tar: create and extract", async () => {
    const r = await ok(
      "tar",
      "mkdir -p src/deep && echo x > src/deep/x && echo y > src/y && tar czf t.tgz src && mkdir out && tar xzf t.tgz -C out && cat out/src/deep/x out/src/y",
    );
    expect(r.stdout).toBe("x\ny\n");
    expect(fixture.twin.text("/tar/out/src/deep/x")).toBe("x\n");
  });

  it("cp -a copies a tree with modes and links", async () => {
    const r = await ok(
      "cpa",
      "mkdir -p a/b && echo f > a/b/f && chmod 640 a/b/f && ln -s b/f a/l && cp -a a c && stat -c %a c/b/f && readlink c/l && cat c/l",
    );
    expect(r.stdout).toBe("640\nb/f\nf\n");
    expect(fixture.twin.entry("/cpa/c/b/f")?.mode).toBe(0o640);
    expect(fixture.twin.entry("/cpa/c/l")).toMatchObject({ type: "symlink", target: "b/f" });
  });

  it("saves atomically by renaming a temporary file over the old one", async () => {
    const r = await ok("save", "echo old > doc && echo new > .doc.tmp && mv .doc.tmp doc && cat doc && ls -A");
    expect(r.stdout).toBe("new\ndoc\n");
    expect(fixture.twin.text("/save/doc")).toBe("new\n");
    expect(fixture.twin.entry("/save/.doc.tmp")).toBeNull();
  });

  it("chmod +x makes a script executable", async () => {
    const r = await ok("exe", "printf '#!/bin/sh\\necho ran\\n' > s.sh && chmod +x s.sh && ./s.sh");
    expect(r.stdout).toBe("ran\n");
    expect(fixture.twin.entry("/exe/s.sh")?.mode).toBe(0o755);
  });

  it("symlinks resolve, dangle and are removed", async () => {
    const r = await ok(
      "ln",
      "echo t > target && ln -s target link && ln -s nowhere dangling && cat link && test -L dangling && ! test -e dangling && rm link && ls",
    );
    expect(r.stdout).toBe("t\ndangling\ntarget\n");
    expect(fixture.twin.entry("/ln/link")).toBeNull();
    expect(fixture.twin.entry("/ln/dangling")).toMatchObject({ type: "symlink", target: "nowhere" });
  });

  it("hard links are one file with two names, and reach the object as a link", async () => {
    // The new name's count and inode number; in the FUSE fallback the old name's cached count
    // catches up within the attribute cache's second (the high-level API gives each name its own node).
    const r = await ok("hard", "echo a > a && ln a b && echo more >> b && stat -c '%h %i' b a && cat a");
    const [newName, oldName, ...content] = r.stdout.trim().split("\n");
    expect(newName?.split(" ")[0]).toBe("2");
    expect(newName?.split(" ")[1]).toBe(oldName?.split(" ")[1]);
    expect(content).toEqual(["a", "more"]);
    expect(fixture.twin.text("/hard/a")).toBe("a\nmore\n");
    expect(fixture.twin.entry("/hard/b")).toMatchObject({ nlink: 2, ino: fixture.twin.entry("/hard/a")?.ino });
    expect(fixture.twin.applied.some((op) => op.op === "link" && op.path === "/hard/b")).toBe(true);
    const dir = await sh("hardDir", "mkdir d && ln d e");
    expect(dir.stderr).toMatch(/hard link not allowed for directory/);
  });

  it("sqlite: a database with 1000 rows", async () => {
    const py = `import sqlite3
db = sqlite3.connect("app.db")
db.execute("create table t (id integer primary key, v text)")
db.executemany("insert into t (v) values (?)", [("row %d" % i,) for i in range(1000)])
db.commit()
print(db.execute("select count(*), max(v) from t").fetchone())`;
    const r = await ok("sqlite", `python3 -c '${py}'`);
    expect(r.stdout).toBe("(1000, 'row 999')\n");
    expect(fixture.twin.bytes("/sqlite/app.db")?.byteLength).toBeGreaterThan(8192);
  });

  it("find and du see the tree", async () => {
    const r = await ok(
      "fd",
      "mkdir -p a/b && head -c 100000 /dev/urandom > a/b/r && touch a/e && find . -type f | sort && du -sk . | cut -f1",
    );
    const [f1, f2, kb] = r.stdout.trim().split("\n");
    expect([f1, f2]).toEqual(["./a/b/r", "./a/e"]);
    expect(Number(kb)).toBeGreaterThanOrEqual(98);
  });

  it("dd writes 64 MiB that reach the object", async () => {
    const r = await ok("dd", "dd if=/dev/zero of=big bs=1M count=64 2>&1 | tail -1");
    expect(r.stdout).toMatch(/67108864 bytes/);
    expect(fixture.twin.bytes("/dd/big")?.byteLength).toBe(64 * 1024 * 1024);
  });

  it("npm init and npm install", async () => {
    const path = `${nodeBinDir}:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin`;
    const r = await ok(
      "npm",
      "npm init -y >/dev/null && npm install --no-audit --no-fund --loglevel=error is-number >/dev/null && node -e 'console.log(require(\"is-number\")(5))'",
      { PATH: path },
      true,
    );
    expect(r.stdout).toBe("true\n");
    expect(fixture.twin.text("/npm/package.json")).toMatch(/"is-number"/);
    expect(fixture.twin.entry("/npm/node_modules/is-number/index.js")?.type).toBe("file");
  });
});
