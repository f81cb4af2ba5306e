import { describe, expect, it } from "vitest";
import { call, createWorkspace, expectProblem, json, signup } from "../../../test/client.ts";

async function setup() {
  const { key } = await signup();
  const id = await createWorkspace(key);
  const data = new Uint8Array(1000).map((_, i) => i % 256);
  const put = await call("PUT", `/v1/workspaces/${id}/files/f.bin`, { key, body: data });
  const etag = put.headers.get("etag") as string;
  return { key, id, data, etag, url: `/v1/workspaces/${id}/files/f.bin` };
}

describe("file reads: ranges, HEAD and conditional requests", () => {
  it("answers 206 with Content-Range for a byte range and a suffix", async () => {
    const { key, data, url } = await setup();
    const middle = await call("GET", url, { key, headers: { range: "bytes=10-19" } });
    expect(middle.status).toBe(206);
    expect(middle.headers.get("content-range")).toBe("bytes 10-19/1000");
    expect(new Uint8Array(await middle.arrayBuffer())).toEqual(data.subarray(10, 20));
    const suffix = await call("GET", url, { key, headers: { range: "bytes=-5" } });
    expect(new Uint8Array(await suffix.arrayBuffer())).toEqual(data.subarray(995));
    const open = await call("GET", url, { key, headers: { range: "bytes=990-" } });
    expect(open.headers.get("content-range")).toBe("bytes 990-999/1000");
  });

  it("answers 416 for a range past the end", async () => {
    const { key, url } = await setup();
    const response = await call("GET", url, { key, headers: { range: "bytes=1000-" } });
    await expectProblem(response, 416, "range_not_satisfiable");
    expect(response.headers.get("content-range")).toBe("bytes */1000");
  });

  it("answers 304 to If-None-Match with the current ETag, 200 after a change", async () => {
    const { key, url, etag } = await setup();
    expect((await call("GET", url, { key, headers: { "if-none-match": etag } })).status).toBe(304);
    await call("PUT", url, { key, body: "changed" });
    expect((await call("GET", url, { key, headers: { "if-none-match": etag } })).status).toBe(200);
  });

  it("answers HEAD with the stat and no body", async () => {
    const { key, url, etag } = await setup();
    const head = await call("HEAD", url, { key });
    expect(head.status).toBe(200);
    expect(head.headers.get("x-file-size")).toBe("1000");
    expect(head.headers.get("etag")).toBe(etag);
    expect(head.headers.get("x-file-type")).toBe("file");
    expect(head.headers.get("x-file-mode")).toBe("0644");
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });

  it("refuses to GET a directory and reports a missing file as 404 with ENOENT", async () => {
    const { key, id } = await setup();
    await call("PUT", `/v1/workspaces/${id}/files/d/x`, { key, body: "x" });
    const problem = await expectProblem(await call("GET", `/v1/workspaces/${id}/files/d`, { key }), 409, "conflict");
    expect(problem.detail).toContain("EISDIR");
    const missing = await expectProblem(
      await call("GET", `/v1/workspaces/${id}/files/none`, { key }),
      404,
      "not_found",
    );
    expect(missing.fsCode).toBe("ENOENT");
  });

  it("appends with ?append=true and deletes with If-Match", async () => {
    const { key, id } = await setup();
    const url = `/v1/workspaces/${id}/files/log.txt`;
    await call("PUT", `${url}?append=true`, { key, body: "a" });
    const second = await json<{ etag: string; size: number }>(
      await call("PUT", `${url}?append=true`, { key, body: "b" }),
    );
    expect(second.size).toBe(2);
    await expectProblem(
      await call("DELETE", url, { key, headers: { "if-match": '"old"' } }),
      412,
      "precondition_failed",
    );
    expect((await call("DELETE", url, { key, headers: { "if-match": second.etag } })).status).toBe(200);
  });
});
