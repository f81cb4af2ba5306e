/**
 * The daemon's parts wired together: state, replica, FUSE mount, sync (pull, push,
 * hydration) and the command runner. main.ts adds the HTTP/WebSocket edge around it.
 */

import { createHash } from "node:crypto";
import { mkdirSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { getSystemErrorName } from "node:util";
import type {
  ComputerdHealth,
  ContainerExecRequest,
  ContainerResources,
  MountMode,
  WorkspaceSyncApi,
} from "../wire/index.ts";
import type { Config } from "./config.ts";
import type { EgressRun } from "./egress/run.ts";
import { startEgressRun } from "./egress/run.ts";
import { ExecRunner } from "./exec/runner.ts";
import { LinkNames } from "./fs/linkNames.ts";
import { loadFuseAddon, type Mounted, mountFuse } from "./fs/mount.ts";
import { makeOps } from "./fs/ops.ts";
import { Replica } from "./fs/replica.ts";
import { boxLimits, cgroupLimits, daemonExitCodes } from "./limits.ts";
import { NativeDisk } from "./native/disk.ts";
import type { HelperExit } from "./native/fanotify.ts";
import { nativeLimits } from "./native/limits.ts";
import { NativeMount } from "./native/mount.ts";
import { Box, hostTrustStore } from "./sandbox/box.ts";
import { type CommandCgroup, type ComputerCgroups, openComputerCgroups } from "./sandbox/cgroup.ts";
import { seccompProgram } from "./sandbox/seccomp.ts";
import { Mutex, SessionHolder } from "./session/holder.ts";
import { StateDb } from "./state.ts";
import type { SyncContext } from "./sync/context.ts";
import { DirtySet } from "./sync/dirty.ts";
import { Hydrator } from "./sync/hydrate.ts";
import { fuseIds, nativeIds } from "./sync/metadata.ts";
import { Puller } from "./sync/pull.ts";
import { Pusher } from "./sync/push.ts";
import { trace } from "./trace.ts";

export class Daemon {
  readonly config: Config;
  readonly state: StateDb;
  readonly ctx: SyncContext;
  readonly hydrator: Hydrator;
  readonly puller: Puller;
  readonly pusher: Pusher;
  readonly runner: ExecRunner;
  private readonly box: Box | null;
  private cgroups: Promise<ComputerCgroups | null> | null = null;
  /** The limits the last command carried (the defaults until one carries its plan's). */
  private resources: ContainerResources = cgroupLimits.resourcesDefault;
  private mounted: Mounted | null = null;
  private native: NativeMount | null = null;
  /** The mount mode that runs, once `start` chose it. */
  mode: MountMode | null = null;
  private lastActivityMs = Date.now();
  /** Commands received and not yet answered (Computer.exec), waiting for a pull or running. */
  private commandsInFlight = 0;
  /** Work deferred until no command is in flight (afterCommands). */
  private readonly idleTasks: (() => void)[] = [];

  constructor(config: Config, log: (message: string) => void) {
    this.config = config;
    // The database opens here, before start(): its directory must exist first.
    mkdirSync(config.stateDir, { recursive: true });
    this.state = new StateDb(join(config.stateDir, "state.db"));
    const session = new SessionHolder();
    const ctx: SyncContext = {
      state: this.state,
      replica: Replica.inStateDir(config.stateDir),
      // The pusher does not exist yet; the closure reads it when a path is first touched.
      dirty: new DirtySet(this.state, () => this.pusher.touched()),
      session,
      lock: new Mutex(),
      ownRevs: new Set(),
      revision: { value: this.state.appliedRev() },
      log,
      native: false,
      ids: fuseIds(config.boxUidBase),
      beforeApply: async () => {
        if (!this.native) return;
        const sinceNs = BigInt(Date.now() - nativeLimits.ctimeSlackMs) * 1_000_000n;
        await this.native.drain();
        ctx.unreportedSinceNs = sinceNs;
      },
      unreportedSinceNs: 0n,
    };
    this.ctx = ctx;
    this.hydrator = new Hydrator(ctx);
    this.puller = new Puller(ctx, (task) => this.afterCommands(task));
    this.pusher = new Pusher(ctx, this.hydrator, () => this.puller.request());
    this.box = config.rootfs
      ? new Box({
          rootfs: config.rootfs,
          mount: config.mount,
          uidBase: config.boxUidBase,
          daemonKey: config.stateDir,
          tmpBytesMax: cgroupLimits.resourcesDefault.tmpBytesMax,
          trustStore: hostTrustStore(),
          scratch: config.boxScratch,
          mknodBin: config.mknodBin,
          log,
        })
      : null;
    this.runner = new ExecRunner({
      mount: config.mount,
      box: this.box,
      seccomp: seccompProgram(),
      cgroupFor: (execId, request) => this.cgroupFor(execId, request),
      egressFor: (execId, request) => this.egressFor(execId, request),
      flush: () => this.flush(),
      conflicts: this.pusher.conflicts,
      activity: () => this.activity(),
      log: (line) => this.ctx.log(line),
    });
    session.onSession(() => void this.puller.request());
  }

  async start(): Promise<void> {
    await mkdir(this.config.stateDir, { recursive: true });
    // The box's staging (tmpfs mounts, its user namespace, the device-node supervisor) and the
    // workspace's mount are independent, and each is a string of mount and mkfs processes:
    // made side by side, a computer's first command starts about a third of a second sooner.
    const boxReady = this.box ? this.box.prepare() : Promise.resolve();
    // Awaited below; a failure must not go unhandled while the mount is being made.
    boxReady.catch(() => {});
    if (!this.box) this.ctx.log("no root image (COMPUTERD_ROOTFS): commands will be refused");
    // Modes on the mount arrive already masked by the caller's umask; masking again here would change them.
    process.umask(0);
    if (this.config.mountMode !== "fuse") {
      const why = await this.startNative().then(
        () => null,
        (err: Error) => err.message,
      );
      if (why === null) {
        await boxReady;
        this.mode = "native";
        return;
      }
      if (this.config.mountMode === "native") throw new Error(`native mount mode unavailable: ${why}`);
      this.ctx.log(`native mount mode unavailable (${why}); using FUSE`);
    }
    await this.ctx.replica.prepare();
    // The replica's files belong to root; the mount shows them as the box user's (fs/ops.ts).
    const owner = this.config.boxUidBase + boxLimits.uid;
    // The FUSE ops use paths relative to the replica's root, so a path keeps all of PATH_MAX.
    process.chdir(this.ctx.replica.root);
    this.ctx.ids = fuseIds(this.config.boxUidBase);
    const addon = loadFuseAddon();
    const view = addon.cubicle_quiet_view(this.ctx.replica.root);
    if (view >= 0) this.ctx.replica.readQuietlyThrough(`/proc/self/fd/${view}`);
    else this.ctx.log(`no noatime view of the replica (${getSystemErrorName(view)}): syncing may move access times`);
    const links = new LinkNames();
    const ops = makeOps(this.ctx, this.hydrator, owner, addon, links);
    this.mounted = await mountFuse(this.config.mount, ops, links);
    await boxReady;
    this.mode = "fuse";
  }

  /** Mounts the workspace natively (native/); throws with the reason when this host cannot. */
  private async startNative(): Promise<void> {
    const disk = new NativeDisk(this.config.stateDir, this.config.mount);
    this.ctx.replica = new Replica(disk.workspace, disk.tmpDir);
    this.ctx.native = true;
    this.ctx.ids = nativeIds(this.config.boxUidBase);
    const native = new NativeMount(this.ctx, disk, this.hydrator, {
      binary: this.config.fanotifyBin,
      fetchDir: join(this.config.stateDir, "fetch"),
      ownerUid: this.config.boxUidBase + boxLimits.uid,
      onHelperLost: (exit) => this.helperLost(exit),
      onWritten: (paths) => this.pusher.written(paths),
    });
    try {
      await native.start();
    } catch (err) {
      await native.stop().catch(() => {});
      this.ctx.replica = Replica.inStateDir(this.config.stateDir);
      this.ctx.native = false;
      throw err;
    }
    this.native = native;
  }

  /**
   * The fanotify helper died: placeholders are no longer guarded, so a command reading one
   * would see zeros. Every command is killed and the daemon exits; the supervisor (or the
   * container runtime) starts it again, and the new one rescans and carries on.
   */
  private helperLost(exit: HelperExit): void {
    this.ctx.log(`native: the fanotify helper exited unasked (${exit.signal ?? exit.code}): ${exit.stderr}`);
    void this.runner.killAll();
    process.exit(daemonExitCodes.helperLost);
  }

  /**
   * Pushes every change made so far and resolves with the object's revision after. In the
   * native mode the journal is drained first: a change is known only once it was reported.
   */
  async flush(retryRefused = false): Promise<number> {
    const startedMs = Date.now();
    await this.native?.drain();
    trace("flush drained");
    const revision = await this.pusher.flush(retryRefused);
    this.native?.markClean(startedMs);
    return revision;
  }

  startSession(ws: WorkspaceSyncApi, owner: object): void {
    this.ctx.session.set(ws, owner);
  }

  endSession(owner: object): void {
    this.ctx.session.clear(owner);
  }

  /**
   * The command's share of the computer's cgroups, or null where this host gives computerd
   * none (it then runs commands unlimited and said so once in its log). The computer's
   * cgroups are made at the first command, with the limits that command carries; later
   * commands carry their plan's, which apply from then on.
   */
  private async cgroupFor(execId: string, request: ContainerExecRequest): Promise<CommandCgroup | null> {
    const resources = request.resources ?? this.resources;
    const changed = JSON.stringify(resources) !== JSON.stringify(this.resources);
    this.resources = resources;
    if (!this.cgroups) {
      // The state dir's digest keeps two daemons serving one name (tests, a restart racing
      // its predecessor's cleanup) out of each other's cgroups.
      const id = createHash("sha256").update(this.config.stateDir).digest("hex").slice(0, 8);
      this.cgroups = openComputerCgroups(`${this.config.workspace}-${id}`, resources, { log: this.ctx.log });
    } else if (changed) {
      await (await this.cgroups)?.update(resources);
    }
    const cgroups = await this.cgroups;
    return cgroups ? cgroups.forCommand(execId) : null;
  }

  /** A proxy for one run's egress, on a fresh socket in the box's staging directory. */
  private egressFor(_execId: string, request: ContainerExecRequest): Promise<EgressRun> {
    if (!this.box) throw new Error("no box");
    return startEgressRun({ dir: this.box.egressDir, allow: request.allow ?? null, boxUid: this.box.userHostUid });
  }

  /** Computer.exec calls these around each command, from its receipt to its answer. */
  commandEntered(): void {
    this.commandsInFlight++;
  }

  commandLeft(): void {
    this.commandsInFlight--;
    if (this.commandsInFlight === 0 && this.idleTasks.length > 0) this.runIdleTasks();
  }

  /**
   * Runs `task` once no command is in flight: at once (on the next turn) when none is, else
   * after the last one's answer was sent (setImmediate runs after the microtasks that hand
   * the answer to the socket).
   */
  afterCommands(task: () => void): void {
    this.idleTasks.push(task);
    if (this.commandsInFlight === 0) this.runIdleTasks();
  }

  private runIdleTasks(): void {
    setImmediate(() => {
      if (this.commandsInFlight > 0) return;
      for (const task of this.idleTasks.splice(0)) task();
    });
  }

  activity(): void {
    this.lastActivityMs = Date.now();
  }

  health(): ComputerdHealth {
    const running = this.runner.count;
    return {
      ok: true,
      idleMs: running > 0 ? 0 : Date.now() - this.lastActivityMs,
      running,
      session: this.ctx.session.workspace !== null,
      mount: this.mode,
    };
  }

  async stop(): Promise<void> {
    await this.runner.killAll();
    if (this.mounted) await this.mounted.unmount();
    this.mounted = null;
    await this.native?.stop();
    this.native = null;
    await this.box?.dispose();
    await (await this.cgroups)?.remove();
    this.state.close();
  }
}
