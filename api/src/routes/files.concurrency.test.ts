import { describe, expect, it } from "vitest";
import { call, createWorkspace, signup } from "../../../test/client.ts";

describe("optimistic concurrency on files", () => {
  it("lets exactly one of two racing If-Match updates win, every time", async () => {
    const { key } = await signup();
    const id = await createWorkspace(key);
    const url = `/v1/workspaces/${id}/files/counter.txt`;
    let etag = (await call("PUT", url, { key, body: "0" })).headers.get("etag") as string;
    for (let round = 1; round <= 10; round++) {
      const [a, b] = await Promise.all([
        call("PUT", url, { key, body: `${round}a`, headers: { "if-match": etag } }),
        call("PUT", url, { key, body: `${round}b`, headers: { "if-match": etag } }),
      ]);
      expect([a.status, b.status].sort()).toEqual([200, 412]);
      const winner = a.status === 200 ? a : b;
      const body = new TextDecoder().decode(await (await call("GET", url, { key })).arrayBuffer());
      expect(body).toBe(a.status === 200 ? `${round}a` : `${round}b`);
      etag = winner.headers.get("etag") as string;
    }
  });

  it("lets exactly one of several If-None-Match: * creations win", async () => {
    const { key } = await signup();
    const id = await createWorkspace(key);
    const responses = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        call("PUT", `/v1/workspaces/${id}/files/lock`, { key, body: `owner-${i}`, headers: { "if-none-match": "*" } }),
      ),
    );
    expect(responses.map((r) => r.status).sort()).toEqual([200, 412, 412, 412, 412]);
  });
});
