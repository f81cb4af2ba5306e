/**
 * The helper's wire format (container/native/README.md), parsed and written here so that
 * fanotify.ts deals in values. Lines out of the helper are JSON objects whose strings carry
 * raw bytes as code units 0–255 (bytes ≥ 0x80 are \u00XX escapes): `bytesToString` turns
 * them back into the UTF-8 the bytes were. Lines into it are words, with paths in hex (in
 * `place`, %-escaped).
 */

import { nativeLimits } from "./limits.ts";

/** A change the journal reports. The kinds of one entry are unordered (the kernel merges events on one name). */
export type ChangeKind = "create" | "delete" | "write" | "attrib" | "move";

/**
 * One path that changed in the container. The path is where the entry is when the helper
 * read the event, not when it happened: treat it as "look at this path now". A move has
 * `from` and kinds ["move"]; moving a directory moves everything under it.
 */
export interface Change {
  kinds: ChangeKind[];
  /** Workspace path, `/a/b.txt`; `/` for the root itself. */
  path: string;
  isDir: boolean;
  /** Where a move came from. */
  from?: string;
  /** The inode, where the kernel reported it (ext4 always does): tells hard links apart. */
  ino?: number;
}

/** One placeholder a process waits for; every other reader of it waits on the same request. */
export interface HydrateRequest {
  id: number;
  /** The placeholder's `trusted.cubicle.placeholder` value, as computerd wrote it. */
  key: string;
  ino: number;
  /** The placeholder's size when its first reader came. */
  size: number;
}

export type HelperMessage =
  | { t: "ready"; pid: number; root: string }
  | ({ t: "hydrate" } & HydrateRequest)
  | { t: "filled"; id: number; errno?: number }
  | { t: "dropped"; ino: number; key: string }
  | { t: "placed"; seq: number; ino?: number; errno?: number }
  | { t: "change"; k: ChangeKind[]; dir: boolean; path: string; from?: string; ino?: number }
  | { t: "rescan"; reason: string }
  | { t: "stale"; count: number }
  | { t: "synced"; n: number };

const nonAscii = /[\u0080-\u00ff]/;

/** The helper's byte string (code units 0–255) as the UTF-8 text it holds. */
export function bytesToString(bytes: string): string {
  return nonAscii.test(bytes) ? Buffer.from(bytes, "latin1").toString("utf8") : bytes;
}

/** Parses one stdout line, decoding its byte strings; throws on a line that is not the protocol. */
export function parseLine(line: string): HelperMessage {
  const msg = JSON.parse(line) as HelperMessage;
  switch (msg.t) {
    case "hydrate":
    case "dropped":
      msg.key = bytesToString(msg.key);
      break;
    case "change":
      msg.path = bytesToString(msg.path);
      if (msg.from !== undefined) msg.from = bytesToString(msg.from);
      break;
    case "ready":
      msg.root = bytesToString(msg.root);
      break;
    case "filled":
    case "placed":
    case "rescan":
    case "stale":
    case "synced":
      break;
    default:
      throw new Error(`unknown helper message ${line.slice(0, 200)}`);
  }
  return msg;
}

/** A placeholder computerd asks the helper to make (Node cannot set xattrs). */
export interface Placement {
  /** Workspace path, `/a/b.txt`; its directory must exist, with no symlink on the way. */
  path: string;
  size: number;
  /** Permission bits, 0o7777 at most. */
  mode: number;
  uid: number;
  gid: number;
  /** Modification time in nanoseconds since the epoch; the access time is set to it too. */
  mtimeNs: bigint;
  /** What `hydrate` will be asked for when the placeholder is first read. */
  key: string;
  /** Leave a name that is taken alone (the placement fails with EEXIST) instead of replacing what is there. */
  onlyNew?: boolean;
}

/** The answer to a placement: the new file's inode, or why there is none (EEXIST: the name was taken, with `onlyNew`). */
export type PlaceResult = { ok: true; ino: number } | { ok: false; errno: number };

const hex = (text: string) => Buffer.from(text).toString("hex");

/** Text made only of bytes 0x21–0x7d other than `%`: a `place` word as it is. */
const plainWord = /^[\x21-\x24\x26-\x7d]*$/;
/** The characters of ASCII text that a `place` word escapes. */
const escapedAscii = /[^\x21-\x24\x26-\x7d]/g;
const beyondAscii = /[\u0080-\uffff]/;
const escapeByte = (byte: number) => `%${byte.toString(16).padStart(2, "0")}`;

/**
 * A `place` word (README.md): bytes 0x21–0x7d but `%` stand for themselves, any other byte
 * is %XX. Paths and keys are mostly plain ASCII (a key holds one space, between the ETag and
 * the path), so a placement's line is about 40 % shorter than in hex, and a walk writes
 * 36,000 of them through the pipe.
 */
export function pct(text: string): string {
  if (plainWord.test(text)) return text;
  if (!beyondAscii.test(text)) return text.replace(escapedAscii, (c) => escapeByte(c.charCodeAt(0)));
  let out = "";
  for (const byte of Buffer.from(text)) {
    out += byte > 0x20 && byte < 0x7e && byte !== 0x25 ? String.fromCharCode(byte) : escapeByte(byte);
  }
  return out;
}

export const command = {
  /** `under`: a directory path the placement's path is below ("" for the root). */
  place: (seq: number, p: Placement, under = "") =>
    `place ${seq} ${pct(under + p.path)} ${p.size} ${p.mode} ${p.uid} ${p.gid} ${p.mtimeNs} ${pct(p.key)}${p.onlyNew ? " new" : ""}\n`,
  fill: (id: number, file: string) => `fill ${id} ${hex(file)}\n`,
  data: (id: number, bytes: Uint8Array) =>
    bytes.byteLength
      ? `data ${id} ${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex")}\n`
      : `data ${id}\n`,
  deny: (id: number, errno: number) => `deny ${id} ${errno}\n`,
  sync: (n: number) => `sync ${n}\n`,
};

/** Calls `onLine` for each newline-terminated line; the helper writes only ASCII (bytes are escaped). */
export function readLines(stream: NodeJS.ReadableStream, onLine: (line: string) => void): void {
  let rest = "";
  stream.setEncoding("latin1");
  stream.on("data", (chunk: string) => {
    rest += chunk;
    let start = 0;
    for (let nl = rest.indexOf("\n"); nl >= 0; nl = rest.indexOf("\n", start)) {
      onLine(rest.slice(start, nl));
      start = nl + 1;
    }
    rest = rest.slice(start);
    if (rest.length > nativeLimits.lineBytesMax) rest = "";
  });
}
