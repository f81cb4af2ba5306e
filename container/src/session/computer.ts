/**
 * The ComputerApi one WebSocket connection sees. Each connection gets its own instance, so
 * authentication is per connection: nothing but `hello` works until that connection's
 * `hello` succeeded. A successful `hello` makes this connection the daemon's session.
 */
import { RpcTarget } from "capnweb";
import type {
  ComputerApi,
  ContainerExecOutcome,
  ContainerExecRequest,
  OutputSinkApi,
  WorkspaceSyncApi,
} from "../../wire/index.ts";
import type { Daemon } from "../daemon.ts";
import { trace } from "../trace.ts";
import { answerToken, verifyObjectToken } from "./auth.ts";

export class Computer extends RpcTarget implements ComputerApi {
  private readonly daemon: Daemon;
  private authenticated = false;

  constructor(daemon: Daemon) {
    super();
    this.daemon = daemon;
  }

  async hello(token: string, workspace: WorkspaceSyncApi): Promise<{ token: string; appliedRev: number }> {
    trace("hello received");
    const { config } = this.daemon;
    const verified = await verifyObjectToken(token, config.secret, config.workspace);
    if (!verified.ok) throw new Error(`unauthenticated: ${verified.reason}`);
    this.authenticated = true;
    this.daemon.activity();
    // The stub in the parameters is released when this call returns; keep our own copy.
    const kept = (workspace as unknown as { dup(): WorkspaceSyncApi }).dup();
    const appliedRev = this.daemon.state.appliedRev();
    this.daemon.startSession(kept, this);
    return { token: await answerToken(config.secret, config.workspace, verified.jti), appliedRev };
  }

  async exec(request: ContainerExecRequest, sink: OutputSinkApi): Promise<ContainerExecOutcome> {
    trace("exec received");
    this.check();
    this.daemon.commandEntered();
    try {
      // A command must see every change the object made before it was started (the run names
      // that revision: its notice may not have arrived yet), and the outcome of what a previous
      // daemon or session left to push: the object's version where it kept its own, and the
      // box's version beside it, which a pull the push asked for brings.
      if (request.revision !== undefined) this.catchUp(request.revision);
      await this.daemon.pusher.resumed();
      await this.daemon.puller.settled();
      trace("exec pull settled");
      const outcome = await this.daemon.runner.run(request, sink);
      trace("exec answered");
      return this.daemon.mode ? { ...outcome, mount: this.daemon.mode } : outcome;
    } finally {
      this.daemon.commandLeft();
    }
  }

  async kill(execId: string): Promise<void> {
    this.check();
    this.daemon.runner.kill(execId);
  }

  async changed(revision: number): Promise<void> {
    this.check();
    this.catchUp(revision);
  }

  /** Starts a pull when the object is at `revision` and the replica is behind it. */
  private catchUp(revision: number): void {
    if (revision > this.daemon.ctx.revision.value) this.daemon.ctx.revision.value = revision;
    if (revision > this.daemon.state.appliedRev()) void this.daemon.puller.request();
  }

  async flush(): Promise<{ revision: number }> {
    this.check();
    return { revision: await this.daemon.flush(true) };
  }

  private check(): void {
    if (!this.authenticated) throw new Error("unauthenticated");
    this.daemon.activity();
  }
}
