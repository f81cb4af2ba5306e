/**
 * The API key format: `cub_` + 32 characters of randomness (160 bits) + an 8-character
 * checksum (the first 40 bits of SHA-256 over everything before it). The checksum lets the
 * gateway refuse a mistyped, truncated or made-up key without touching storage, and lets
 * secret scanners recognise a real key with few false positives. Only `hashSecret()` of a
 * key is stored, never the key.
 */
import { sha256, sha256Hex } from "../hash.ts";
import { BASE32_CHARS, base32 } from "../ids.ts";

export const KEY_PREFIX = "cub_";
const RANDOM_BYTES = 20;
const RANDOM_CHARS = 32;
const CHECKSUM_CHARS = 8;
/** How much of a key is shown back to the user to tell keys apart. */
const DISPLAY_PREFIX_CHARS = 12;

const KEY_SHAPE = new RegExp(`^${KEY_PREFIX}${BASE32_CHARS}{${RANDOM_CHARS + CHECKSUM_CHARS}}$`);

async function checksum(body: string): Promise<string> {
  return base32((await sha256(body)).subarray(0, 5));
}

export async function generateKeySecret(): Promise<string> {
  const body = KEY_PREFIX + base32(crypto.getRandomValues(new Uint8Array(RANDOM_BYTES)));
  return body + (await checksum(body));
}

export type KeyShapeCheck = "ok" | "malformed" | "bad_checksum";

/** Checks the shape and checksum of a presented key; no storage is involved. */
export async function checkKeySecret(secret: string): Promise<KeyShapeCheck> {
  if (!KEY_SHAPE.test(secret)) return "malformed";
  const body = secret.slice(0, -CHECKSUM_CHARS);
  return (await checksum(body)) === secret.slice(-CHECKSUM_CHARS) ? "ok" : "bad_checksum";
}

export async function hashSecret(secret: string): Promise<string> {
  return sha256Hex(secret);
}

export function displayPrefix(secret: string): string {
  return secret.slice(0, DISPLAY_PREFIX_CHARS);
}
