/** The gateway's counting and refusals, against fake upstreams (the tests have no internet). */
import { describe, expect, it } from "vitest";
import { type EgressUsage, type MeteredFetchDeps, meteredFetch } from "./meteredFetch.ts";

/** A body of `chunks` pieces of `chunkBytes` each, produced one at a time as it is read. */
function streamed(chunks: number, chunkBytes: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent++ === chunks) return controller.close();
      controller.enqueue(new Uint8Array(chunkBytes).fill(97));
    },
  });
}

/** Deps around `upstream`, remembering every recording and every waitUntil. */
function harness(upstream: MeteredFetchDeps["fetch"]) {
  const recorded: EgressUsage[] = [];
  const waited: Promise<unknown>[] = [];
  const deps: MeteredFetchDeps = {
    fetch: upstream,
    record: async (usage) => {
      recorded.push(usage);
    },
    waitUntil: (work) => waited.push(work),
  };
  const settled = () => Promise.all(waited);
  return { deps, recorded, waited, settled };
}

/** An upstream that reads the whole request body, then answers `chunks` × `chunkBytes`. */
const readsThenAnswers =
  (chunks: number, chunkBytes: number, seen: Request[] = []) =>
  async (request: Request) => {
    seen.push(request);
    await request.arrayBuffer();
    return new Response(streamed(chunks, chunkBytes), { status: 200, headers: { "x-up": "1" } });
  };

describe("meteredFetch", () => {
  it("counts streamed request and response bodies and records once, when the response ends", async () => {
    const seen: Request[] = [];
    const { deps, recorded, settled } = harness(readsThenAnswers(10, 1000, seen));
    const request = new Request("https://example.com/upload?x=1", {
      method: "PUT",
      headers: { authorization: "Bearer t", "x-custom": "kept" },
      body: streamed(3, 512),
    });
    const response = await meteredFetch(request, deps);
    expect(response.status).toBe(200);
    expect(response.headers.get("x-up")).toBe("1");
    // Nothing is recorded while the response body is still unread.
    expect(recorded).toEqual([]);
    expect((await response.arrayBuffer()).byteLength).toBe(10_000);
    await settled();
    expect(recorded).toEqual([{ sentBytes: 1536, receivedBytes: 10_000 }]);
    const [upstream] = seen;
    expect(upstream?.url).toBe("https://example.com/upload?x=1");
    expect(upstream?.method).toBe("PUT");
    expect(upstream?.headers.get("authorization")).toBe("Bearer t");
    expect(upstream?.headers.get("x-custom")).toBe("kept");
  });

  it("records what was read when the executor cancels the response body", async () => {
    const { deps, recorded, settled } = harness(readsThenAnswers(100, 1000));
    const response = await meteredFetch(new Request("https://example.com/big"), deps);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const first = await reader.read();
    await reader.cancel("enough");
    await settled();
    expect(recorded).toHaveLength(1);
    expect(recorded[0]?.sentBytes).toBe(0);
    expect(recorded[0]?.receivedBytes).toBeGreaterThanOrEqual(first.value?.byteLength ?? 0);
    expect(recorded[0]?.receivedBytes).toBeLessThan(100_000);
  });

  it("records at once when the response has no body, and not at all when nothing moved", async () => {
    const upstream = async (request: Request) => {
      await request.arrayBuffer();
      return new Response(null, { status: 204 });
    };
    const posted = harness(upstream);
    await meteredFetch(new Request("https://example.com/", { method: "POST", body: "12345" }), posted.deps);
    await posted.settled();
    expect(posted.recorded).toEqual([{ sentBytes: 5, receivedBytes: 0 }]);

    const empty = harness(upstream);
    expect((await meteredFetch(new Request("https://example.com/"), empty.deps)).status).toBe(204);
    await empty.settled();
    expect(empty.recorded).toEqual([]);
  });

  it("answers 502 when the upstream cannot be reached, recording the bytes it read", async () => {
    const { deps, recorded, settled } = harness(async (request) => {
      const reader = (request.body as ReadableStream<Uint8Array>).getReader();
      await reader.read();
      throw new Error("connection reset");
    });
    const body = streamed(4, 100);
    const response = await meteredFetch(new Request("https://example.com/", { method: "POST", body }), deps);
    expect(response.status).toBe(502);
    expect(await response.text()).toContain("could not reach https://example.com: connection reset");
    await settled();
    expect(recorded).toEqual([{ sentBytes: 100, receivedBytes: 0 }]);
  });

  it("leaves redirects to the executor, so each hop passes the destination check", async () => {
    const seen: Request[] = [];
    const { deps, recorded, settled } = harness(async (request) => {
      seen.push(request);
      return new Response(null, { status: 302, headers: { location: "http://127.0.0.1/" } });
    });
    const response = await meteredFetch(new Request("https://example.com/"), deps);
    expect(seen[0]?.redirect).toBe("manual");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("http://127.0.0.1/");
    await settled();
    expect(recorded).toEqual([]);
  });

  it("refuses a host outside the run's allow list with a 403, before the upstream and unbilled", async () => {
    const seen: Request[] = [];
    const { deps, recorded, waited } = harness(readsThenAnswers(1, 10, seen));
    const allow = ["*.npmjs.org", "api.github.com:443"];
    const refused = await meteredFetch(new Request("https://npmjs.org/", { method: "POST", body: "x" }), deps, allow);
    expect(refused.status).toBe(403);
    expect(await refused.text()).toBe(
      "cubicle egress: refused https://npmjs.org: not in this run's allow list (*.npmjs.org, api.github.com:443)\n",
    );
    const wrongPort = await meteredFetch(new Request("http://api.github.com/"), deps, allow);
    expect(await wrongPort.text()).toMatch(
      /^cubicle egress: refused http:\/\/api.github.com: not in this run's allow list/,
    );
    expect(seen).toEqual([]);
    expect(recorded).toEqual([]);
    expect(waited).toEqual([]);

    const allowed = await meteredFetch(new Request("https://registry.npmjs.org/react"), deps, allow);
    expect(allowed.status).toBe(200);
    expect(seen.map((r) => r.url)).toEqual(["https://registry.npmjs.org/react"]);
  });

  it.each([
    ["http://127.0.0.1:1/", "127.0.0.1 is a private or loopback address"],
    ["http://localhost/", "localhost is the local host"],
    ["http://[::1]/", "[::1] is a private or loopback address"],
    ["http://169.254.169.254/", "169.254.169.254 is a private or loopback address"],
  ])("refuses %s with a 403 and never calls the upstream", async (url, reason) => {
    let called = false;
    const { deps, recorded, waited } = harness(async () => {
      called = true;
      return new Response("no");
    });
    const response = await meteredFetch(new Request(url, { method: "POST", body: "secret" }), deps);
    expect(response.status).toBe(403);
    const text = await response.text();
    expect(text).toMatch(/^cubicle egress: refused /);
    expect(text).toContain(reason);
    expect(called).toBe(false);
    expect(recorded).toEqual([]);
    expect(waited).toEqual([]);
  });
});
