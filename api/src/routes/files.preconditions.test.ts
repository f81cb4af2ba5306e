/**
 * Conditional requests on files as RFC 9110 §13.1 reads them: `If-Match: *` matches any
 * current file (and nothing when there is none), a list matches when any tag does, and a
 * weak tag never satisfies `If-Match`'s strong comparison; `If-None-Match` on GET takes `*`,
 * lists and weak tags. Issue 18, item 15: `If-Match: *` answered 412 on an existing file.
 */
import { describe, expect, it } from "vitest";
import { call, createWorkspace, json, signup } from "../../../test/client.ts";

async function withFile() {
  const { key } = await signup();
  const id = await createWorkspace(key);
  const url = `/v1/workspaces/${id}/files/notes.txt`;
  const put = await call("PUT", url, { key, body: "v1" });
  return { key, id, url, etag: put.headers.get("etag") as string };
}

const read = async (key: string, url: string) =>
  new TextDecoder().decode(await (await call("GET", url, { key })).arrayBuffer());

describe("If-Match on PUT and DELETE", () => {
  it("`*` matches an existing file: PUT overwrites it and DELETE removes it", async () => {
    const { key, url } = await withFile();
    expect((await call("PUT", url, { key, body: "v2", headers: { "if-match": "*" } })).status).toBe(200);
    expect(await read(key, url)).toBe("v2");
    const deleted = await call("DELETE", url, { key, headers: { "if-match": "*" } });
    expect(deleted.status).toBe(200);
    expect(await json(deleted)).toEqual({ removed: 1 });
    expect((await call("GET", url, { key })).status).toBe(404);
  });

  it("`*` matches nothing where nothing exists: PUT creates no file (412) and DELETE answers 404", async () => {
    const { key, id } = await withFile();
    const url = `/v1/workspaces/${id}/files/absent.txt`;
    expect((await call("PUT", url, { key, body: "x", headers: { "if-match": "*" } })).status).toBe(412);
    expect((await call("GET", url, { key })).status).toBe(404);
    expect((await call("DELETE", url, { key, headers: { "if-match": "*" } })).status).toBe(404);
  });

  it("a list matches when one of its tags is the file's ETag", async () => {
    const { key, url, etag } = await withFile();
    const put = await call("PUT", url, { key, body: "v2", headers: { "if-match": `"stale", ${etag}` } });
    expect(put.status).toBe(200);
    const stale = await call("DELETE", url, { key, headers: { "if-match": `"stale", ${etag}` } });
    expect(stale.status).toBe(412);
    expect(
      (await call("DELETE", url, { key, headers: { "if-match": `"x", ${put.headers.get("etag")}` } })).status,
    ).toBe(200);
  });

  it("a weak tag never matches, since If-Match compares strongly", async () => {
    const { key, url, etag } = await withFile();
    expect((await call("PUT", url, { key, body: "v2", headers: { "if-match": `W/${etag}` } })).status).toBe(412);
    expect(await read(key, url)).toBe("v1");
  });

  it("`*` in a batch write and delete matches what exists", async () => {
    const { key, id } = await withFile();
    const batch = (ops: unknown[]) => call("POST", `/v1/workspaces/${id}/fs/batch`, { key, json: { ops } });
    const written = await batch([{ op: "write", path: "/notes.txt", content: "v2", ifMatch: "*" }]);
    expect(written.status).toBe(200);
    expect((await batch([{ op: "write", path: "/other.txt", content: "x", ifMatch: "*" }])).status).toBe(412);
    expect((await batch([{ op: "delete", path: "/notes.txt", ifMatch: "*" }])).status).toBe(200);
  });
});

describe("If-None-Match on GET", () => {
  it("answers 304 for `*`, for a list holding the ETag and for its weak form", async () => {
    const { key, url, etag } = await withFile();
    for (const header of ["*", `"other", ${etag}`, `W/${etag}`]) {
      const response = await call("GET", url, { key, headers: { "if-none-match": header } });
      expect(response.status, header).toBe(304);
    }
    expect((await call("GET", url, { key, headers: { "if-none-match": '"other"' } })).status).toBe(200);
  });
});
