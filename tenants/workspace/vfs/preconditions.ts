/**
 * HTTP's conditional headers (RFC 9110 §13.1) over workspace entries, in one place so a PUT,
 * a DELETE, a GET and a batch operation read them the same way. A header holds `*` or a
 * comma-separated list of entity tags (`"abc", W/"def"`).
 */

type Entry = { etag?: string | null | undefined };

const tagsOf = (header: string) => header.split(",").map((tag) => tag.trim());

/**
 * Whether `If-Match` holds for the entry at the path (null when nothing is there). `*`
 * matches any current entry, a directory or link included. Otherwise one listed tag must
 * equal the entry's ETag by the strong comparison `If-Match` requires: a weak tag
 * (`W/"…"`) never matches, nor does any tag an entry without an ETag (a directory).
 * Nothing there never matches.
 */
export function ifMatchHolds(ifMatch: string, existing: Entry | null): boolean {
  if (existing === null) return false;
  const tags = tagsOf(ifMatch);
  if (tags.includes("*")) return true;
  return typeof existing.etag === "string" && tags.includes(existing.etag);
}

/**
 * Whether `If-None-Match` matches the entry (so a GET answers 304 Not Modified): `*`
 * matches any current entry; otherwise a listed tag equals the entry's ETag by the weak
 * comparison, which ignores a `W/` prefix on either side.
 */
export function ifNoneMatchMatches(ifNoneMatch: string, existing: Entry | null): boolean {
  if (existing === null) return false;
  const tags = tagsOf(ifNoneMatch);
  if (tags.includes("*")) return true;
  if (typeof existing.etag !== "string") return false;
  const opaque = (tag: string) => (tag.startsWith("W/") ? tag.slice(2) : tag);
  return tags.some((tag) => opaque(tag) === opaque(existing.etag as string));
}
