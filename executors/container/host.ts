/**
 * ContainerHost: the seam between the workspace object and where computerd runs. In
 * production that is a Cloudflare Container (one per workspace, the `COMPUTER` binding);
 * locally (`npm start`, CI) the supervisor in container/supervisor runs one computerd per
 * workspace in its own mount and pid namespace. Everything above this interface — the
 * capnweb session, sync and exec — is the same code on both.
 */
import { CloudflareContainerHost } from "./cloudflareHost.ts";
import { LocalSupervisorHost } from "./localHost.ts";

export interface ContainerHost {
  /**
   * Makes sure a computerd serves `workspace` (starting one if needed) and opens a WebSocket
   * to its `/session`, accepted and ready for capnweb. The caller owns and closes it. Throws
   * ComputerStarting (ComputerStarting.ts) when the computer cannot start yet but will.
   */
  connect(workspace: string): Promise<WebSocket>;
  /** Stops the workspace's computer, if one runs, and deletes what it kept on its disk (the workspace was deleted). */
  forget(workspace: string): Promise<void>;
}

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

/** Opens a WebSocket with `fetch` (the Workers way) and accepts it. */
export async function openWebSocket(fetcher: { fetch(request: Request): Promise<Response> }, url: string) {
  const response = await fetcher.fetch(new Request(url, { headers: { upgrade: "websocket" } }));
  const socket = response.webSocket;
  if (!socket) throw new Error(`computerd refused the session: ${response.status} ${await response.text()}`);
  socket.accept();
  return socket;
}
