import { describe, expect, it } from "vitest";
import { call, createWorkspace, expectProblem, json, signup } from "../../../test/client.ts";

async function workspace() {
  const { key } = await signup();
  const id = await createWorkspace(key);
  const op = (name: string, body: unknown) => call("POST", `/v1/workspaces/${id}/fs/${name}`, { key, json: body });
  const put = (path: string, body: string) => call("PUT", `/v1/workspaces/${id}/files/${path}`, { key, body });
  const get = async (path: string) =>
    new TextDecoder().decode(await (await call("GET", `/v1/workspaces/${id}/files/${path}`, { key })).arrayBuffer());
  return { key, id, op, put, get };
}

describe("fs operations over HTTP", () => {
  it("mkdir, stat, symlink, readlink, chmod, move, copy, truncate", async () => {
    const { op, put, get } = await workspace();
    expect((await op("mkdir", { path: "/a/b", recursive: true })).status).toBe(200);
    await put("a/b/f.txt", "hello world");
    expect(await json(await op("stat", { path: "/a/b/f.txt" }))).toMatchObject({ type: "file", size: 11 });
    await op("symlink", { target: "b/f.txt", path: "/a/link" });
    expect(await json(await op("readlink", { path: "/a/link" }))).toEqual({ target: "b/f.txt" });
    expect(await json(await op("stat", { path: "/a/link", followSymlinks: false }))).toMatchObject({ type: "symlink" });
    expect(await json(await op("chmod", { path: "/a/b/f.txt", mode: 0o600 }))).toMatchObject({ mode: 0o600 });
    expect((await op("move", { from: "/a/b", to: "/c" })).status).toBe(200);
    expect((await op("copy", { from: "/c", to: "/d" })).status).toBe(200);
    expect(await json(await op("truncate", { path: "/d/f.txt", size: 5 }))).toMatchObject({ size: 5 });
    expect(await get("d/f.txt")).toBe("hello");
    expect(await get("c/f.txt")).toBe("hello world");
  });

  it("link, chown and utimes: hard links, owners and exact times", async () => {
    const { op, put, get } = await workspace();
    await put("a.txt", "one");
    const made = await json<{ nlink: number; ino: number; uid: number; gid: number }>(
      await op("link", { existing: "/a.txt", path: "/b.txt" }),
    );
    const a = await json<{ ino: number; nlink: number }>(await op("stat", { path: "/a.txt" }));
    expect(made).toMatchObject({ nlink: 2, ino: a.ino, uid: 1000, gid: 1000 });
    await put("b.txt", "written through b");
    expect(await get("a.txt")).toBe("written through b");

    // Each call sets what it names and keeps the rest (UTIME_OMIT, chown's -1).
    const exact = "1700000000123456789";
    expect(await json(await op("utimes", { path: "/a.txt", mtimeNs: exact }))).toMatchObject({
      mtimeNs: exact,
      mtime: "2023-11-14T22:13:20.123Z",
    });
    expect(await json(await op("chown", { path: "/b.txt", uid: 0 }))).toMatchObject({
      uid: 0,
      gid: 1000,
      mtimeNs: exact,
    });
    expect(await json(await op("chmod", { path: "/b.txt", mode: 0o600 }))).toMatchObject({ mtimeNs: exact });
    expect(await json(await op("utimes", { path: "/a.txt", mtimeNs: "-1" }))).toMatchObject({ mtimeNs: "-1", uid: 0 });
    const touched = await json<{ mtimeNs: string }>(await op("utimes", { path: "/a.txt" }));
    expect(BigInt(touched.mtimeNs)).toBeGreaterThan(BigInt(exact));

    await op("mkdir", { path: "/d" });
    expect(await expectProblem(await op("link", { existing: "/d", path: "/e" }), 409, "conflict")).toMatchObject({
      fsCode: "EPERM",
    });
    expect(
      await expectProblem(await op("link", { existing: "/a.txt", path: "/b.txt" }), 409, "conflict"),
    ).toMatchObject({ fsCode: "EEXIST" });
    await expectProblem(await op("link", { existing: "/none", path: "/f" }), 404, "not_found");
    await expectProblem(await op("utimes", { path: "/a.txt", mtimeNs: "soon" }), 400, "validation_failed");
    await expectProblem(await op("chown", { path: "/a.txt", uid: -1 }), 400, "validation_failed");
  });

  it("lists with pagination, greps, finds and reads the change log", async () => {
    const { id, key, op, put } = await workspace();
    for (const name of ["a.ts", "b.ts", "c.md"]) await put(`src/${name}`, `// ${name} TODO\n`);
    const page = await json<{ entries: { name: string }[]; nextCursor: string }>(
      await call("GET", `/v1/workspaces/${id}/fs/list?path=/src&limit=2`, { key }),
    );
    expect(page.entries.map((e) => e.name)).toEqual(["a.ts", "b.ts"]);
    const next = await json<{ entries: { name: string }[] }>(
      await call(
        "GET",
        `/v1/workspaces/${id}/fs/list?path=/src&limit=2&cursor=${encodeURIComponent(page.nextCursor)}`,
        {
          key,
        },
      ),
    );
    expect(next.entries.map((e) => e.name)).toEqual(["c.md"]);
    const grep = await json<{ matches: { path: string }[] }>(
      await op("grep", { pattern: "TODO", include: ["**/*.ts"] }),
    );
    expect(grep.matches.map((m) => m.path)).toEqual(["/src/a.ts", "/src/b.ts"]);
    const found = await json<{ entries: { path: string }[] }>(await op("find", { name: "*.md" }));
    expect(found.entries.map((e) => e.path)).toEqual(["/src/c.md"]);
    const changes = await json<{ changes: { op: string }[]; revision: number }>(
      await call("GET", `/v1/workspaces/${id}/fs/changes?since=1`, { key }),
    );
    expect(changes.changes.map((c) => c.op)).toEqual(["write", "write"]);
    expect(changes.revision).toBe(3);
  });

  it("applies a batch all-or-nothing, with text and base64 content", async () => {
    const { op, get } = await workspace();
    const ok = await op("batch", {
      ops: [
        { op: "write", path: "/t.txt", content: "text" },
        { op: "write", path: "/b.bin", contentBase64: btoa("\u0000\u0001bin") },
      ],
    });
    expect(ok.status).toBe(200);
    expect(await get("t.txt")).toBe("text");
    const failed = await op("batch", {
      ops: [
        { op: "delete", path: "/t.txt" },
        { op: "move", from: "/missing", to: "/x" },
      ],
    });
    const problem = await expectProblem(failed, 404, "not_found");
    expect(problem.detail).toContain("operation 1");
    expect(await get("t.txt")).toBe("text");
  });

  it("maps filesystem failures to problem codes with the POSIX code", async () => {
    const { op, put } = await workspace();
    await put("d/f", "x");
    const notEmpty = await expectProblem(await op("move", { from: "/d/f", to: "/d" }), 409, "conflict");
    expect(notEmpty.fsCode).toBe("EISDIR");
    await op("symlink", { target: "/l2", path: "/l1" });
    await op("symlink", { target: "/l1", path: "/l2" });
    expect((await expectProblem(await op("stat", { path: "/l1" }), 400, "bad_request")).fsCode).toBe("ELOOP");
  });

  it.each([["/a/../b"], ["/a//b"], ["/a\u0000b"], [`/${"n".repeat(300)}`]])(
    "refuses the hostile body path %j with 400",
    async (path) => {
      const { op } = await workspace();
      const problem = await expectProblem(await op("mkdir", { path }), 400, "validation_failed");
      expect(problem.errors).toEqual([expect.objectContaining({ in: "body", pointer: "/path" })]);
    },
  );
});
