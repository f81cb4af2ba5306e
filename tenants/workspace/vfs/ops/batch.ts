/**
 * batch: a list of writes, deletes and moves applied all-or-nothing. Write contents are
 * chunked and hashed first; then every operation runs in one transaction, and the first
 * failure rolls all of them back and is reported with its index.
 */
import { workspaceLimits } from "../../limits.ts";
import { type ChunkRef, chunkHash, contentEtag } from "../content.ts";
import { FsAbort, type FsFailure, type FsResult, fail } from "../errors.ts";
import type { Stat, Store } from "../store.ts";
import { moveIn } from "./move.ts";
import { removeIn } from "./remove.ts";
import { commitWrite } from "./write.ts";

export type BatchOp =
  | { op: "write"; path: string; content: Uint8Array; ifMatch?: string; exclusive?: boolean }
  | { op: "delete"; path: string; recursive?: boolean; ifMatch?: string }
  | { op: "move"; from: string; to: string; overwrite?: boolean };

export type BatchOutcome = { op: "write"; stat: Stat } | { op: "delete"; removed: number } | { op: "move"; stat: Stat };

/**
 * `guard` is asked about each operation just before it applies, inside the transaction, so
 * it sees what the earlier operations of the batch did (ConfinedVfs checks paths with it).
 */
export async function batch(
  store: Store,
  ops: readonly BatchOp[],
  guard: (op: BatchOp) => FsFailure | null = () => null,
): Promise<FsResult<{ results: BatchOutcome[] }>> {
  if (ops.length > workspaceLimits.batchOpsMax)
    return fail("EINVAL", `a batch holds at most ${workspaceLimits.batchOpsMax} operations`);
  const inline = ops.reduce((sum, op) => sum + (op.op === "write" ? op.content.byteLength : 0), 0);
  if (inline > workspaceLimits.batchBytesMax)
    return fail("EFBIG", `a batch carries at most ${workspaceLimits.batchBytesMax} bytes`);
  const prepared = new Map<number, { chunks: ChunkRef[]; etag: string }>();
  for (const [index, op] of ops.entries()) {
    if (op.op !== "write") continue;
    const chunks: ChunkRef[] = [];
    for (let offset = 0; offset < op.content.byteLength; offset += workspaceLimits.chunkBytes) {
      const bytes = op.content.slice(offset, offset + workspaceLimits.chunkBytes);
      const hash = await chunkHash(bytes);
      store.putBlob(hash, bytes);
      chunks.push({ hash, size: bytes.byteLength });
    }
    prepared.set(index, { chunks, etag: await contentEtag(chunks, op.content.byteLength) });
  }
  return store.atomically(() => {
    const results: BatchOutcome[] = [];
    for (const [index, op] of ops.entries()) {
      try {
        const refused = guard(op);
        if (refused) throw new FsAbort(refused);
        results.push(apply(store, op, prepared.get(index)));
      } catch (error) {
        if (error instanceof FsAbort) throw new FsAbort({ ...error.failure, index });
        throw error;
      }
    }
    return { ok: true as const, results };
  });
}

function apply(store: Store, op: BatchOp, content: { chunks: ChunkRef[]; etag: string } | undefined): BatchOutcome {
  switch (op.op) {
    case "write": {
      const { chunks, etag } = content as { chunks: ChunkRef[]; etag: string };
      const options = {
        ...(op.ifMatch !== undefined ? { ifMatch: op.ifMatch } : {}),
        ...(op.exclusive ? { mode: "exclusive" as const } : {}),
      };
      return { op: "write", stat: commitWrite(store, op.path, chunks, op.content.byteLength, etag, options).stat };
    }
    case "delete":
      return { op: "delete", removed: removeIn(store, op.path, op).removed };
    case "move":
      return { op: "move", stat: moveIn(store, op.from, op.to, op).stat };
  }
}
