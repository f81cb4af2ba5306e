/** SHA-256 helpers shared by key hashing, idempotency fingerprints and file etags. */

export async function sha256(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
}

/** Each byte's two hex digits, looked up: a push of 1,000 small files hashes each once. */
const HEX_DIGITS = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, "0"));

export function hex(bytes: Uint8Array): string {
  let text = "";
  for (const byte of bytes) text += HEX_DIGITS[byte];
  return text;
}

export async function sha256Hex(text: string): Promise<string> {
  return hex(await sha256(text));
}
