/**
 * The session's framing, agreed in the WebSocket upgrade (container/wire/socket.ts): an
 * object that asks gets bytes in binary frames and the header back; one from before it, which does
 * not ask, gets capnweb's JSON text, so a rolling deploy leaves neither side unable to read
 * the other.
 */
import { newWebSocketRpcSession } from "capnweb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import type { ComputerApi } from "../wire/index.ts";
import { BINARY_FRAMING, FRAMING_HEADER, newSocketRpcSession, type RpcSocket } from "../wire/socket.ts";
import { type DaemonProcess, makeDirs, mintToken, run, startDaemon } from "./testing/harness.ts";
import { MemoryWorkspace } from "./testing/memoryWorkspace.ts";

let dirs: Awaited<ReturnType<typeof makeDirs>>;
let daemon: DaemonProcess;

beforeAll(async () => {
  dirs = await makeDirs();
  daemon = await startDaemon(dirs);
});

afterAll(async () => {
  await daemon?.stop();
  await dirs?.cleanup();
});

/** Opens a socket, asking for the binary framing or not; records the upgrade's answer and every frame that arrives. */
function open(ask: boolean) {
  const socket = new WebSocket(`ws://127.0.0.1:${daemon.port}/session`, {
    headers: ask ? { [FRAMING_HEADER]: BINARY_FRAMING } : {},
  });
  const frames: boolean[] = [];
  socket.on("message", (_data, isBinary) => frames.push(isBinary));
  const answered = new Promise<string | undefined>((resolve) =>
    socket.once("upgrade", (response) => resolve(response.headers[FRAMING_HEADER] as string | undefined)),
  );
  return { socket, frames, answered };
}

describe("the session's framing", () => {
  it("is binary for an object that asks, and the upgrade's answer says so", async () => {
    const { socket, frames, answered } = open(true);
    using computer = newSocketRpcSession<ComputerApi>(socket as unknown as RpcSocket);
    await computer.hello(await mintToken(), new MemoryWorkspace());
    // A command's output is bytes: it comes as binary frames.
    expect((await run(computer, daemon.mount, "echo out")).stdout).toBe("out\n");
    expect(await answered).toBe(BINARY_FRAMING);
    expect(frames.some((binary) => binary)).toBe(true);
  });

  it("is capnweb's JSON text for an object that does not ask", async () => {
    const { socket, frames, answered } = open(false);
    using computer = newWebSocketRpcSession<ComputerApi>(socket as unknown as globalThis.WebSocket);
    await computer.hello(await mintToken(), new MemoryWorkspace());
    expect((await run(computer, daemon.mount, "echo out")).stdout).toBe("out\n");
    expect(await answered).toBeUndefined();
    expect(frames.length).toBeGreaterThan(0);
    expect(frames.some((binary) => binary)).toBe(false);
  });
});
