/**
 * The workspace object's link to its computerd: one capnweb session at a time, opened on
 * the first container run and kept while it lives, so later runs and change notices reuse
 * it. The object owns the session (container/wire): it opens it through the ContainerHost,
 * authenticates both ways, hands computerd this workspace's sync target, and forgets the
 * session as soon as it breaks — the next run opens a new one, and computerd resumes from
 * the last revision it applied.
 */
import type { RpcStub } from "capnweb";
import type { ComputerApi, WorkspaceSyncApi } from "../../container/wire/index.ts";
import { newSyncRpcSession } from "../../container/wire/socket.ts";
import { ComputerStarting } from "./ComputerStarting.ts";
import type { ContainerHost } from "./ContainerHost.ts";
import { containerLimits } from "./limits.ts";
import { mintSessionToken, verifyComputerdAnswer } from "./sessionToken.ts";

interface Session {
  computer: RpcStub<ComputerApi>;
  socket: WebSocket;
}

export class ComputerLink {
  private session: Promise<Session> | null = null;
  private live: Session | null = null;

  constructor(
    private readonly host: ContainerHost,
    private readonly secret: string,
    /** The workspace object's name, `<tenantId>:<workspaceId>`: the only workspace the daemon may serve. */
    private readonly workspace: string,
    /** What computerd calls back (an RpcTarget over this workspace's filesystem). */
    private readonly sync: WorkspaceSyncApi,
  ) {}

  /**
   * The authenticated computer for this workspace, connecting (and starting it) if needed.
   * A computer that is restarting after a crash refuses connections for a moment, so a
   * failed connect is retried a few times before the run is told the container did not start.
   */
  async computer(): Promise<RpcStub<ComputerApi>> {
    for (let attempt = 1; ; attempt++) {
      this.session ??= this.open();
      const pending = this.session;
      try {
        return (await pending).computer;
      } catch (error) {
        if (this.session === pending) this.session = null;
        // "Not yet, ask in a minute" is the answer: retrying within a second changes nothing.
        if (error instanceof ComputerStarting || attempt >= containerLimits.connectAttempts) throw error;
        await new Promise((resolve) => setTimeout(resolve, containerLimits.connectRetryMs * attempt));
      }
    }
  }

  /**
   * Tells a connected computer the tree moved on, so the mount follows while commands run.
   * Never connects. A change made while a session is opening is announced once it is open.
   */
  changed(revision: number): void {
    this.announcing = Math.max(this.announcing, revision);
    if (this.notifying || !this.live) return;
    void this.notify(this.live);
  }

  /** The newest revision to announce, and whether a notice is on the wire. */
  private announcing = 0;
  private notifying = false;

  /**
   * One notice in flight at a time, carrying the newest revision when it leaves: a batch of
   * 256 container writes applied here makes 256 revisions, and computerd needs to hear only
   * the last, not one round trip per write.
   */
  private async notify(session: Session): Promise<void> {
    this.notifying = true;
    try {
      let sent = 0;
      while (this.announcing > sent && this.live === session) {
        sent = this.announcing;
        await session.computer.changed(sent);
      }
    } catch {
      this.drop(session);
    } finally {
      this.notifying = false;
    }
  }

  private async open(): Promise<Session> {
    const { socket, binary } = await this.host.connect(this.workspace);
    const computer = newSyncRpcSession<ComputerApi>(socket, binary);
    const session: Session = { computer, socket };
    computer.onRpcBroken(() => this.drop(session));
    socket.addEventListener("close", () => this.drop(session));
    // computerd starts to push what it holds as soon as it accepts the hello, before this side
    // has checked its answer: what those pushes (or anyone) change meanwhile is announced below.
    const announcedBefore = this.announcing;
    try {
      const { token, nonce } = await mintSessionToken(this.secret, this.workspace);
      const answer = await computer.hello(token, this.sync);
      await verifyComputerdAnswer(this.secret, this.workspace, nonce, answer.token);
    } catch (error) {
      this.drop(session);
      throw error;
    }
    this.live = session;
    // Sent before the caller's first call on the session, so computerd hears of it first.
    if (this.announcing > announcedBefore && !this.notifying) void this.notify(session);
    return session;
  }

  private drop(session: Session | null): void {
    if (!session) return;
    if (this.live === session) this.live = null;
    if (this.session && this.live === null) this.session = null;
    try {
      session.socket.close(1000, "session ended");
    } catch {
      // Already closed.
    }
  }
}
