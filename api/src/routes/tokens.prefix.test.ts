/**
 * A token confined to a path prefix (`/src`) touches `/src` and what is below it, and
 * nothing else: through files, filesystem operations, symlinks, and executors. Refusals
 * are 403 `forbidden` naming the prefix.
 */
import { describe, expect, it } from "vitest";
import { call, createWorkspace, expectProblem, json, mintToken, signup } from "../../../test/client.ts";

/** A workspace with /src/a.txt, /other.txt and /secret/key.txt, and a token confined to /src in it. */
async function confined() {
  const { key } = await signup();
  const id = await createWorkspace(key);
  for (const [path, body] of [
    ["src/a.txt", "a"],
    ["other.txt", "other"],
    ["secret/key.txt", "hunter2"],
  ]) {
    expect((await call("PUT", `/v1/workspaces/${id}/files/${path}`, { key, body })).status).toBe(200);
  }
  const { token } = await mintToken(key, { workspaceId: id, pathPrefix: "/src" });
  const base = `/v1/workspaces/${id}`;
  const fs = (op: string, body: unknown, credential = token) =>
    call("POST", `${base}/fs/${op}`, { key: credential, json: body });
  const read = async (path: string) => (await call("GET", `${base}/files/${path}`, { key })).text();
  return { key, id, token, base, fs, read };
}

async function forbidden(response: Response, detail: string | RegExp = /outside this token's path prefix \/src/) {
  const problem = await expectProblem(response, 403, "forbidden");
  if (problem.detail !== "") expect(problem.detail).toMatch(detail);
}

describe("a token confined to /src", () => {
  it("reads, writes and deletes files under /src and nowhere else", async () => {
    const { token, base, read } = await confined();
    expect(await (await call("GET", `${base}/files/src/a.txt`, { key: token })).text()).toBe("a");
    expect((await call("HEAD", `${base}/files/src/a.txt`, { key: token })).status).toBe(200);
    expect((await call("PUT", `${base}/files/src/new/b.txt`, { key: token, body: "b" })).status).toBe(200);
    expect((await call("DELETE", `${base}/files/src/new/b.txt`, { key: token })).status).toBe(200);

    await forbidden(await call("GET", `${base}/files/other.txt`, { key: token }));
    await forbidden(await call("HEAD", `${base}/files/other.txt`, { key: token }));
    await forbidden(await call("GET", `${base}/files/srcx/a.txt`, { key: token }));
    await forbidden(await call("PUT", `${base}/files/other.txt`, { key: token, body: "overwritten" }));
    await forbidden(await call("DELETE", `${base}/files/other.txt`, { key: token }));
    expect(await read("other.txt")).toBe("other");
  });

  it("refuses filesystem operations with either end outside, and listing or searching from the root", async () => {
    const { token, base, fs, read } = await confined();
    expect((await fs("copy", { from: "/src/a.txt", to: "/src/c.txt" })).status).toBe(200);
    expect((await fs("move", { from: "/src/c.txt", to: "/src/d.txt" })).status).toBe(200);
    expect((await fs("stat", { path: "/src/d.txt" })).status).toBe(200);
    expect((await fs("grep", { pattern: "a", path: "/src" })).status).toBe(200);

    await forbidden(await fs("move", { from: "/src/a.txt", to: "/a.txt" }));
    await forbidden(await fs("move", { from: "/other.txt", to: "/src/other.txt" }));
    await forbidden(await fs("copy", { from: "/secret/key.txt", to: "/src/key.txt" }));
    await forbidden(await fs("mkdir", { path: "/elsewhere" }));
    await forbidden(await fs("chmod", { path: "/other.txt", mode: 0o600 }));
    await forbidden(await fs("chown", { path: "/other.txt", uid: 0 }));
    await forbidden(await fs("utimes", { path: "/other.txt", mtimeNs: "0" }));
    // A hard link would make the file outside readable and writable under the prefix.
    await forbidden(await fs("link", { existing: "/other.txt", path: "/src/other.txt" }));
    await forbidden(await fs("link", { existing: "/src/a.txt", path: "/a.txt" }));
    await forbidden(await fs("truncate", { path: "/other.txt", size: 0 }));
    await forbidden(await fs("grep", { pattern: "hunter" }));
    await forbidden(await fs("find", { path: "/", name: "*.txt" }));
    await forbidden(await call("GET", `${base}/fs/list?path=/`, { key: token }));
    const batch = await fs("batch", {
      ops: [
        { op: "write", path: "/src/fine.txt", content: "fine" },
        { op: "write", path: "/other.txt", content: "overwritten" },
      ],
    });
    await forbidden(batch, /\/other\.txt is outside this token's path prefix \/src \(operation 1\)/);
    expect(await read("other.txt")).toBe("other");
    await expectProblem(await call("GET", `${base}/files/src/fine.txt`, { key: token }), 404, "not_found");

    // The directories above the prefix can be stat'ed (cd walks through them), not listed.
    expect((await fs("stat", { path: "/" })).status).toBe(200);
    const listed = await json<{ entries: { path: string }[] }>(
      await call("GET", `${base}/fs/list?path=/src`, { key: token }),
    );
    expect(listed.entries.map((e) => e.path)).toEqual(["/src/a.txt", "/src/d.txt"]);
  });

  it("cannot escape through symlinks, whoever made them", async () => {
    const { key, token, base, fs } = await confined();
    // Made by the unconfined key: a link inside /src pointing out of it.
    expect((await fs("symlink", { target: "/secret", path: "/src/escape" }, key)).status).toBe(200);
    await forbidden(
      await call("GET", `${base}/files/src/escape/key.txt`, { key: token }),
      /leads to \/secret\/key\.txt/,
    );
    await forbidden(await call("PUT", `${base}/files/src/escape/new.txt`, { key: token, body: "x" }));
    await forbidden(await call("GET", `${base}/fs/list?path=/src/escape`, { key: token }));
    await forbidden(await fs("mkdir", { path: "/src/escape/made", recursive: true }));
    // The link itself is inside: it can be read and removed.
    expect((await fs("readlink", { path: "/src/escape" })).status).toBe(200);
    expect((await fs("stat", { path: "/src/escape", followSymlinks: false })).status).toBe(200);

    // Made by the token: targets outside are refused, relative or absolute.
    await forbidden(await fs("symlink", { target: "../secret/key.txt", path: "/src/up" }));
    await forbidden(await fs("symlink", { target: "/other.txt", path: "/src/abs" }));
    expect((await fs("symlink", { target: "a.txt", path: "/src/fine" })).status).toBe(200);

    // A relative link that is fine where it was made points outside once moved: refused on use.
    expect((await fs("mkdir", { path: "/src/deep/er", recursive: true })).status).toBe(200);
    await forbidden(await fs("symlink", { target: "../../../other.txt", path: "/src/deep/er/rel" }));
    expect((await fs("symlink", { target: "../a.txt", path: "/src/deep/rel" })).status).toBe(200);
    expect((await fs("move", { from: "/src/deep/rel", to: "/src/rel" })).status).toBe(200);
    await forbidden(await call("GET", `${base}/files/src/rel`, { key: token }), /leads to \/a\.txt/);
  });

  it("may not delete or relabel the workspace, or read its change log", async () => {
    const { token, base } = await confined();
    await forbidden(await call("DELETE", base, { key: token }), /deleting the workspace reaches outside/);
    await forbidden(await call("PATCH", base, { key: token, json: { name: "mine" } }));
    await forbidden(await call("GET", `${base}/fs/changes`, { key: token }), /the change log reaches outside/);
    expect((await call("GET", base, { key: token })).status).toBe(200);
  });
});

describe("a shell run under a token confined to /src", () => {
  it("starts in /workspace/src, works there, and cannot read or write outside", async () => {
    const { token, base, read } = await confined();
    const exec = async (command: string, extra: Record<string, unknown> = {}) =>
      json<{ id: string; exitCode: number; stdout: string; stderr: string }>(
        await call("POST", `${base}/exec`, { key: token, json: { executor: "shell", command, ...extra } }),
      );

    const inside = await exec("pwd; echo more >> a.txt; cat /workspace/src/a.txt");
    expect(inside).toMatchObject({ exitCode: 0, stdout: "/workspace/src\namore\n" });

    // just-bash's cat reports any failure to open as "No such file"; the content never shows.
    const cat = await exec("cat /workspace/other.txt");
    expect(cat).toMatchObject({ stdout: "", stderr: "cat: /workspace/other.txt: No such file or directory\n" });
    expect(cat.exitCode).not.toBe(0);
    const write = await exec("echo x > /workspace/other.txt");
    expect(write.exitCode).not.toBe(0);
    expect(write.stderr).toContain("EACCES: permission denied, open '/workspace/other.txt'");
    const smuggle = await exec(
      "cp /workspace/secret/key.txt /workspace/src/key.txt; mv /workspace/src/a.txt /workspace/a.txt",
    );
    expect(smuggle.exitCode).not.toBe(0);
    expect(await read("other.txt")).toBe("other");
    expect(await read("src/a.txt")).toBe("amore\n");
    const listing = await exec("ls /workspace");
    expect(listing.exitCode).not.toBe(0);
    expect((await exec("cd /workspace/src && ls")).stdout).toBe("a.txt\n");

    const outside = await call("POST", `${base}/exec`, {
      key: token,
      json: { executor: "shell", command: "ls", cwd: "/workspace" },
    });
    await forbidden(outside, "`cwd` /workspace is outside this token's path prefix /src");
    expect((await exec("pwd", { cwd: "/tmp" })).stdout).toBe("/tmp\n");
  });

  it("sees only runs confined at or under its prefix", async () => {
    const { key, token, base } = await confined();
    const run = async (credential: string) =>
      (
        await json<{ id: string }>(
          await call("POST", `${base}/exec`, {
            key: credential,
            json: { executor: "shell", command: "cat /workspace/secret/key.txt || true" },
          }),
        )
      ).id;
    const unconfined = await run(key);
    const mine = await run(token);
    const listed = await json<{ data: { id: string; pathPrefix: string | null }[] }>(
      await call("GET", `${base}/execs`, { key: token }),
    );
    expect(listed.data).toEqual([expect.objectContaining({ id: mine, pathPrefix: "/src" })]);
    for (const path of [`${base}/execs/${unconfined}`, `${base}/execs/${unconfined}/output`]) {
      await expectProblem(await call("GET", path, { key: token }), 404, "not_found");
    }
    expect((await call("GET", `${base}/execs/${mine}/output`, { key: token })).status).toBe(200);
    const all = await json<{ data: unknown[] }>(await call("GET", `${base}/execs`, { key }));
    expect(all.data).toHaveLength(2);
  });
});
