/**
 * The workspace object's link to computerd announces every change of the tree to a connected
 * computer. computerd cannot run inside workerd, so a twin of its ComputerApi answers on the
 * other end of a WebSocketPair, through capnweb as the real one does.
 */
import { RpcTarget } from "capnweb";
import { decodeJwt, SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { AUDIENCE_WORKSPACE, type WorkspaceSyncApi } from "../../container/wire/index.ts";
import { newSocketRpcSession } from "../../container/wire/socket.ts";
import { ComputerLink } from "./ComputerLink.ts";
import type { ContainerHost } from "./ContainerHost.ts";

const secret = "computer-link-test-secret";
const workspace = "ten_test:ws_test";

/** computerd's side: answers hello as it does, records every `changed`, and lets a test act during hello. */
class ComputerTwin extends RpcTarget {
  /** The revisions announced with `changed`, in order. */
  readonly notices: number[] = [];
  duringHello: () => void = () => {};

  async hello(token: string, _workspace: WorkspaceSyncApi): Promise<{ token: string; appliedRev: number }> {
    this.duringHello();
    const answer = await new SignJWT({ nonce: decodeJwt(token).jti })
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setAudience(AUDIENCE_WORKSPACE)
      .setSubject(workspace)
      .setIssuedAt()
      .setExpirationTime("60s")
      .sign(new TextEncoder().encode(secret));
    return { token: answer, appliedRev: 0 };
  }

  async changed(revision: number): Promise<void> {
    this.notices.push(revision);
  }

  async flush(): Promise<{ revision: number }> {
    return { revision: 0 };
  }
}

function linkTo(twin: ComputerTwin): ComputerLink {
  const host: ContainerHost = {
    async connect() {
      const pair = new WebSocketPair();
      const [client, server] = [pair[0], pair[1]];
      server.accept();
      newSocketRpcSession(server, twin);
      client.accept();
      return { socket: client, binary: true };
    },
    async forget() {},
  };
  return new ComputerLink(host, secret, workspace, new (class extends RpcTarget {})() as unknown as WorkspaceSyncApi);
}

describe("ComputerLink", () => {
  it("announces a change made while the session was opening once it is open", async () => {
    const twin = new ComputerTwin();
    const link = linkTo(twin);
    // A push computerd sent with its hello lands on the object before the session is ready.
    twin.duringHello = () => link.changed(7);
    const computer = await link.computer();
    // Calls on one session arrive in order: a notice sent before this call has arrived.
    await computer.flush();
    expect(twin.notices).toContain(7);
  });
});
