/**
 * How workspace bytes leave the dashboard. Workspace content is never served as HTML or
 * script: everything is `application/octet-stream` except the four raster image types,
 * recognised by their magic bytes (never by a file's name, which anyone can choose), and a
 * download names its file by RFC 6266 with an ASCII fallback and a UTF-8 `filename*`.
 */

/** Bytes needed to recognise every image type below (WebP's tag sits at offset 8). */
export const MAGIC_BYTES = 12;

export type ImageType = "image/png" | "image/jpeg" | "image/gif" | "image/webp";

const ascii = (text: string) => Array.from(text, (char) => char.charCodeAt(0));

const SIGNATURES: { type: ImageType; parts: { offset: number; bytes: number[] }[] }[] = [
  { type: "image/png", parts: [{ offset: 0, bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] }] },
  { type: "image/jpeg", parts: [{ offset: 0, bytes: [0xff, 0xd8, 0xff] }] },
  { type: "image/gif", parts: [{ offset: 0, bytes: ascii("GIF87a") }] },
  { type: "image/gif", parts: [{ offset: 0, bytes: ascii("GIF89a") }] },
  // RIFF, four bytes of length, then WEBP: both parts must match, or any RIFF file (WAV, AVI) would pass.
  {
    type: "image/webp",
    parts: [
      { offset: 0, bytes: ascii("RIFF") },
      { offset: 8, bytes: ascii("WEBP") },
    ],
  },
];

/** Whether the bytes start like a PDF (`%PDF-`). */
export function isPdf(head: Uint8Array): boolean {
  return ascii("%PDF-").every((byte, i) => head[i] === byte);
}

/** The image type the bytes start with, or null for anything else (including SVG, which can carry script). */
export function imageType(head: Uint8Array): ImageType | null {
  const match = SIGNATURES.find(({ parts }) =>
    parts.every(({ offset, bytes }) => bytes.every((byte, i) => head[offset + i] === byte)),
  );
  return match?.type ?? null;
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The bytes as text when they are valid UTF-8, otherwise null. */
export function utf8Text(bytes: Uint8Array): string | null {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return null;
  }
}

/**
 * `attachment` with the file's name. The quoted `filename` is an ASCII fallback (controls
 * and non-ASCII become `_`, `"` and `\` are escaped); `filename*` carries the exact name,
 * percent-encoded UTF-8, whenever the name is not all printable ASCII.
 */
export function attachmentDisposition(name: string): string {
  const printable = name.replace(/[^\x20-\x7e]/g, "_");
  const fallback = printable.replace(/["\\]/g, "\\$&");
  if (printable === name) return `attachment; filename="${fallback}"`;
  // RFC 8187 attr-char leaves out ' ( ) * which encodeURIComponent keeps.
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/**
 * Reads at least `count` bytes off the front of a stream (fewer when it ends sooner) and
 * hands back those bytes and a stream of the whole content, the peeked chunks first. The
 * returned stream owns the original: cancelling it cancels the original.
 */
export async function peek(
  stream: ReadableStream<Uint8Array>,
  count: number,
): Promise<{ head: Uint8Array; body: ReadableStream<Uint8Array> }> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let seen = 0;
  while (seen < count) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    seen += value.byteLength;
  }
  const head = new Uint8Array(Math.min(seen, count));
  let at = 0;
  for (const chunk of chunks) {
    if (at >= head.byteLength) break;
    const part = chunk.subarray(0, head.byteLength - at);
    head.set(part, at);
    at += part.byteLength;
  }
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
    },
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  return { head, body };
}
