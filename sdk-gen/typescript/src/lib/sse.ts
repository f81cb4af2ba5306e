/**
 * A Server-Sent Events reader: yields one `{ id, event, data }` per frame as bytes arrive,
 * skipping comment frames (the server's keepalives). Written here rather than taken from
 * the generated core because resuming needs the raw `id` of each frame and control over
 * when to reconnect; the format itself is small (WHATWG HTML, "Server-sent events").
 */
export interface SseFrame {
  id: string | null;
  event: string;
  data: string;
}

function parseFrame(text: string): SseFrame | null {
  const frame: SseFrame = { id: null, event: "message", data: "" };
  const data: string[] = [];
  let fields = 0;
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (line === "" || line.startsWith(":")) continue;
    fields++;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (field === "id") frame.id = value;
    else if (field === "event") frame.event = value;
    else if (field === "data") data.push(value);
  }
  frame.data = data.join("\n");
  return fields === 0 ? null : frame;
}

/** Resolves with the next chunk, or rejects when none (not even a keepalive) came for `idleMs`. */
async function readWithin<T>(reader: ReadableStreamDefaultReader<T>, idleMs: number) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const idle = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no data for ${idleMs} ms`)), idleMs);
  });
  try {
    return await Promise.race([reader.read(), idle]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The frames of `body`. A connection that goes silent for `idleMs` counts as dropped (the
 * server sends a keepalive comment every 15 s), so a half-open socket cannot hang a reader.
 */
export async function* readSse(body: ReadableStream<Uint8Array>, { idleMs = 45_000 } = {}): AsyncGenerator<SseFrame> {
  const reader = body
    .pipeThrough(new TextDecoderStream() as unknown as ReadableWritablePair<string, Uint8Array>)
    .getReader();
  let buffer = "";
  try {
    for (;;) {
      const { value, done } = await readWithin(reader, idleMs);
      if (done) return;
      buffer += value;
      for (let end = buffer.search(/\r?\n\r?\n/); end !== -1; end = buffer.search(/\r?\n\r?\n/)) {
        const frame = parseFrame(buffer.slice(0, end));
        buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, "");
        if (frame !== null) yield frame;
      }
    }
  } finally {
    // Stops the download when the consumer leaves early (a `break` out of the loop).
    await reader.cancel().catch(() => {});
  }
}
