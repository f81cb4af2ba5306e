/**
 * A key checked before it is sent. An API key or token travels in the `Authorization`
 * header, which carries only visible ASCII; a key with anything else (a placeholder such as
 * `cub_…` copied from the docs, a space, a line break from a file) would otherwise fail deep
 * inside fetch with a message about header values. Here it fails at once, saying why.
 */
import { CubicleError } from "./errors.ts";

/** The key could not be a credential: thrown by `new Cubicle()`, before any request. */
export class InvalidApiKeyError extends CubicleError {
  override name = "InvalidApiKeyError";
}

export function checkApiKey(key: string): string {
  const bad = [...key].findIndex((char) => char < "!" || char > "~");
  if (bad === -1) return key;
  const char = [...key][bad] as string;
  const shown = /\s/.test(char) ? JSON.stringify(char) : `"${char}"`;
  const codePoint = `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;
  throw new InvalidApiKeyError(
    `the API key has ${shown} (${codePoint}) at character ${bad + 1}, but a key or token is letters, digits and ASCII punctuation with no spaces: was a placeholder like "cub_…" left in? Pass the key signup answered (apiKey.key) or set CUBICLE_API_KEY.`,
  );
}
