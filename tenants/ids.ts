/**
 * Opaque, type-prefixed identifiers (`ws_…`, `key_…`, `ten_…`) that sort by creation time:
 * 48 bits of milliseconds then 80 random bits, in lowercase Crockford base32 like a ULID.
 * Sorting by id is therefore sorting by age, which is what cursor pagination relies on.
 *
 * The encoder is written here rather than taken from a ULID package because the same
 * twelve lines also encode API key secrets, which are not ULIDs.
 */

const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";

/** Lowercase Crockford base32 without padding; 5 bits per character. */
export function base32(bytes: Uint8Array): string {
  let out = "";
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(buffer << (5 - bits)) & 31];
  return out;
}

export const BASE32_CHARS = "[0-9a-hjkmnp-tv-z]";

export type IdPrefix =
  | "ten"
  | "key"
  | "ws"
  | "req"
  | "ex"
  | "evt"
  | "bat"
  | "inv"
  | "sk"
  | "tok"
  | "art"
  | "shr"
  | "ses"
  | "snap";

export function newId(prefix: IdPrefix, nowMs = Date.now()): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes.subarray(6));
  let time = nowMs;
  for (let i = 5; i >= 0; i--) {
    bytes[i] = time % 256;
    time = Math.floor(time / 256);
  }
  return `${prefix}_${base32(bytes)}`;
}
