/**
 * Test only: the internet, as the Workers tests see it. vitest.config.ts makes this the test
 * Worker's outbound service (there is no network here), so the egress gateway's `fetch`
 * lands in this Node function. On `upstream.test` it reads the whole request body, then:
 *
 * - `/bytes/<n>` answers n bytes, streamed in 16 KiB pieces, with `x-received-bytes` (the
 *   request body bytes it read) and `x-received-length` (the Content-Length it was sent);
 * - `/redirect?to=<url>` answers 302 to `url`.
 *
 * Anything else is a 502, so a test that reaches for the real internet fails visibly.
 */
const pieceBytes = 16 * 1024;

export async function testUpstream(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const receivedBytes = request.body ? (await request.arrayBuffer()).byteLength : 0;
  if (url.hostname !== "upstream.test") return new Response(`no internet in tests: ${url.origin}\n`, { status: 502 });
  const redirect = url.pathname === "/redirect" ? url.searchParams.get("to") : null;
  if (redirect) return new Response(null, { status: 302, headers: { location: redirect } });
  const bytes = /^\/bytes\/(\d+)$/.exec(url.pathname)?.[1];
  if (bytes === undefined) return new Response("not found\n", { status: 404 });
  let left = Number(bytes);
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (left === 0) return controller.close();
      const piece = Math.min(left, pieceBytes);
      left -= piece;
      controller.enqueue(new Uint8Array(piece).fill(120));
    },
  });
  return new Response(body, {
    headers: {
      "x-received-bytes": String(receivedBytes),
      "x-received-length": request.headers.get("content-length") ?? "none",
    },
  });
}
