/**
 * The session's framing: capnweb's messages with raw byte arrays, one binary frame each,
 * through a real WebSocket (Node's `ws` server, the platform's WebSocket client), and the
 * frames it must refuse.
 */
import type { AddressInfo } from "node:net";
import { RpcTarget } from "capnweb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocketServer } from "ws";
import { decodeFrame, encodeFrame, newSocketRpcSession, type RpcSocket } from "./socket.ts";

const bytes = (length: number, seed = 1) => Uint8Array.from({ length }, (_, i) => (i * seed + 7) & 255);

/** A frame whose JSON is `json` and whose parts are `parts`, built by hand. */
function frame(json: string, parts: Uint8Array[], extra = 0): Uint8Array {
  const text = new TextEncoder().encode(json);
  const out = new Uint8Array(8 + text.byteLength + parts.reduce((s, p) => s + 4 + p.byteLength, 0) + extra);
  const view = new DataView(out.buffer);
  view.setUint32(0, text.byteLength);
  view.setUint32(4, parts.length);
  out.set(text, 8);
  let at = 8 + text.byteLength;
  for (const part of parts) {
    view.setUint32(at, part.byteLength);
    out.set(part, at + 4);
    at += 4 + part.byteLength;
  }
  return out;
}

describe("encodeFrame and decodeFrame", () => {
  it("carry each byte array raw, wherever capnweb put it, and give back the same message", () => {
    const message = () => [
      "push",
      1,
      ["pipeline", 0, ["apply"], [[{ op: "write", bytes: ["bytes", bytes(70_000)] }, { bytes: ["bytes", bytes(0)] }]]],
      ["bytes", bytes(9, 3), "Uint16Array"],
      // A user's array that looks like a tag, escaped by capnweb's own wrapping.
      [["bytes", "not a part"]],
    ];
    const encoded = encodeFrame(message());
    // The content is there once, not as base64 inside JSON text.
    expect(encoded).toBeInstanceOf(Uint8Array);
    expect((encoded as Uint8Array).byteLength).toBeLessThan(70_000 + 9 + 400);
    expect(decodeFrame(encoded)).toEqual(message());
  });

  it("send a message without byte arrays as its JSON text", () => {
    const message = ["release", 3, 1, { a: [["x"]] }];
    expect(encodeFrame(structuredClone(message))).toBe(JSON.stringify(message));
    expect(decodeFrame(JSON.stringify(message))).toEqual(message);
  });

  it("refuses a message holding an object keyed like a part", () => {
    expect(() => encodeFrame({ "\u0000part": 0 })).toThrow(/keyed like a byte part/);
  });

  it("refuses frames it would not have made", () => {
    const part = `["bytes",{"\\u0000part":0}]`;
    const refused = {
      short: new Uint8Array(5),
      "JSON past the end": frame("[1]", []).subarray(0, 10),
      "part past the end": frame(part, [bytes(10)]).subarray(0, 30),
      "bytes after the last part": frame(part, [bytes(10)], 3),
      "an index with no part": frame(`["bytes",{"\\u0000part":1}]`, [bytes(10)]),
      "one part twice": frame(`[${part},${part}]`, [bytes(10)]),
      "a part outside a tag": frame(`[{"\\u0000part":0}]`, [bytes(10)]),
      "a part never placed": frame("[1]", [bytes(10)]),
      "text that is not UTF-8": frame('["\u00ff"]', []).map((b, i) => (i === 10 ? 0xff : b)),
    };
    for (const [why, bad] of Object.entries(refused)) expect(() => decodeFrame(bad), why).toThrow(TypeError);
  });
});

describe("newSocketRpcSession", () => {
  let server: WebSocketServer;
  let url: string;
  const frames: { binary: boolean; size: number }[] = [];

  class Store extends RpcTarget {
    async apply(ops: { path: string; bytes: Uint8Array }[]) {
      return ops.map((op) => ({ path: op.path, size: op.bytes.byteLength, last: op.bytes.at(-1) ?? null }));
    }
    async read(size: number) {
      return bytes(size, 5);
    }
  }

  beforeAll(async () => {
    server = new WebSocketServer({ port: 0, host: "127.0.0.1" });
    server.on("connection", (ws) => {
      ws.on("message", (data, isBinary) => frames.push({ binary: isBinary, size: (data as Buffer).byteLength }));
      newSocketRpcSession(ws as unknown as RpcSocket, new Store());
    });
    await new Promise((resolve) => server.once("listening", resolve));
    url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it("calls both ways with bytes intact, a message with bytes one binary frame about their size", async () => {
    using store = newSocketRpcSession<Store>(new WebSocket(url) as unknown as RpcSocket);
    const ops = [
      { path: "/a", bytes: bytes(4 * 1024 * 1024, 3) },
      { path: "/b", bytes: bytes(1) },
      { path: "/empty", bytes: new Uint8Array() },
    ];
    expect(await store.apply(ops)).toEqual([
      { path: "/a", size: 4 * 1024 * 1024, last: ops[0]?.bytes.at(-1) },
      { path: "/b", size: 1, last: 7 },
      { path: "/empty", size: 0, last: null },
    ]);
    expect(await store.read(100_000)).toEqual(bytes(100_000, 5));
    const big = frames.find((f) => f.size > 4 * 1024 * 1024);
    expect(big).toBeDefined();
    expect(big?.size).toBeLessThan(4 * 1024 * 1024 + 1024);
    // The rest (the calls, the releases) are JSON text.
    expect(frames.filter((f) => f.binary)).toHaveLength(1);
  });

  it("ends the session on a frame it cannot read, and the caller's call fails", async () => {
    const socket = new WebSocket(url);
    using store = newSocketRpcSession<Store>(socket as unknown as RpcSocket);
    expect(await store.apply([{ path: "/x", bytes: bytes(3) }])).toHaveLength(1);
    const closed = new Promise<number>((resolve) => socket.addEventListener("close", (event) => resolve(event.code)));
    socket.send("a text frame");
    expect(await closed).toBe(1003);
    await expect(store.apply([{ path: "/y", bytes: bytes(3) }])).rejects.toThrow();
  });
});
