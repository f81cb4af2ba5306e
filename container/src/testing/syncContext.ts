/**
 * A sync context over a real replica directory and state database, without a daemon or a
 * mount: for tests of the sync parts alone (pull, push, apply), which read the replica's
 * inodes directly. The caller closes `ctx.state` and removes `dir`.
 */
import * as fs from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { WorkspaceSyncApi } from "../../wire/index.ts";
import { Replica } from "../fs/replica.ts";
import { Mutex, SessionHolder } from "../session/holder.ts";
import { StateDb } from "../state.ts";
import type { SyncContext } from "../sync/context.ts";
import { DirtySet } from "../sync/dirty.ts";

export async function syncContextIn(
  prefix: string,
  workspace: WorkspaceSyncApi,
  mode: Pick<SyncContext, "native" | "ids">,
): Promise<{ dir: string; ctx: SyncContext }> {
  const dir = fs.mkdtempSync(join(tmpdir(), prefix));
  const state = new StateDb(join(dir, "state.db"));
  const replica = Replica.inStateDir(dir);
  await replica.prepare();
  const session = new SessionHolder();
  session.set(workspace, {});
  const ctx: SyncContext = {
    state,
    replica,
    dirty: new DirtySet(state, () => {}),
    session,
    lock: new Mutex(),
    ownRevs: new Set(),
    revision: { value: 0 },
    log: () => {},
    beforeApply: async () => {},
    unreportedSinceNs: 0n,
    ...mode,
  };
  return { dir, ctx };
}
