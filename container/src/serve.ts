/**
 * The daemon proper: mounts the workspace, serves `GET /healthz` and the capnweb
 * session at `GET /session`, and prints one ComputerdReady JSON line on stdout when ready.
 * SIGTERM or SIGINT kills running commands, unmounts and exits 0.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { newWebSocketRpcSession } from "capnweb";
import { WebSocketServer } from "ws";
import type { ComputerdHealth, ComputerdReady } from "../wire/index.ts";
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
  server.on("upgrade", (req, socket, head) => {
    if (req.url !== "/session") {
      socket.destroy();
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const computer = new Computer(daemon);
      ws.on("close", () => daemon.endSession(computer));
      // ws's WebSocket is close enough to the standard one for capnweb's transport.
      newWebSocketRpcSession(ws as unknown as WebSocket, computer);
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
