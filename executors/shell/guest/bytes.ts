/**
 * Bytes and just-bash's strings. just-bash moves data as JS strings in two shapes: text
 * (Unicode, written out as UTF-8) and "byte strings" (one char per byte, Latin-1 style,
 * marked with the encoding "binary"). Everything that leaves the guest is a Uint8Array.
 */

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder("utf-8");
const strictUtf8Decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** One byte per char; the caller guarantees every char is below U+0100. */
export function latin1Bytes(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/** One char per byte, in slices so a large buffer does not overflow the call stack. */
export function latin1String(bytes: Uint8Array): string {
  let text = "";
  for (let at = 0; at < bytes.length; at += 0x8000) {
    text += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  }
  return text;
}

export function utf8Bytes(text: string): Uint8Array {
  return utf8Encoder.encode(text);
}

function isUtf8(bytes: Uint8Array): boolean {
  try {
    strictUtf8Decoder.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** The encodings just-bash passes to IFileSystem reads and writes (Node's names). */
function encodingOf(options: unknown): string {
  if (typeof options === "string") return options;
  if (options && typeof options === "object" && "encoding" in options && typeof options.encoding === "string") {
    return options.encoding;
  }
  return "utf8";
}

/** File content as just-bash hands it to writeFile/appendFile, as the bytes to store. */
export function contentBytes(content: string | Uint8Array, options?: unknown): Uint8Array {
  if (typeof content !== "string") return content;
  switch (encodingOf(options)) {
    case "binary":
    case "latin1":
    case "ascii":
      return latin1Bytes(content);
    case "base64":
      return latin1Bytes(atob(content));
    case "hex":
      return Uint8Array.from(content.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16));
    default:
      return utf8Bytes(content);
  }
}

/** Stored bytes as the string readFile promises for an encoding. */
export function bytesContent(bytes: Uint8Array, options?: unknown): string {
  switch (encodingOf(options)) {
    case "binary":
    case "latin1":
    case "ascii":
      return latin1String(bytes);
    case "base64":
      return btoa(latin1String(bytes));
    case "hex":
      return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
    default:
      return utf8Decoder.decode(bytes);
  }
}

/**
 * The bytes a shell would have written for one piece of just-bash text output.
 *
 * just-bash keeps some raw bytes inside *text*: `printf '\xff'` yields the char U+00FF, and
 * output that was not valid UTF-8 comes back as Latin-1 chars. A real shell writes those as
 * single bytes. So text whose chars all fit in a byte is written one byte per char when
 * that is valid UTF-8 anyway (just-bash's own rule for its final output) or when it holds
 * a NUL or a C1 control (U+0080–U+009F), which text never does; otherwise it is UTF-8.
 * The one thing this gets wrong is text that mixes Latin-1 letters with NULs in a single
 * piece (`find -print0` of a name like `café`), which comes out one byte per char.
 */
export function shellTextBytes(text: string): Uint8Array {
  let high = false;
  let binary = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code > 0xff) return utf8Bytes(text);
    if (code >= 0x80) {
      high = true;
      if (code < 0xa0) binary = true;
    } else if (code === 0) {
      binary = true;
    }
  }
  const bytes = latin1Bytes(text);
  if (!high || binary || isUtf8(bytes)) return bytes;
  return utf8Bytes(text);
}
