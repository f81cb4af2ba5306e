/**
 * The seam between the workspace object and where computerd runs (host.ts chooses one):
 * a Cloudflare Container in production (cloudflareHost.ts), the local supervisor under
 * `npm start` and in CI (localHost.ts). Its own file, so the hosts and the chooser import
 * it without importing each other.
 */
import { BINARY_FRAMING, FRAMING_HEADER } from "../../container/wire/socket.ts";

export interface ContainerHost {
  /**
   * Makes sure a computerd serves `workspace` (starting one if needed) and opens a WebSocket
   * to its `/session`, accepted and ready for capnweb. The caller owns and closes it. Throws
   * ComputerStarting (ComputerStarting.ts) when the computer cannot start yet but will.
   */
  connect(workspace: string): Promise<SyncSocket>;
  /** Stops the workspace's computer, if one runs, and deletes what it kept on its disk (the workspace was deleted). */
  forget(workspace: string): Promise<void>;
}

/** A session's WebSocket, and whether computerd agreed to the binary framing (container/wire/socket.ts). */
export interface SyncSocket {
  socket: WebSocket;
  binary: boolean;
}

/** Opens a WebSocket with `fetch` (the Workers way), asking for the binary framing, and accepts it. */
export async function openWebSocket(fetcher: { fetch(request: Request): Promise<Response> }, url: string) {
  const response = await fetcher.fetch(
    new Request(url, { headers: { upgrade: "websocket", [FRAMING_HEADER]: BINARY_FRAMING } }),
  );
  const socket = response.webSocket;
  if (!socket) throw new Error(`computerd refused the session: ${response.status} ${await response.text()}`);
  socket.accept();
  return { socket, binary: response.headers.get(FRAMING_HEADER) === BINARY_FRAMING };
}
