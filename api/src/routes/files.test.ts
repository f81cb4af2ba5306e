import { evictDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, createWorkspace, expectProblem, json, signup } from "../../../test/client.ts";

function randomBytes(length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  for (let offset = 0; offset < length; offset += 65_536)
    crypto.getRandomValues(bytes.subarray(offset, offset + 65_536));
  return bytes;
}

describe("files (first file store)", () => {
  it("round-trips a 1 MiB binary file byte for byte, across an eviction of the object", async () => {
    const { key, tenantId } = await signup();
    const id = await createWorkspace(key);
    const bytes = randomBytes(1024 * 1024 + 7);
    const put = await call("PUT", `/v1/workspaces/${id}/files/data/blob.bin`, { key, body: bytes });
    expect(put.status).toBe(200);
    const info = await json<{ path: string; size: number; etag: string }>(put);
    expect(info).toMatchObject({ path: "/data/blob.bin", size: bytes.length });

    await evictDurableObject(env.WORKSPACE.getByName(`${tenantId}:${id}`));

    const got = await call("GET", `/v1/workspaces/${id}/files/data/blob.bin`, { key });
    expect(got.status).toBe(200);
    expect(got.headers.get("etag")).toBe(info.etag);
    expect(new Uint8Array(await got.arrayBuffer())).toEqual(bytes);
    expect(await json(await call("GET", `/v1/workspaces/${id}`, { key }))).toMatchObject({
      sizeBytes: bytes.length,
      fileCount: 1,
    });
  });

  it("overwrites a file and changes its etag; identical content keeps it", async () => {
    const { key } = await signup();
    const id = await createWorkspace(key);
    const first = await json<{ etag: string }>(
      await call("PUT", `/v1/workspaces/${id}/files/a.txt`, { key, body: "one" }),
    );
    const second = await json<{ etag: string }>(
      await call("PUT", `/v1/workspaces/${id}/files/a.txt`, { key, body: "two" }),
    );
    const third = await json<{ etag: string }>(
      await call("PUT", `/v1/workspaces/${id}/files/a.txt`, { key, body: "two" }),
    );
    expect(second.etag).not.toBe(first.etag);
    expect(third.etag).toBe(second.etag);
    const read = await call("GET", `/v1/workspaces/${id}/files/a.txt`, { key });
    expect(new TextDecoder().decode(await read.arrayBuffer())).toBe("two");
    expect(await json(await call("GET", `/v1/workspaces/${id}`, { key }))).toMatchObject({
      sizeBytes: 3,
      fileCount: 1,
    });
  });

  it("stores a file's bytes whatever its Content-Type says, JSON types included", async () => {
    const { key } = await signup();
    const id = await createWorkspace(key);
    // A JSON file, one with an escaped lone surrogate (text the JSON routes refuse, but a
    // file's content is bytes), and bytes that are not UTF-8 at all.
    const bodies: [string, string, Uint8Array][] = [
      ["config.json", "application/json", new TextEncoder().encode('{"a": [1, 2]}\n')],
      ["odd.json", "application/json; charset=utf-8", new TextEncoder().encode('{"s": "\\ud800"}')],
      ["blob.json", "application/problem+json", new Uint8Array([0xff, 0xfe, 0x00, 0x80, 0x7b])],
    ];
    for (const [name, type, bytes] of bodies) {
      const put = await call("PUT", `/v1/workspaces/${id}/files/${name}`, {
        key,
        body: bytes,
        headers: { "content-type": type },
      });
      expect(put.status, name).toBe(200);
      const got = await call("GET", `/v1/workspaces/${id}/files/${name}`, { key });
      expect(new Uint8Array(await got.arrayBuffer()), name).toEqual(bytes);
    }
  });

  it("stores an empty file", async () => {
    const { key } = await signup();
    const id = await createWorkspace(key);
    expect((await call("PUT", `/v1/workspaces/${id}/files/empty`, { key })).status).toBe(200);
    const got = await call("GET", `/v1/workspaces/${id}/files/empty`, { key });
    expect(got.status).toBe(200);
    expect((await got.arrayBuffer()).byteLength).toBe(0);
  });

  it("answers 404 for a missing file", async () => {
    const { key } = await signup();
    const id = await createWorkspace(key);
    await expectProblem(await call("GET", `/v1/workspaces/${id}/files/nope.txt`, { key }), 404, "not_found");
  });

  it.each([
    // Encoded so the URL parser leaves them for the server to judge; literal `..` never arrives.
    ["a/..%2F..%2Fetc%2Fpasswd", "`..`"],
    ["%2E%2E%2Fsecret", "`..`"],
    ["a//b", "empty segment"],
    ["a%00b", "control character"],
    [`${"n".repeat(256)}`, "255"],
  ])("refuses the hostile path %s with 400 and stores nothing", async (path, why) => {
    const { key } = await signup();
    const id = await createWorkspace(key);
    const problem = await expectProblem(
      await call("PUT", `/v1/workspaces/${id}/files/${path}`, { key, body: "x" }),
      400,
      "invalid_path",
    );
    expect(problem.detail).toContain(why);
    expect(await json(await call("GET", `/v1/workspaces/${id}`, { key }))).toMatchObject({ fileCount: 0 });
  });
});
