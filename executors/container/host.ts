/**
 * Which ContainerHost (ContainerHost.ts, the seam between the workspace object and where
 * computerd runs) a deployment has. In production that is a Cloudflare Container (one per
 * workspace, the `COMPUTER` binding); locally (`npm start`, CI) the supervisor in
 * container/supervisor runs one computerd per workspace in its own mount and pid namespace.
 * Everything above the interface (the capnweb session, sync and exec) is the same code on both.
 */
import type { ContainerHost } from "./ContainerHost.ts";
import { CloudflareContainerHost } from "./cloudflareHost.ts";
import { LocalSupervisorHost } from "./localHost.ts";

/** What the Worker's environment may carry for containers (set by `npm start` or as deployment secrets). */
export interface ContainerEnv {
  /** The HS256 secret computerd and the workspace objects sign session tokens with. */
  COMPUTERD_SECRET?: string;
  /** Local mode: the supervisor's address (`http://127.0.0.1:<port>`), set by scripts/start.ts. */
  COMPUTERD_SUPERVISOR_URL?: string;
  /** Production: the Cloudflare Container class (executors/container/Computer.ts). */
  COMPUTER?: DurableObjectNamespace;
}

/** The host this deployment has, or null when it has none (the executor is then unavailable). */
export function containerHostFor(env: ContainerEnv): { host: ContainerHost; secret: string } | null {
  const secret = env.COMPUTERD_SECRET;
  if (!secret) return null;
  if (env.COMPUTERD_SUPERVISOR_URL)
    return { host: new LocalSupervisorHost(env.COMPUTERD_SUPERVISOR_URL, secret), secret };
  if (env.COMPUTER) return { host: new CloudflareContainerHost(env.COMPUTER), secret };
  return null;
}
