/**
 * The session handshake: only a fresh token for this workspace, signed with the shared secret,
 * opens a session; and the framing the WebSocket upgrade agrees (container/wire/socket.ts): an
 * object that asks gets bytes in binary frames and the header back, one from before it gets
 * capnweb's JSON text, so a rolling deploy leaves neither side unable to read the other.
 */
import { randomUUID } from "node:crypto";
import { newWebSocketRpcSession } from "capnweb";
import { jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import {
  AUDIENCE_WORKSPACE,
  type ComputerApi,
  type ComputerdHealth,
  type ContainerExecRequest,
} from "../wire/index.ts";
import { BINARY_FRAMING, FRAMING_HEADER, newSocketRpcSession, type RpcSocket } from "../wire/socket.ts";
import {
  connect,
  type DaemonProcess,
  makeDirs,
  mintToken,
  run,
  startDaemon,
  testSecret,
  testWorkspace,
} from "./testing/harness.ts";
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

const helloWith = async (token: string) => {
  const computer = connect(daemon.port);
  try {
    return await computer.hello(token, new MemoryWorkspace());
  } finally {
    computer[Symbol.dispose]();
  }
};

describe("auth", () => {
  it("rejects a token signed with another secret", async () => {
    await expect(helloWith(await mintToken({ secret: "wrong-secret-wrong-secret" }))).rejects.toThrow(
      /unauthenticated/,
    );
  });

  it("rejects a token for another workspace", async () => {
    await expect(helloWith(await mintToken({ subject: "tenant_2:ws_9" }))).rejects.toThrow(/unauthenticated/);
  });

  it("rejects a token for another audience", async () => {
    await expect(helloWith(await mintToken({ audience: AUDIENCE_WORKSPACE }))).rejects.toThrow(/unauthenticated/);
  });

  it("rejects an expired token", async () => {
    const old = Math.floor(Date.now() / 1000) - 3600;
    await expect(helloWith(await mintToken({ issuedAtS: old }))).rejects.toThrow(/unauthenticated/);
  });

  it("rejects a token without a nonce", async () => {
    await expect(helloWith(await mintToken({ jti: null }))).rejects.toThrow(/unauthenticated/);
  });

  it("refuses every method before hello", async () => {
    const computer = connect(daemon.port);
    try {
      const request: ContainerExecRequest = {
        execId: randomUUID(),
        command: "echo no",
        cwd: daemon.mount,
        env: {},
        stdin: new Uint8Array(),
        timeoutMs: 1000,
        outputBytesMax: 1000,
        egress: false,
        allow: null,
      };
      const sink = { write: async () => {} };
      await expect(computer.exec(request, sink as never)).rejects.toThrow("unauthenticated");
      await expect(computer.kill("x")).rejects.toThrow("unauthenticated");
      await expect(computer.changed(1)).rejects.toThrow("unauthenticated");
      await expect(computer.flush()).rejects.toThrow("unauthenticated");
      // A failed hello does not authenticate the connection either.
      await expect(
        computer.hello(await mintToken({ secret: "nope-nope-nope-nope" }), new MemoryWorkspace()),
      ).rejects.toThrow();
      await expect(computer.flush()).rejects.toThrow("unauthenticated");
    } finally {
      computer[Symbol.dispose]();
    }
  });

  it("answers a valid hello with a token bound to the object's nonce", async () => {
    const jti = randomUUID();
    const reply = await helloWith(await mintToken({ jti }));
    const { payload } = await jwtVerify(reply.token, new TextEncoder().encode(testSecret), {
      audience: AUDIENCE_WORKSPACE,
      subject: testWorkspace,
    });
    expect(payload.nonce).toBe(jti);
    expect(payload.exp! - payload.iat!).toBeLessThanOrEqual(60);
    expect(reply.appliedRev).toBeGreaterThanOrEqual(0);
  });

  it("serves /healthz", async () => {
    const health = (await (await fetch(`http://127.0.0.1:${daemon.port}/healthz`)).json()) as ComputerdHealth;
    expect(health).toMatchObject({ ok: true, running: 0 });
    expect(typeof health.idleMs).toBe("number");
  });
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
