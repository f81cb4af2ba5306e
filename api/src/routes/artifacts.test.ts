/**
 * Artifacts through the API: publishing a directory, content addressing (the same bytes
 * give the same artifact, from anywhere in the tenant), the tar.gz download read back by an
 * independent tar reader, tenant isolation, and the limits.
 */
import { parseTarGzip } from "nanotar";
import { describe, expect, it } from "vitest";
import { call, createWorkspace, expectProblem, json, mintToken, signup } from "../../../test/client.ts";

interface ArtifactBody {
  id: string;
  digest: string;
  files: { path: string; size: number }[];
  fileCount: number;
  bytes: number;
  url: string;
  downloadUrl: string;
}

const binary = Uint8Array.from({ length: 1_500_000 }, (_, i) => (i * 131 + (i >> 9)) & 255);

async function workspaceWith(key: string, files: Record<string, BodyInit>): Promise<string> {
  const id = await createWorkspace(key);
  for (const [path, body] of Object.entries(files)) {
    const put = await call("PUT", `/v1/workspaces/${id}/files/${path}`, { key, body });
    expect(put.status).toBe(200);
  }
  return id;
}

const publish = (key: string, workspaceId: string, path: string) =>
  call("POST", `/v1/workspaces/${workspaceId}/artifacts`, { key, json: { path } });

const site = () => ({
  "dist/index.html": "<h1>hi</h1>",
  "dist/assets/app.js": "console.log(1)",
  "dist/assets/logo.bin": binary,
  "dist/empty.txt": "",
  "src/main.ts": "not published",
});

describe("POST /v1/workspaces/{id}/artifacts", () => {
  it("publishes a directory: sorted relative paths, sizes, digest, URLs", async () => {
    const { key } = await signup();
    const ws = await workspaceWith(key, site());
    const response = await publish(key, ws, "/dist");
    expect(response.status).toBe(201);
    const artifact = await json<ArtifactBody>(response);
    expect(artifact.id).toMatch(/^art_[0-9a-z]{26}$/);
    expect(artifact.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(artifact.files).toEqual([
      { path: "assets/app.js", size: 14 },
      { path: "assets/logo.bin", size: binary.length },
      { path: "empty.txt", size: 0 },
      { path: "index.html", size: 11 },
    ]);
    expect(artifact.bytes).toBe(25 + binary.length);
    expect(artifact.fileCount).toBe(4);
    expect(artifact.url).toBe(`http://cubicle.test/v1/artifacts/${artifact.id}`);
    expect(artifact.downloadUrl).toBe(`${artifact.url}/download`);
    expect(response.headers.get("location")).toBe(artifact.url);
    const read = await call("GET", `/v1/artifacts/${artifact.id}`, { key });
    expect(read.status).toBe(200);
    expect(await json<ArtifactBody>(read)).toMatchObject({
      id: artifact.id,
      digest: artifact.digest,
      files: artifact.files,
    });
  });

  it("gives the same artifact for the same content, from another workspace or after touching files", async () => {
    const { key } = await signup();
    const first = await json<ArtifactBody>(await publish(key, await workspaceWith(key, site()), "/dist"));
    const elsewhere = await workspaceWith(key, site());
    const again = await publish(key, elsewhere, "/dist");
    expect(again.status).toBe(200);
    expect((await json<ArtifactBody>(again)).id).toBe(first.id);
    // Rewriting a file with the same bytes changes its mtime, not the artifact.
    await call("PUT", `/v1/workspaces/${elsewhere}/files/dist/index.html`, { key, body: "<h1>hi</h1>" });
    expect((await json<ArtifactBody>(await publish(key, elsewhere, "/dist"))).id).toBe(first.id);
    // One changed byte is another artifact.
    await call("PUT", `/v1/workspaces/${elsewhere}/files/dist/index.html`, { key, body: "<h1>ho</h1>" });
    const changed = await publish(key, elsewhere, "/dist");
    expect(changed.status).toBe(201);
    expect((await json<ArtifactBody>(changed)).id).not.toBe(first.id);
  });

  it("publishes a single file under its own name", async () => {
    const { key } = await signup();
    const ws = await workspaceWith(key, { "out/report.pdf": "%PDF-1.7" });
    const artifact = await json<ArtifactBody>(await publish(key, ws, "/out/report.pdf"));
    expect(artifact.files).toEqual([{ path: "report.pdf", size: 8 }]);
  });

  it("answers 404 for a missing path and 400 for a hostile one", async () => {
    const { key } = await signup();
    const ws = await createWorkspace(key);
    await expectProblem(await publish(key, ws, "/nope"), 404, "not_found");
    await expectProblem(await publish(key, ws, "/a/../../etc"), 400, "validation_failed");
  });

  it("refuses more files than the limit with 413, before copying anything", async () => {
    const { key } = await signup();
    const ws = await createWorkspace(key);
    for (const start of [0, 500]) {
      const ops = Array.from({ length: start === 0 ? 500 : 501 }, (_, i) => ({
        op: "write",
        path: `/many/f${start + i}.txt`,
        content: "x",
      }));
      expect((await call("POST", `/v1/workspaces/${ws}/fs/batch`, { key, json: { ops } })).status).toBe(200);
    }
    const problem = await expectProblem(await publish(key, ws, "/many"), 413, "payload_too_large");
    expect(problem.detail).toMatch(/more than 1000 files/);
  });
});

describe("GET /v1/artifacts/{id}/download", () => {
  it("streams a tar.gz whose files are byte-identical to the workspace's", async () => {
    const { key } = await signup();
    const files = site();
    const ws = await workspaceWith(key, files);
    const artifact = await json<ArtifactBody>(await publish(key, ws, "/dist"));
    const response = await call("GET", `/v1/artifacts/${artifact.id}/download`, { key });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/gzip");
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="${artifact.id}.tar.gz"`);
    const entries = await parseTarGzip(new Uint8Array(await response.arrayBuffer()));
    expect(entries.map((e) => e.name)).toEqual(artifact.files.map((f) => f.path));
    for (const entry of entries) {
      const original = files[`dist/${entry.name}` as keyof typeof files];
      const expected = typeof original === "string" ? new TextEncoder().encode(original) : original;
      expect(entry.data ?? new Uint8Array(0)).toEqual(expected);
    }
  });
});

describe("listing and isolation", () => {
  it("lists newest first with a cursor", async () => {
    const { key } = await signup();
    const ws = await workspaceWith(key, { "a.txt": "a", "b.txt": "b", "c.txt": "c" });
    const ids: string[] = [];
    for (const path of ["/a.txt", "/b.txt", "/c.txt"])
      ids.push((await json<ArtifactBody>(await publish(key, ws, path))).id);
    const first = await json<{ data: ArtifactBody[]; nextCursor: string }>(
      await call("GET", "/v1/artifacts?limit=2", { key }),
    );
    expect(first.data.map((a) => a.id)).toEqual([ids[2], ids[1]]);
    expect(first.data[0]).not.toHaveProperty("files");
    const rest = await json<{ data: ArtifactBody[]; nextCursor: string | null }>(
      await call("GET", `/v1/artifacts?limit=2&cursor=${encodeURIComponent(first.nextCursor)}`, { key }),
    );
    expect(rest.data.map((a) => a.id)).toEqual([ids[0]]);
    expect(rest.nextCursor).toBeNull();
  });

  it("never shows one tenant's artifact to another, even for the same content", async () => {
    const alice = await signup();
    const mallory = await signup();
    const mine = await json<ArtifactBody>(await publish(alice.key, await workspaceWith(alice.key, site()), "/dist"));
    await expectProblem(await call("GET", `/v1/artifacts/${mine.id}`, { key: mallory.key }), 404, "not_found");
    await expectProblem(await call("GET", `/v1/artifacts/${mine.id}/download`, { key: mallory.key }), 404, "not_found");
    const theirs = await json<ArtifactBody>(
      await publish(mallory.key, await workspaceWith(mallory.key, site()), "/dist"),
    );
    expect(theirs.digest).toBe(mine.digest);
    expect(theirs.id).not.toBe(mine.id);
    const listed = await json<{ data: ArtifactBody[] }>(await call("GET", "/v1/artifacts", { key: mallory.key }));
    expect(listed.data.map((a) => a.id)).toEqual([theirs.id]);
  });

  it("confines a path-prefix token: publishes only inside, reads only what came from inside", async () => {
    const { key } = await signup();
    const ws = await workspaceWith(key, { "src/a.txt": "a", "secret/key.txt": "hunter2" });
    const { token } = await mintToken(key, { workspaceId: ws, pathPrefix: "/src" });
    const outside = await expectProblem(await publish(token, ws, "/secret"), 403, "forbidden");
    expect(outside.detail).toMatch(/outside this token's path prefix \/src/);
    await expectProblem(await publish(token, ws, "/"), 403, "forbidden");
    const inside = await publish(token, ws, "/src");
    expect(inside.status).toBe(201);
    const own = await json<ArtifactBody>(inside);
    expect((await call("GET", `/v1/artifacts/${own.id}`, { key: token })).status).toBe(200);
    // Published from the whole workspace by the key: not the token's to read.
    const whole = await json<ArtifactBody>(await publish(key, ws, "/"));
    await expectProblem(await call("GET", `/v1/artifacts/${whole.id}`, { key: token }), 404, "not_found");
    await expectProblem(await call("GET", `/v1/artifacts/${whole.id}/download`, { key: token }), 404, "not_found");
    const listed = await json<{ data: ArtifactBody[] }>(await call("GET", "/v1/artifacts", { key: token }));
    expect(listed.data.map((a) => a.id)).toEqual([own.id]);
  });

  it("does not follow a symlink out of a token's prefix", async () => {
    const { key } = await signup();
    const ws = await workspaceWith(key, { "src/a.txt": "a", "secret/key.txt": "hunter2" });
    const link = await call("POST", `/v1/workspaces/${ws}/fs/symlink`, {
      key,
      json: { target: "/secret/key.txt", path: "/src/leak.txt" },
    });
    expect(link.status).toBe(200);
    const { token } = await mintToken(key, { workspaceId: ws, pathPrefix: "/src" });
    await expectProblem(await publish(token, ws, "/src"), 403, "forbidden");
    // The whole-workspace key follows the link and publishes the bytes it points at.
    const artifact = await json<ArtifactBody>(await publish(key, ws, "/src"));
    expect(artifact.files).toEqual([
      { path: "a.txt", size: 1 },
      { path: "leak.txt", size: 7 },
    ]);
  });
});
