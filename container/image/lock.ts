/**
 * The build lock of one images directory: a file that holds the builder's pid, created
 * only if it does not exist (see `create`). Whoever creates it builds; everyone else waits for the image or for the
 * lock to go. A lock whose pid is dead is stale (the builder crashed or was killed) and is
 * taken over.
 *
 * The lock only saves work: correctness does not rest on it. Each builder writes its own
 * temporary directory and renames it into place, and a rename onto an image that already
 * exists fails, so even two builders that both believe they hold the lock (two waiters that
 * break the same stale lock at the same moment) leave one complete image and no half one.
 */
import { randomUUID } from "node:crypto";
import { link, readFile, rename, unlink, writeFile } from "node:fs/promises";

export interface HeldLock {
  /** Removes the lock if it is still ours. */
  release(): Promise<void>;
}

/** Takes the lock, or answers the pid of the live process that holds it. */
export async function tryLock(path: string): Promise<HeldLock | { heldBy: number }> {
  for (;;) {
    const content = `${process.pid}\n`;
    if (await create(path, content)) return { release: () => releaseIfOurs(path, content) };
    const held = await readFile(path, "utf8").catch(() => null);
    // Gone between our create and our read: try again.
    if (held === null) continue;
    const pid = Number.parseInt(held, 10);
    if (isAlive(pid)) return { heldBy: pid };
    await breakStale(path, held);
  }
}

/**
 * Creates the lock with its content in one step: the pid goes into a file of our own, which
 * is then hard-linked to the lock's name. `link` fails when the name exists (O_EXCL's
 * guarantee), and nobody ever sees a lock without a pid in it.
 */
async function create(path: string, content: string): Promise<boolean> {
  const mine = `${path}.${process.pid}-${randomUUID()}`;
  await writeFile(mine, content, { mode: 0o644 });
  try {
    await link(mine, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  } finally {
    await unlink(mine).catch(() => {});
  }
}

/** True while a process with this pid exists (EPERM: it does, under another user). */
export function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Moves a stale lock aside. If what was moved is not the stale content we read (another
 * waiter broke it first and a live builder locked again in between), it is put back with
 * `link`, which fails rather than overwrite a lock made meanwhile.
 */
async function breakStale(path: string, stale: string): Promise<void> {
  const aside = `${path}.stale-${process.pid}-${Date.now()}`;
  try {
    await rename(path, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  const moved = await readFile(aside, "utf8").catch(() => stale);
  if (moved !== stale) await link(aside, path).catch(() => {});
  await unlink(aside).catch(() => {});
}

async function releaseIfOurs(path: string, content: string): Promise<void> {
  const held = await readFile(path, "utf8").catch(() => null);
  if (held === content) await unlink(path).catch(() => {});
}
