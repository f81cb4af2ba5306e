/**
 * Output events as the API shows them: JSON objects with the text (and base64 when the
 * bytes are not UTF-8, so binary output survives), and as Server-Sent Events whose ids
 * are the sequence numbers — which is what lets a client resume with `Last-Event-ID`.
 */
import type { OutputEvent } from "./records.ts";

export interface OutputEventView {
  seq: number;
  stream: OutputEvent["stream"];
  /** The bytes as UTF-8 text (invalid sequences replaced); for `exit`, the JSON outcome. */
  text: string;
  /** The exact bytes, base64, present only when they are not valid UTF-8. */
  base64?: string;
}

const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });
const lenient = new TextDecoder();

export function viewEvent(event: OutputEvent): OutputEventView {
  try {
    return { seq: event.seq, stream: event.stream, text: strict.decode(event.data) };
  } catch {
    let binary = "";
    for (const byte of event.data) binary += String.fromCharCode(byte);
    return { seq: event.seq, stream: event.stream, text: lenient.decode(event.data), base64: btoa(binary) };
  }
}

export function sseFrame(event: OutputEvent): string {
  const view = viewEvent(event);
  const data =
    event.stream === "exit"
      ? view.text
      : JSON.stringify({ text: view.text, ...(view.base64 ? { base64: view.base64 } : {}) });
  return `id: ${event.seq}\nevent: ${event.stream}\ndata: ${data}\n\n`;
}

/** A comment line: keeps proxies from closing an idle stream, ignored by clients. */
export const SSE_KEEPALIVE = ": keepalive\n\n";
