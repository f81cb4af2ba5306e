/**
 * One exec's egress, as the exec runner uses it: a proxy (proxy.ts) on a fresh socket in the
 * box's egress directory, plus what the box needs to reach it (box.ts). The runner starts it
 * before the command, bind-mounts `socketPath` at `egressBox.socket`, starts `bridge` in the
 * box before the command with `env` added to the command's environment, and calls `close`
 * once the command has ended; the number `close` resolves with is the exec's `egressBytes`.
 */
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { egressBoxEnv, egressBridgeArgv } from "./box.ts";
import { startEgressProxy } from "./proxy.ts";

export interface EgressRun {
  /** The proxy's socket on the host; bind-mount it into the box at `egressBox.socket`. */
  socketPath: string;
  /** The bridge the box starts before the command (socat, loopback TCP to the socket). */
  bridge: string[];
  /** Proxy variables for the command. */
  env: Record<string, string>;
  /** Stops the proxy and cuts what is still open; resolves with the bytes that crossed it, both ways. */
  close(): Promise<number>;
}

export interface EgressRunOptions {
  /** A directory only root can write to (the box's staging `egress` directory); the socket gets a fresh name in it. */
  dir: string;
  /** The run's normalised allow list (ContainerExecRequest.allow); null for any public host. */
  allow: readonly string[] | null;
  /** The host uid the box runs as, which must be able to connect; null leaves the socket root's. */
  boxUid: number | null;
}

export async function startEgressRun(options: EgressRunOptions): Promise<EgressRun> {
  // A name of its own rather than the exec id, which comes from the object and is not a path.
  const socketPath = join(options.dir, `${randomBytes(8).toString("hex")}.sock`);
  const proxy = await startEgressProxy({ socketPath, allow: options.allow, boxUid: options.boxUid });
  return {
    socketPath,
    bridge: egressBridgeArgv(),
    env: egressBoxEnv(),
    close: async () => {
      const { sentBytes, receivedBytes } = await proxy.close();
      return sentBytes + receivedBytes;
    },
  };
}
