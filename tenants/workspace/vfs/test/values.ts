/** Small helpers the VFS's tests share: random content, and a result that must have succeeded. */

export function randomBytes(size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  // getRandomValues fills at most 64 KiB per call.
  for (let offset = 0; offset < size; offset += 65_536) crypto.getRandomValues(bytes.subarray(offset, offset + 65_536));
  return bytes;
}

export function ok<T extends { ok: boolean }>(result: T): T & { ok: true } {
  if (!result.ok) throw new Error(`expected success, got ${JSON.stringify(result)}`);
  return result as T & { ok: true };
}
