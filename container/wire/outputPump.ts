/**
 * Carries a run's output to its sink in order, in pieces, with back-pressure: the shell and
 * javascript guests' output to the workspace object, and computerd's from a container command.
 *
 * Small writes are gathered for `sinkFlushDelayMs` (one RPC per echo would cost more than
 * the echo) and sent while the script sleeps or awaits I/O; a script that produces output
 * without ever yielding is made to wait for the sink once `sinkBufferBytesMax` is queued.
 * Past `capBytes` (stdout and stderr together) output is dropped and `truncated` set: the
 * run goes on, as a process writing into a capped log would.
 */
import type { OutputPiece, OutputSinkApi, OutputStream } from "./exec.ts";

export const outputPumpLimits = {
  /** Output is sent to the sink in pieces of at most this size (one RPC each, awaited). */
  sinkPieceBytesMax: 64 * 1024,
  /** Output a run holds before it waits for the sink; bounds memory when a run floods. */
  sinkBufferBytesMax: 256 * 1024,
  /** Output still queued when a run ends that goes back with its outcome instead of to the sink (one call fewer). */
  tailBytesMax: 64 * 1024,
  /** How long a small piece of output may wait for company before it is sent. */
  sinkFlushDelayMs: 20,
} as const;

interface Piece {
  stream: OutputStream;
  parts: Uint8Array[];
  bytes: number;
}

/** One array holding exactly the piece: a view into a larger buffer would send all of that buffer. */
function join(piece: Piece): Uint8Array {
  const only = piece.parts.length === 1 ? (piece.parts[0] as Uint8Array) : undefined;
  if (only && only.byteOffset === 0 && only.byteLength === only.buffer.byteLength) return only;
  const joined = new Uint8Array(piece.bytes);
  let at = 0;
  for (const part of piece.parts) {
    joined.set(part, at);
    at += part.length;
  }
  return joined;
}

export class OutputPump {
  /** True once output past the cap was dropped. */
  truncated = false;
  /** Why the sink stopped taking output, if it did; the run is stopped then (see `onFailure`). */
  failure: unknown;
  private acceptedBytes = 0;
  private queue: Piece[] = [];
  private queuedBytes = 0;
  private sending: Promise<void> = Promise.resolve();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly sink: OutputSinkApi;
  private readonly capBytes: number;
  private readonly onFailure: (error: unknown) => void;

  // Fields set by hand, not as parameter properties: computerd runs this file under Node's
  // type stripping, which accepts only erasable TypeScript.
  constructor(sink: OutputSinkApi, capBytes: number, onFailure: (error: unknown) => void) {
    this.sink = sink;
    this.capBytes = capBytes;
    this.onFailure = onFailure;
  }

  async write(stream: OutputStream, data: Uint8Array): Promise<void> {
    if (data.length === 0 || this.failure !== undefined) return;
    const room = this.capBytes - this.acceptedBytes;
    if (data.length > room) this.truncated = true;
    const bytes = data.length > room ? data.subarray(0, Math.max(0, room)) : data;
    if (bytes.length === 0) return;
    this.acceptedBytes += bytes.length;
    this.enqueue(stream, bytes);
    if (this.queuedBytes >= outputPumpLimits.sinkBufferBytesMax) await this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), outputPumpLimits.sinkFlushDelayMs);
  }

  /** Sends everything queued so far; resolves when the sink has taken it (or failed). */
  flush(): Promise<void> {
    const pieces = this.take();
    if (pieces.length > 0) this.sending = this.sending.then(() => this.send(pieces));
    return this.sending;
  }

  /**
   * Ends the pump: waits for what is being sent, then hands back what is still queued, to go
   * with the run's outcome, when it is at most `tailBytesMax`; more than that is sent first.
   */
  async finish(): Promise<OutputPiece[]> {
    if (this.queuedBytes > outputPumpLimits.tailBytesMax) {
      await this.flush();
      return [];
    }
    const pieces = this.take();
    await this.sending;
    return this.failure === undefined ? pieces.map((piece) => ({ stream: piece.stream, data: join(piece) })) : [];
  }

  /** Empties the queue (and its pending flush) and answers what it held. */
  private take(): Piece[] {
    clearTimeout(this.timer);
    this.timer = undefined;
    const pieces = this.queue;
    this.queue = [];
    this.queuedBytes = 0;
    return pieces;
  }

  private enqueue(stream: OutputStream, bytes: Uint8Array): void {
    for (let at = 0; at < bytes.length; ) {
      let piece = this.queue.at(-1);
      if (!piece || piece.stream !== stream || piece.bytes >= outputPumpLimits.sinkPieceBytesMax) {
        piece = { stream, parts: [], bytes: 0 };
        this.queue.push(piece);
      }
      const part = bytes.subarray(at, at + outputPumpLimits.sinkPieceBytesMax - piece.bytes);
      piece.parts.push(part);
      piece.bytes += part.length;
      this.queuedBytes += part.length;
      at += part.length;
    }
  }

  private async send(pieces: Piece[]): Promise<void> {
    for (const piece of pieces) {
      if (this.failure !== undefined) return;
      try {
        await this.sink.write(piece.stream, join(piece));
      } catch (error) {
        this.failure = error ?? new Error("output sink failed");
        this.onFailure(this.failure);
      }
    }
  }
}
