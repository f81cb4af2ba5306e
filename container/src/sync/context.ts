/** What the sync parts (pull, push, hydration, the FUSE ops) share. */
import type { Replica } from "../fs/replica.ts";
import type { Placement, PlaceResult } from "../native/protocol.ts";
import type { Mutex, SessionHolder } from "../session/holder.ts";
import type { StateDb } from "../state.ts";
import type { DirtySet } from "./dirty.ts";
import type { IdMap } from "./metadata.ts";

export interface SyncContext {
  state: StateDb;
  replica: Replica;
  dirty: DirtySet;
  session: SessionHolder;
  /** Held by pull while it reads and applies remote state, and by push while it applies and clears. */
  lock: Mutex;
  /** Revisions this daemon produced (ApplyResult.revs): skipped when they come back through `changes`. */
  ownRevs: Set<number>;
  /** The newest object revision this daemon knows of. */
  revision: { value: number };
  log: (message: string) => void;
  /**
   * Native mode (docs/container-sync.md): the box reads the replica's filesystem directly,
   * so placeholders carry a mark the fanotify helper checks. False under FUSE, where every
   * open passes through computerd.
   */
  native: boolean;
  /**
   * Runs before a pull applies remote state: the native mode drains its change journal, so a
   * path the box changed is dirty (and left alone) before the object's version could replace it.
   */
  beforeApply: () => Promise<void>;
  /**
   * Native mode: a change stamped (ctime, ns) at or after this may not have reached the
   * journal yet, so applyEntry leaves such a file alone and marks it dirty rather than replace
   * what the box just wrote (beforeApply moves it to its drain's start). Under FUSE every
   * change is marked dirty before it is made, so this is never consulted.
   */
  unreportedSinceNs: bigint;
  /** How the wire's (box) owner ids map to the replica's, for the mode that runs (sync/metadata.ts). */
  ids: IdMap;
  /**
   * Native mode: makes placeholders at workspace paths on the fanotify helper's threads
   * (native/fanotify.ts `placeMany`). A walk places new files this way, many at once (pull.ts);
   * unset under FUSE.
   */
  placeMany?: (placements: readonly Placement[]) => Promise<PlaceResult[]>;
  /**
   * Native mode: puts the placeholder mark on a file computerd made itself at `local` (a
   * host path on the workspace filesystem), blocking until it is on (native/fanotify.ts
   * `watchSync`); 0 or an errno. Only a marked placeholder holds its first reader.
   */
  watchPlaceholder?: (local: string) => number;
}
