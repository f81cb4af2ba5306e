/**
 * The source answers its fork's reads while the fork's rows are still on their way
 * (import.ts): at the revision the fork pinned here, through the same code that reads any
 * past revision (versions/read.ts), so what the fork shows during its import is exactly
 * what it shows after. Only a fork holding a pin here is answered, and only at its pin.
 */
import { type FsResult, fail } from "../errors.ts";
import { type FindOptions, find } from "../ops/find.ts";
import { type GrepMatch, type GrepOptions, grep } from "../ops/grep.ts";
import type { ListOptions } from "../ops/list.ts";
import type { ReadOptions } from "../ops/read.ts";
import type { Stat, Store } from "../store.ts";
import { listAt, readAt, statAt } from "../versions/read.ts";
import { forkPin } from "./pins.ts";

/** A read a fork forwards to its source, named as the fork's own method is. */
export type ForkRead =
  | { op: "read"; path: string; options?: ReadOptions | undefined }
  | { op: "stat" | "lstat" | "readlink"; path: string }
  | { op: "list"; path: string; options?: ListOptions | undefined }
  | { op: "find"; path: string; options?: FindOptions | undefined }
  | { op: "grep"; pattern: string; path: string; options?: GrepOptions | undefined };

/** What each read answers, as the live read of the same name does. */
export type ForkReadAnswer =
  | FsResult<{ stat: Stat; start: number; end: number; body: ReadableStream<Uint8Array> }>
  | FsResult<{ stat: Stat }>
  | FsResult<{ target: string }>
  | FsResult<{ entries: Stat[]; nextCursor: string | null }>
  | FsResult<{ entries: Stat[]; truncated: boolean }>
  | Promise<FsResult<{ matches: GrepMatch[]; truncated: boolean }>>;

export function readForFork(store: Store, fork: string, request: ForkRead): ForkReadAnswer {
  const pin = forkPin(store, fork);
  if (!pin) return fail("ENOENT", "this fork holds no pin here");
  switch (request.op) {
    case "read":
      return readAt(store, pin.rev, request.path, request.options);
    case "stat":
      return statAt(store, pin.rev, request.path, true);
    case "lstat":
      return statAt(store, pin.rev, request.path, false);
    case "readlink": {
      const link = statAt(store, pin.rev, request.path, false);
      if (!link.ok) return link;
      if (link.stat.type !== "symlink") return fail("EINVAL", `not a symbolic link: ${request.path}`, request.path);
      return { ok: true, target: link.stat.target ?? "" };
    }
    case "list":
      return listAt(store, pin.rev, request.path, request.options);
    case "find":
      return find(store, request.path, request.options, pin.rev);
    case "grep":
      return grep(store, request.pattern, request.path, request.options, pin.rev);
  }
}
