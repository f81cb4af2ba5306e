import type { FsCode } from "../errors.ts";

export interface InodeFields {
  /** The inode: equal ids are hard links to one file. */
  id: number;
  mode: number;
  uid: number;
  gid: number;
  /** Nanoseconds since 1970 as set by utimes, or null once anything set it to "now". */
  mtime: string | null;
}

export type ModelNode =
  | (InodeFields & { type: "file"; content: Uint8Array })
  | (InodeFields & { type: "dir" })
  | (InodeFields & { type: "symlink"; target: string });

export type ModelBatchOp =
  | { op: "write"; path: string; content: Uint8Array; exclusive?: boolean }
  | { op: "delete"; path: string; recursive?: boolean }
  | { op: "move"; from: string; to: string; overwrite?: boolean };

/** The operations both the model and the real filesystem run; paths are normalized workspace paths. */
export type ModelOp =
  | {
      op: "write";
      path: string;
      content: Uint8Array;
      mode?: "overwrite" | "append" | "exclusive";
      parents?: boolean;
      ifNoneMatch?: "*";
    }
  | { op: "truncate"; path: string; size: number }
  | { op: "mkdir"; path: string; recursive?: boolean; mode?: number }
  | { op: "remove"; path: string; recursive?: boolean }
  | { op: "move"; from: string; to: string; overwrite?: boolean }
  | { op: "copy"; from: string; to: string; overwrite?: boolean }
  | { op: "symlink"; target: string; path: string }
  | { op: "chmod"; path: string; mode: number }
  | { op: "chown"; path: string; uid?: number; gid?: number; follow: boolean }
  /** `mtime`: decimal nanoseconds since 1970, or "now". */
  | { op: "utimes"; path: string; mtime: string; follow: boolean }
  | { op: "link"; existing: string; path: string }
  | { op: "batch"; ops: ModelBatchOp[] }
  | { op: "stat"; path: string; follow: boolean }
  | { op: "read"; path: string; offset?: number; length?: number };

/** What the tests compare: an entry as `list` and `stat` show it. */
export interface ModelEntry {
  path: string;
  type: ModelNode["type"];
  size: number;
  mode: number;
  nlink: number;
  uid: number;
  gid: number;
  /** Only where the model knows it exactly (see the file comment). */
  mtimeNs?: string;
  target?: string;
}

export type ModelResult =
  | { ok: true; entry?: ModelEntry; bytes?: Uint8Array }
  | { ok: false; code: FsCode; index?: number };

export type Lookup = { ok: true; path: string; node: ModelNode } | { ok: false; code: FsCode };
export type ParentLookup = { ok: true; path: string; existing: ModelNode | undefined } | { ok: false; code: FsCode };

export const FILE_MODE = 0o644;
export const DIR_MODE = 0o755;
export const LINK_MODE = 0o777;

/** Thrown inside an operation to abandon it; `apply` restores the map and returns the code. */
export class Abort {
  constructor(
    readonly code: FsCode,
    readonly index?: number,
  ) {}
}

export function abort(code: FsCode): never {
  throw new Abort(code);
}

export function join(dir: string, name: string): string {
  return dir === "/" ? `/${name}` : `${dir}/${name}`;
}

export function dirOf(path: string): string {
  return path.slice(0, path.lastIndexOf("/")) || "/";
}

export function baseOf(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

export function pathOf(segments: readonly string[]): string {
  return `/${segments.join("/")}`;
}

/** `path` is strictly below `dir`. */
export function isBelow(path: string, dir: string): boolean {
  return dir === "/" ? path !== "/" : path.startsWith(`${dir}/`);
}

/**
 * A request path as the filesystem reads it: the leading slash is optional, one trailing
 * slash and `.` segments are dropped, and empty segments (`//`) and `..` are refused.
 */
export function normalize(raw: string): { ok: true; path: string } | { ok: false; code: "EINVAL" } {
  const trimmed = raw.length > 1 && raw.endsWith("/") ? raw.slice(0, -1) : raw;
  const segments = (trimmed.startsWith("/") ? trimmed.slice(1) : trimmed).split("/");
  if (trimmed === "/" || trimmed === "") return { ok: true, path: "/" };
  if (segments.some((segment) => segment === "" || segment === "..")) return { ok: false, code: "EINVAL" };
  return { ok: true, path: pathOf(segments.filter((segment) => segment !== ".")) };
}

/** Link targets are read lexically: empty and `.` segments vanish, `..` drops one and stops at the root. */
export function lexical(segments: readonly string[]): string[] {
  const kept: string[] = [];
  for (const segment of segments) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") kept.pop();
    else kept.push(segment);
  }
  return kept;
}

/** The largest uid or gid (ops/setattr.ts ID_MAX). */
export const ID_MAX = 0xffff_fffe;
