/**
 * A box launched before its command: the next command skips its cgroups, the spawn and the
 * box's launch chain (bash → setpriv → bwrap → the namespaces, mounts and seccomp), which
 * together were most of a warm `echo hi` in a container (docs/container-sandbox.md, "A box
 * ready before its command").
 *
 * The runner keeps at most one, made after a command has answered, for a command like the
 * one before: the same user and the same resources. Its box's bash waits on fd 6, a pipe
 * (../sandbox/box.ts, `launchSpare`); `start` writes the command's message there
 * (`commandMessage`: the working directory, the command and the environment) and closes
 * it, and the box starts them exactly as a fresh launch does with the same message in a
 * file. A command with egress (its socket is bound into the box at launch), a different
 * user or resources, or a message too long for bash's byte-at-a-time `read` of a pipe is
 * launched fresh, as is any command while no spare is alive.
 */
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import type { Writable } from "node:stream";
import type { ContainerExecRequest } from "../../wire/index.ts";
import { spareLimits } from "../limits.ts";
import type { CommandCgroup } from "../sandbox/cgroup.ts";

/** Which spare a command can use: its user and the resources its cgroups were made with. */
export function spareKey(request: Pick<ContainerExecRequest, "user" | "resources">): string {
  return JSON.stringify([request.user ?? "user", request.resources ?? null]);
}

/** Whether a spare's bash can take this message (./box.ts `commandMessage`) through its pipe. */
export function fitsSpare(message: Uint8Array): boolean {
  return message.byteLength <= spareLimits.messageBytesMax;
}

export class SpareBox {
  readonly key: string;
  readonly child: ChildProcessWithoutNullStreams;
  readonly cgroup: CommandCgroup | null;
  private readonly control: Writable;
  private exited = false;

  constructor(key: string, child: ChildProcessWithoutNullStreams, cgroup: CommandCgroup | null, control: Writable) {
    this.key = key;
    this.child = child;
    this.cgroup = cgroup;
    this.control = control;
    child.once("exit", () => {
      this.exited = true;
    });
    control.on("error", () => {});
  }

  /** Whether its box is still waiting: one that died (a failed launch, a kill) is never handed out. */
  get alive(): boolean {
    return !this.exited && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Hands the box its command; from here it is that command's, as a fresh launch would be. */
  start(message: Uint8Array): void {
    this.control.end(message);
  }

  /**
   * Ends its box, waits for its launch to exit (its mount namespace holds the workspace's
   * mount until then) and removes its cgroups. The box is given end of file where its message
   * would be, and its bash exits: the launcher then reaps the box's pid 1 as after any command
   * (container/native/mknod/reap.c). Only a box still there after discardGraceMs is killed.
   */
  async discard(): Promise<void> {
    this.control.destroy();
    if (this.alive) {
      const exited = new Promise((resolve) => this.child.once("exit", resolve));
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<"late">((resolve) => {
        timer = setTimeout(() => resolve("late"), spareLimits.discardGraceMs);
      });
      if ((await Promise.race([exited, late])) === "late" && this.child.pid !== undefined) {
        try {
          process.kill(-this.child.pid, "SIGKILL");
        } catch {
          // Already gone.
        }
        await exited;
      }
      clearTimeout(timer);
    }
    await this.cgroup?.remove();
  }
}
