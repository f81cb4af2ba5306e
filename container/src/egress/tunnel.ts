/**
 * `CONNECT host:port`: once the target passed the policy and a connection to one of its
 * checked addresses is open, the proxy answers 200 and relays bytes both ways until either
 * side closes, fails or goes idle. What it relays is counted: bytes from the box as sent,
 * bytes from the upstream as received, the client's early bytes (sent with the CONNECT
 * head, typically the TLS ClientHello) included. The CONNECT head and the proxy's own answer
 * are not counted.
 */
import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import { withUpstream } from "./connect.ts";
import type { ProxyRoom } from "./room.ts";
import { connectTarget, isAnswer } from "./target.ts";

export async function tunnel(room: ProxyRoom, request: IncomingMessage, client: Socket, head: Buffer): Promise<void> {
  client.on("error", () => client.destroy());
  const target = connectTarget(request.url ?? "", room.allow, room.limits.connectPorts);
  if (isAnswer(target)) return room.answerRaw(client, target);
  await withUpstream(
    room,
    target,
    (answer) => room.answerRaw(client, answer),
    () => client.destroyed,
    async (upstream) => {
      client.write("HTTP/1.1 200 Connection established\r\n\r\n");
      relay(room, client, upstream, head);
      await new Promise((resolve) => upstream.once("close", resolve));
    },
  );
}

/** Pipes both ways with back-pressure, counting; either side ending, failing or idling ends both. */
function relay(room: ProxyRoom, client: Socket, upstream: Socket, head: Buffer): void {
  const end = () => {
    client.destroy();
    upstream.destroy();
  };
  for (const socket of [client, upstream]) {
    socket.setTimeout(room.limits.idleTimeoutMs, end);
    socket.on("error", end);
    socket.on("close", end);
  }
  if (head.byteLength > 0) {
    room.usage.sentBytes += head.byteLength;
    upstream.write(head);
  }
  client.on("data", (chunk: Buffer) => {
    room.usage.sentBytes += chunk.byteLength;
  });
  upstream.on("data", (chunk: Buffer) => {
    room.usage.receivedBytes += chunk.byteLength;
  });
  client.pipe(upstream);
  upstream.pipe(client);
}
