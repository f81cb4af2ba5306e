/**
 * A chunk as its difference from another: the bytes it shares with the base at the start
 * (`head`) and at the end (`tail`) are the base's, and only what lies between is kept.
 * That is the shape of nearly every edit an agent makes to a file (a replaced range, an
 * insertion, a deletion, an append), and it costs one pass over the bytes to find and one
 * copy to undo. Several edits far apart keep everything between the first and the last;
 * a general binary diff (bsdiff, xdelta) would do better there, but no maintained library
 * runs in a Worker without WebAssembly compiled at run time, which Workers refuse.
 */
export interface Delta {
  head: number;
  tail: number;
  middle: Uint8Array;
}

export function delta(bytes: Uint8Array, base: Uint8Array): Delta {
  const shorter = Math.min(bytes.byteLength, base.byteLength);
  let head = 0;
  while (head < shorter && bytes[head] === base[head]) head++;
  let tail = 0;
  const last = bytes.byteLength - 1;
  const baseLast = base.byteLength - 1;
  while (tail < shorter - head && bytes[last - tail] === base[baseLast - tail]) tail++;
  return { head, tail, middle: bytes.slice(head, bytes.byteLength - tail) };
}

export function undelta(base: Uint8Array, { head, tail, middle }: Delta): Uint8Array {
  const out = new Uint8Array(head + middle.byteLength + tail);
  out.set(base.subarray(0, head));
  out.set(middle, head);
  out.set(base.subarray(base.byteLength - tail), head + middle.byteLength);
  return out;
}
