/** computerd's configuration, read once from the COMPUTERD_* environment (container/wire). */
import { COMPUTERD_ENV, type MountMode } from "../wire/index.ts";
import { boxLimits } from "./limits.ts";

export interface Config {
  workspace: string;
  secret: Uint8Array;
  port: number;
  host: string;
  stateDir: string;
  mount: string;
  /** The box's read-only root image; null until one is configured (commands are then refused). */
  rootfs: string | null;
  /**
   * The first host uid of the computer's range: box uid n is host uid `boxUidBase + n`
   * (boxLimits.hostUidDefault unless the supervisor assigns one).
   */
  boxUidBase: number;
  /** The mount mode asked for; `auto` picks native where this host allows it. */
  mountMode: MountMode | "auto";
  /** The fanotify helper the native mode needs; null: none on this host. */
  fanotifyBin: string | null;
  /** The device-node supervisor (container/native/mknod); null: device nodes are refused. */
  mknodBin: string | null;
  /** A host directory the box shows read-write at /mnt; benchmarks only (COMPUTERD_BOX_SCRATCH). */
  boxScratch: string | null;
}

export type ConfigResult = { ok: true; config: Config } | { ok: false; error: string };

export function readConfig(env: NodeJS.ProcessEnv): ConfigResult {
  const workspace = env[COMPUTERD_ENV.workspace];
  const secret = env[COMPUTERD_ENV.secret];
  const stateDir = env[COMPUTERD_ENV.stateDir];
  if (!workspace) return { ok: false, error: `${COMPUTERD_ENV.workspace} is required` };
  if (!secret) return { ok: false, error: `${COMPUTERD_ENV.secret} is required` };
  if (!stateDir) return { ok: false, error: `${COMPUTERD_ENV.stateDir} is required` };
  const port = Number(env[COMPUTERD_ENV.port] ?? "8080");
  if (!Number.isInteger(port) || port < 0 || port > 65535) return { ok: false, error: "bad port" };
  const boxUidBase = Number(env[COMPUTERD_ENV.boxUid] ?? boxLimits.hostUidDefault);
  // The whole range must lie above every system and login uid and below (uid_t)-1.
  if (
    !Number.isInteger(boxUidBase) ||
    boxUidBase < boxLimits.uidsMapped ||
    boxUidBase + boxLimits.uidsMapped > 0xffffffff
  ) {
    return {
      ok: false,
      error: `${COMPUTERD_ENV.boxUid} must start a range of ${boxLimits.uidsMapped} unprivileged uids (at least ${boxLimits.uidsMapped})`,
    };
  }
  const mountMode = env[COMPUTERD_ENV.mountMode] || "auto";
  if (mountMode !== "auto" && mountMode !== "native" && mountMode !== "fuse") {
    return { ok: false, error: `${COMPUTERD_ENV.mountMode} must be auto, native or fuse` };
  }
  const mount = (env[COMPUTERD_ENV.mount] ?? "/workspace").replace(/\/+$/, "") || "/";
  return {
    ok: true,
    config: {
      workspace,
      secret: new TextEncoder().encode(secret),
      port,
      host: env[COMPUTERD_ENV.host] ?? "127.0.0.1",
      stateDir,
      mount,
      rootfs: env[COMPUTERD_ENV.rootfs] || null,
      boxUidBase,
      mountMode,
      fanotifyBin: env[COMPUTERD_ENV.fanotifyBin] || null,
      mknodBin: env[COMPUTERD_ENV.mknodBin] || null,
      boxScratch: env[COMPUTERD_ENV.boxScratch] || null,
    },
  };
}
