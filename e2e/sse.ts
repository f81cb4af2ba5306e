/** A small Server-Sent Events reader for tests: yields `{ id, event, data }` as frames arrive. */
export interface SseEvent {
  id: string | null;
  event: string;
  data: string;
}

export async function* readSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const part of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(part, { stream: true });
    let end = buffer.indexOf("\n\n");
    while (end !== -1) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      end = buffer.indexOf("\n\n");
      const event: SseEvent = { id: null, event: "message", data: "" };
      let comment = true;
      for (const line of frame.split("\n")) {
        if (line.startsWith(":")) continue;
        comment = false;
        const colon = line.indexOf(":");
        const field = colon === -1 ? line : line.slice(0, colon);
        const value = colon === -1 ? "" : line.slice(colon + 1).replace(/^ /, "");
        if (field === "id") event.id = value;
        else if (field === "event") event.event = value;
        else if (field === "data") event.data += event.data ? `\n${value}` : value;
      }
      if (!comment) yield event;
    }
  }
}
