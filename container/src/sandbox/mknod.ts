/**
 * The computer's device-node supervisor, `cubicle-mknod serve` (container/native/mknod):
 * the kernel refuses mknod of a character or block device in the box's user namespace, so
 * every box's launch chain installs a seccomp filter that hands exactly those calls to this
 * program, which makes the node on the box's behalf where the box sees a nodev mount, as the
 * caller, and answers with the kernel's errno (docs/container-sandbox.md, "Device nodes").
 *
 * One per computer, started by the box once its user namespace exists (the supervisor
 * serves only callers in that namespace), and restarted if it dies: a command started while
 * it is down runs without the filter (device mknod then gets the kernel's EPERM); one whose
 * listener died with it gets ENOSYS for its later device mknods.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { boxLimits } from "../limits.ts";

export interface MknodOptions {
  /** The `cubicle-mknod` program (COMPUTERD_MKNOD_BIN). */
  binary: string;
  /** Where it listens for the launchers' hand-overs: in the box's staging directory, which no box sees. */
  socketPath: string;
  /** The host uid the launch chain runs as when it connects (the box user's). */
  launcherUid: number;
  /** The computer's user namespace (an open descriptor): requests from anywhere else are refused. */
  usernsFd: number;
  log: (line: string) => void;
}

export class MknodSupervisor {
  private child: ChildProcess | null = null;
  private closing = false;
  private restarts = 0;
  private readonly opts: MknodOptions;

  private constructor(opts: MknodOptions) {
    this.opts = opts;
  }

  /** Starts the supervisor and resolves once it listens; rejects with its reason. */
  static async start(opts: MknodOptions): Promise<MknodSupervisor> {
    const supervisor = new MknodSupervisor(opts);
    await supervisor.spawn();
    return supervisor;
  }

  /** The running program's pid, if one runs. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /**
   * The argv that starts a command's launch chain as root and runs the rest as `uid` under the
   * filter (`cubicle-mknod start`: the cgroups joined, root given up, then `launch`), or, while
   * no supervisor serves the filter, without it.
   */
  starter(uid: number): string[] {
    return [this.opts.binary, "start", String(uid), this.child ? this.opts.socketPath : "-"];
  }

  async close(): Promise<void> {
    this.closing = true;
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.stdin?.end();
    child.kill("SIGTERM");
    await exited;
  }

  private async spawn(): Promise<void> {
    const child = spawn(this.opts.binary, ["serve", this.opts.socketPath, String(this.opts.launcherUid)], {
      stdio: ["pipe", "pipe", "pipe", this.opts.usernsFd],
      env: { PATH: boxLimits.hostPath },
    });
    let stderr = "";
    child.stderr?.on("data", (b: Buffer) => {
      stderr = (stderr + b.toString()).slice(-4096);
    });
    const ready = await new Promise<boolean>((resolve) => {
      if (child.stdout) createInterface({ input: child.stdout }).once("line", (line) => resolve(line === "ready"));
      child.once("error", () => resolve(false));
      child.once("exit", () => resolve(false));
    });
    if (!ready) {
      child.kill("SIGKILL");
      throw new Error(`cubicle-mknod did not start: ${stderr.trim() || "no reason given"}`);
    }
    this.child = child;
    child.once("exit", (code, signal) => {
      if (this.closing || this.child !== child) return;
      this.child = null;
      const why = `cubicle-mknod exited unasked (${signal ?? code}): ${stderr.trim()}`;
      if (++this.restarts > boxLimits.mknodRestartsMax) {
        this.opts.log(`${why}; device nodes are refused from now on`);
        return;
      }
      this.opts.log(`${why}; restarting it`);
      this.spawn().catch((error: Error) => this.opts.log(`${error.message}; device nodes are refused from now on`));
    });
  }
}
