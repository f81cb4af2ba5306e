/**
 * The current session's WorkspaceSyncApi stub. A new session's `hello` replaces the
 * previous one; a dropped socket clears it. Work that needs the object (a download, a
 * push) waits for the next session instead of failing at once.
 */
import type { WorkspaceSyncApi } from "../../wire/index.ts";

export class SessionHolder {
  private current: WorkspaceSyncApi | null = null;
  private owner: object | null = null;
  private waiters: (() => void)[] = [];
  private readonly listeners: ((ws: WorkspaceSyncApi) => void)[] = [];

  get workspace(): WorkspaceSyncApi | null {
    return this.current;
  }

  /** `owner` identifies the connection, so only its own close clears the session. */
  set(ws: WorkspaceSyncApi, owner: object): void {
    const previous = this.current;
    this.current = ws;
    this.owner = owner;
    if (previous && previous !== ws) disposeQuietly(previous);
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
    for (const l of this.listeners) l(ws);
  }

  clear(owner: object): void {
    if (this.owner !== owner) return;
    if (this.current) disposeQuietly(this.current);
    this.current = null;
    this.owner = null;
  }

  onSession(listener: (ws: WorkspaceSyncApi) => void): void {
    this.listeners.push(listener);
  }

  async waitFor(timeoutMs: number): Promise<WorkspaceSyncApi | null> {
    if (this.current) return this.current;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
    return this.current;
  }
}

function disposeQuietly(stub: unknown): void {
  try {
    (stub as { [Symbol.dispose]?: () => void })[Symbol.dispose]?.();
  } catch {
    // A stub of a socket that already closed has nothing left to release.
  }
}

/** A FIFO async mutex: pull's read-then-apply and push's apply-then-clear must not interleave. */
export class Mutex {
  private tail: Promise<void> = Promise.resolve();

  async run<T>(fn: () => Promise<T>): Promise<T> {
    const previous = this.tail;
    let release!: () => void;
    this.tail = new Promise<void>((resolve) => {
      release = resolve;
    });
    await previous;
    try {
      return await fn();
    } finally {
      release();
    }
  }
}
