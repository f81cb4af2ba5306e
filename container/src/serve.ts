/**
 * The daemon proper: mounts the workspace, serves `GET /healthz` and the capnweb
 * session at `GET /session`, and prints one ComputerdReady JSON line on stdout when ready.
 * SIGTERM or SIGINT kills running commands, unmounts and exits 0.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { WebSocketServer } from "ws";
import type { ComputerdHealth, ComputerdReady } from "../wire/index.ts";
import { BINARY_FRAMING, FRAMING_HEADER, newSyncRpcSession, type RpcSocket } from "../wire/socket.ts";
import { readConfig } from "./config.ts";
import { Daemon } from "./daemon.ts";
import { daemonLimits } from "./limits.ts";
import { Computer } from "./session/computer.ts";

const log = (message: string) => process.stderr.write(`computerd: ${message}\n`);

export async function serve(): Promise<void> {
  const read = readConfig(process.env);
  if (!read.ok) {
    log(read.error);
    process.exit(2);
  }
  const { config } = read;
  const daemon = new Daemon(config, log);
  await daemon.start();

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.method === "GET" && req.url === "/healthz") {
      const body: ComputerdHealth = daemon.health();
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
      return;
    }
    res.writeHead(404).end();
  });
  const wss = new WebSocketServer({ noServer: true, maxPayload: daemonLimits.wsPayloadBytesMax });
  // The binary framing when the object asks for it, said in the upgrade's answer; capnweb's
  // JSON text for an object from before it (container/wire/socket.ts).
  const binary = (req: IncomingMessage) => req.headers[FRAMING_HEADER] === BINARY_FRAMING;
  wss.on("headers", (headers, req) => {
    if (binary(req)) headers.push(`${FRAMING_HEADER}: ${BINARY_FRAMING}`);
  });
  server.on("upgrade", (req, socket, head) => {
    if (req.url !== "/session") {
      socket.destroy();
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const computer = new Computer(daemon);
      ws.on("close", () => daemon.endSession(computer));
      // ws's WebSocket is close enough to the standard one for the session's transports.
      newSyncRpcSession(ws as unknown as RpcSocket, binary(req), computer);
    });
  });
  await new Promise<void>((resolve) => server.listen(config.port, config.host, resolve));

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    for (const client of wss.clients) client.terminate();
    server.close();
    await daemon.stop().catch((err: Error) => log(`stop: ${err.message}`));
    process.exit(0);
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);

  const ready: ComputerdReady = {
    ready: true,
    port: (server.address() as AddressInfo).port,
    mount: config.mount,
    pid: process.pid,
  };
  process.stdout.write(`${JSON.stringify(ready)}\n`);
}
