/** What the sync parts (pull, push, hydration, the FUSE ops) share. */
import type { Replica } from "../fs/replica.ts";
import type { Mutex, SessionHolder } from "../session/holder.ts";
import type { StateDb } from "../state.ts";
import type { DirtySet } from "./dirty.ts";

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
}
