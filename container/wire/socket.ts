/**
 * The capnweb session between a workspace object and computerd, on one WebSocket, with file
 * content sent as bytes. Both ends open their session here (the object in
 * executors/container/ComputerLink.ts, computerd in container/src/serve.ts), so they always
 * speak the same framing.
 *
 * Why not capnweb's own WebSocket transport: it sends every message as one JSON text, so a
 * pushed file's bytes crossed as base64 inside a JSON string, encoded, stringified, parsed
 * and decoded again, four passes over 8 MiB per `apply` batch, on two cores shared with the
 * command. capnweb leaves the final encoding to the transport when asked
 * ("jsonCompatibleWithBytes": the message is a JSON-compatible tree whose byte arrays are
 * left raw), and no library does that one step, so it is written here. A message with no
 * byte array (calls, answers, releases: most of them) goes as its JSON text, as before; one
 * with byte arrays goes as one binary frame,
 *
 *     u32 JSON length · u32 part count · JSON (UTF-8) · per part: u32 length · bytes
 *
 * (big-endian), the JSON holding `{"\u0000part": i}` where capnweb had the i-th byte array
 * (always as `["bytes", <array>]`). A frame that does not parse, or claims more than it
 * holds, ends the session. Measured in one Node process, capnweb on both ends, an `apply` of
 * 500 writes of 16 KiB took 135–300 ms with JSON text and 9–17 ms with this framing
 * (docs/container-sync.md, "Speed").
 *
 * Which framing a session speaks is agreed in its WebSocket upgrade: the object asks for this
 * one with the `FRAMING_HEADER` request header, and computerd answers with the same header
 * when it speaks it. A side that does not (a computerd or an object from before it) leaves
 * the header out, and both then speak capnweb's JSON text, so neither side of a rolling
 * deploy (a running container from the old image, a Worker from the new one) is left with a
 * peer it cannot read.
 */
import {
  newWebSocketRpcSession,
  type RpcCompatible,
  RpcSession,
  type RpcStub,
  type RpcTransportWithCustomEncoding,
} from "capnweb";

/** The upgrade's request and response header that agrees on the framing, and its value for this one. */
export const FRAMING_HEADER = "x-cubicle-framing";
export const BINARY_FRAMING = "binary-1";

/** Where a byte array stood in the JSON: an object with only this key, the part's index. */
const PART = "\u0000part";
const HEADER_BYTES = 8;
/** WebSocket.CONNECTING, which Node's `ws` and the Workers runtime both use. */
const CONNECTING = 0;
/** A close reason may be at most 123 bytes of UTF-8 (RFC 6455). */
const CLOSE_REASON_BYTES_MAX = 123;

/** The part of a WebSocket this needs: the standard one, a Worker's, and Node's `ws` all have it. */
export interface RpcSocket {
  binaryType: string;
  readonly readyState: number;
  send(data: string | Uint8Array): void;
  close(code?: number, reason?: string): void;
  addEventListener(
    type: "open" | "close" | "error",
    listener: (event: { code?: number; reason?: string }) => void,
  ): void;
  addEventListener(type: "message", listener: (event: { data: unknown }) => void): void;
}

const isTag = (value: unknown): value is unknown[] => Array.isArray(value) && value[0] === "bytes";
const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value) && !(value instanceof Uint8Array);

/**
 * Takes the byte arrays out of a message capnweb has just built for sending (its own arrays
 * and objects, which it does not use again), leaving each one's marker in its place. A walk
 * by hand rather than JSON.stringify's replacer: a replacer takes V8 off its fast path for
 * every value, which cost a push of 1,000 small files more than the base64 it saved.
 */
function takeParts(value: unknown, parts: Uint8Array[]): void {
  if (Array.isArray(value)) {
    if (value[0] === "bytes" && value[1] instanceof Uint8Array) {
      parts.push(value[1]);
      value[1] = { [PART]: parts.length - 1 };
      return;
    }
    for (const item of value) takeParts(item, parts);
  } else if (isPlainObject(value)) {
    if (Object.hasOwn(value, PART)) throw new TypeError("a message may not hold an object keyed like a byte part");
    for (const key in value) takeParts(value[key], parts);
  }
}

/** Puts each part back where its marker stands; a marker anywhere else, or a part left over, is refused. */
function putParts(value: unknown, parts: readonly Uint8Array[], used: Set<number>): void {
  if (Array.isArray(value)) {
    const marker = value[1];
    if (isTag(value) && isPlainObject(marker) && Object.hasOwn(marker, PART)) {
      const index = marker[PART];
      if (
        typeof index !== "number" ||
        !Number.isInteger(index) ||
        index >= parts.length ||
        index < 0 ||
        used.has(index)
      )
        throw new TypeError("a byte part out of place");
      used.add(index);
      value[1] = parts[index];
      for (let i = 2; i < value.length; i++) putParts(value[i], parts, used);
      return;
    }
    for (const item of value) putParts(item, parts, used);
  } else if (isPlainObject(value)) {
    if (Object.hasOwn(value, PART)) throw new TypeError("a byte part out of place");
    for (const key in value) putParts(value[key], parts, used);
  }
}

/**
 * One capnweb message (encoding level "jsonCompatibleWithBytes") as one frame: JSON text
 * when it holds no byte array (most messages: calls, answers, releases), else binary.
 */
export function encodeFrame(message: unknown): string | Uint8Array {
  const parts: Uint8Array[] = [];
  takeParts(message, parts);
  const json = JSON.stringify(message);
  if (parts.length === 0) return json;
  const text = new TextEncoder().encode(json);
  const size = parts.reduce((sum, part) => sum + 4 + part.byteLength, HEADER_BYTES + text.byteLength);
  const frame = new Uint8Array(size);
  const view = new DataView(frame.buffer);
  view.setUint32(0, text.byteLength);
  view.setUint32(4, parts.length);
  frame.set(text, HEADER_BYTES);
  let at = HEADER_BYTES + text.byteLength;
  for (const part of parts) {
    view.setUint32(at, part.byteLength);
    frame.set(part, at + 4);
    at += 4 + part.byteLength;
  }
  return frame;
}

/** A frame back into the message; throws on anything encodeFrame would not have made. */
export function decodeFrame(frame: string | Uint8Array): unknown {
  if (typeof frame === "string") return JSON.parse(frame);
  const view = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
  if (frame.byteLength < HEADER_BYTES) throw new TypeError("frame shorter than its header");
  const textBytes = view.getUint32(0);
  const count = view.getUint32(4);
  let at = HEADER_BYTES + textBytes;
  if (at > frame.byteLength || count > (frame.byteLength - at) / 4) throw new TypeError("frame shorter than it says");
  const parts: Uint8Array[] = [];
  for (let i = 0; i < count; i++) {
    if (at + 4 > frame.byteLength) throw new TypeError("frame shorter than it says");
    const length = view.getUint32(at);
    if (at + 4 + length > frame.byteLength) throw new TypeError("frame shorter than it says");
    parts.push(frame.subarray(at + 4, at + 4 + length));
    at += 4 + length;
  }
  if (at !== frame.byteLength) throw new TypeError("frame longer than it says");
  const text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(
    frame.subarray(HEADER_BYTES, HEADER_BYTES + textBytes),
  );
  const message: unknown = JSON.parse(text);
  const used = new Set<number>();
  putParts(message, parts, used);
  if (used.size !== count) throw new TypeError("a byte part with no place");
  return message;
}

/** capnweb's transport over one WebSocket, one frame per message (encodeFrame). */
class SocketTransport implements RpcTransportWithCustomEncoding {
  readonly encodingLevel = "jsonCompatibleWithBytes" as const;
  private readonly socket: RpcSocket;
  /** Messages sent before the socket opened, in order. */
  private queued: (string | Uint8Array)[] | null = null;
  private readonly received: unknown[] = [];
  private waiting: { resolve: (message: unknown) => void; reject: (error: unknown) => void } | null = null;
  private error: unknown = null;

  constructor(socket: RpcSocket) {
    this.socket = socket;
    socket.binaryType = "arraybuffer";
    if (socket.readyState === CONNECTING) {
      this.queued = [];
      socket.addEventListener("open", () => {
        try {
          for (const frame of this.queued ?? []) socket.send(frame);
        } catch (error) {
          this.failed(error);
        }
        this.queued = null;
      });
    }
    socket.addEventListener("message", ({ data }) => {
      if (this.error !== null) return;
      let message: unknown;
      try {
        if (typeof data === "string") message = decodeFrame(data);
        else if (data instanceof ArrayBuffer) message = decodeFrame(new Uint8Array(data));
        else throw new TypeError("a message neither text nor bytes");
      } catch (error) {
        this.failed(error);
        socket.close(1003, "unreadable message");
        return;
      }
      const waiting = this.waiting;
      this.waiting = null;
      if (waiting) waiting.resolve(message);
      else this.received.push(message);
    });
    socket.addEventListener("close", ({ code, reason }) => {
      this.failed(new Error(`the peer closed the session: ${code} ${reason}`));
    });
    socket.addEventListener("error", () => this.failed(new Error("the session's WebSocket failed")));
  }

  send(message: unknown): number {
    const frame = encodeFrame(message);
    if (this.queued) this.queued.push(frame);
    else this.socket.send(frame);
    return typeof frame === "string" ? frame.length : frame.byteLength;
  }

  receive(): Promise<unknown> {
    if (this.received.length > 0) return Promise.resolve(this.received.shift());
    if (this.error !== null) return Promise.reject(this.error);
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
    });
  }

  abort(reason: unknown): void {
    const text = reason instanceof Error ? reason.message : String(reason);
    const bytes = new TextEncoder().encode(text);
    const cut =
      bytes.byteLength > CLOSE_REASON_BYTES_MAX
        ? new TextDecoder().decode(bytes.subarray(0, CLOSE_REASON_BYTES_MAX), { stream: true })
        : text;
    this.socket.close(3000, cut);
    this.failed(reason);
  }

  private failed(error: unknown): void {
    if (this.error !== null) return;
    this.error = error ?? new Error("session ended");
    const waiting = this.waiting;
    this.waiting = null;
    waiting?.reject(this.error);
  }
}

/**
 * Starts the session on `socket`, serving `localMain`, in the framing the upgrade agreed
 * (`binary`: both sides sent FRAMING_HEADER); returns the peer's main object.
 */
export function newSyncRpcSession<T extends RpcCompatible<T> = undefined>(
  socket: RpcSocket,
  binary: boolean,
  localMain?: unknown,
): RpcStub<T> {
  if (binary) return newSocketRpcSession<T>(socket, localMain);
  return newWebSocketRpcSession<T>(socket as unknown as WebSocket, localMain);
}

/** Starts a binary-framed session on `socket`, serving `localMain`; returns the peer's main object. */
export function newSocketRpcSession<T extends RpcCompatible<T> = undefined>(
  socket: RpcSocket,
  localMain?: unknown,
): RpcStub<T> {
  return new RpcSession<T>(new SocketTransport(socket), localMain).getRemoteMain();
}
