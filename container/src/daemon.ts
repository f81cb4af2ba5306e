/**
 * The daemon's parts wired together: state, replica, FUSE mount, sync (pull, push,
 * hydration) and the command runner. main.ts adds the HTTP/WebSocket edge around it.
 */
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { WorkspaceSyncApi } from "../wire/index.ts";
import type { Config } from "./config.ts";
import { ExecRunner } from "./exec/runner.ts";
import { type Mounted, mountFuse } from "./fs/mount.ts";
import { makeOps } from "./fs/ops.ts";
import { Replica } from "./fs/replica.ts";
import { Mutex, SessionHolder } from "./session/holder.ts";
import { StateDb } from "./state.ts";
import type { SyncContext } from "./sync/context.ts";
import { DirtySet } from "./sync/dirty.ts";
import { Hydrator } from "./sync/hydrate.ts";
import { Puller } from "./sync/pull.ts";
import { Pusher } from "./sync/push.ts";

export class Daemon {
  readonly config: Config;
  readonly state: StateDb;
  readonly ctx: SyncContext;
  readonly hydrator: Hydrator;
  readonly puller: Puller;
  readonly pusher: Pusher;
  readonly runner: ExecRunner;
  private mounted: Mounted | null = null;
  private lastActivityMs = Date.now();

  constructor(config: Config, log: (message: string) => void) {
    this.config = config;
    this.state = new StateDb(join(config.stateDir, "state.db"));
    const session = new SessionHolder();
    const ctx: SyncContext = {
      state: this.state,
      replica: new Replica(config.stateDir),
      // The pusher does not exist yet; the closure reads it when a path is first touched.
      dirty: new DirtySet(this.state, () => this.pusher.touched()),
      session,
      lock: new Mutex(),
      ownRevs: new Set(),
      revision: { value: this.state.appliedRev() },
      log,
    };
    this.ctx = ctx;
    this.hydrator = new Hydrator(ctx);
    this.puller = new Puller(ctx);
    this.pusher = new Pusher(ctx);
    this.runner = new ExecRunner({
      mount: config.mount,
      home: config.home,
      flush: () => this.pusher.flush(),
      activity: () => this.activity(),
    });
    session.onSession(() => void this.puller.request());
  }

  async start(): Promise<void> {
    await mkdir(this.config.stateDir, { recursive: true });
    await mkdir(this.config.home, { recursive: true });
    await this.ctx.replica.prepare();
    // Modes on the mount arrive already masked by the caller's umask; masking again here would change them.
    process.umask(0);
    this.mounted = await mountFuse(this.config.mount, makeOps(this.ctx, this.hydrator));
  }

  startSession(ws: WorkspaceSyncApi, owner: object): void {
    this.ctx.session.set(ws, owner);
  }

  endSession(owner: object): void {
    this.ctx.session.clear(owner);
  }

  activity(): void {
    this.lastActivityMs = Date.now();
  }

  health(): { ok: true; idleMs: number; running: number; session: boolean } {
    const running = this.runner.count;
    return {
      ok: true,
      idleMs: running > 0 ? 0 : Date.now() - this.lastActivityMs,
      running,
      session: this.ctx.session.workspace !== null,
    };
  }

  async stop(): Promise<void> {
    this.runner.killAll();
    if (this.mounted) await this.mounted.unmount();
    this.mounted = null;
    this.state.close();
  }
}
