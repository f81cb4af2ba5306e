/** The SSE reader yields whole frames however the bytes are split, and skips keepalives. */
import { describe, expect, it } from "vitest";
import { readSse } from "../src/lib/sse.ts";

function streamOf(...parts: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(encoder.encode(part));
      controller.close();
    },
  });
}

async function frames(body: ReadableStream<Uint8Array>, idleMs?: number) {
  const out = [];
  for await (const frame of readSse(body, idleMs === undefined ? {} : { idleMs })) out.push(frame);
  return out;
}

describe("readSse", () => {
  it("joins frames split across chunks, even inside a multi-byte character", async () => {
    const text = 'id: 1\nevent: stdout\ndata: {"text":"héllo"}\n\n: keepalive\n\nid: 2\nevent: exit\ndata: {}\n\n';
    const bytes = new TextEncoder().encode(text);
    const cut = text.indexOf("é") + 1; // inside the two bytes of é
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.subarray(0, cut));
        controller.enqueue(bytes.subarray(cut));
        controller.close();
      },
    });
    expect(await frames(body)).toEqual([
      { id: "1", event: "stdout", data: '{"text":"héllo"}' },
      { id: "2", event: "exit", data: "{}" },
    ]);
  });

  it("joins multi-line data and accepts CRLF", async () => {
    expect(await frames(streamOf("data: a\r\ndata: b\r\n\r\n"))).toEqual([
      { id: null, event: "message", data: "a\nb" },
    ]);
  });

  it("treats a silent connection as dropped", async () => {
    const silent = new ReadableStream<Uint8Array>({ start() {} });
    await expect(frames(silent, 30)).rejects.toThrow(/no data for 30 ms/);
  });
});
