/**
 * Test only: runs commands in the real guest, loaded through the real Worker Loader from
 * the built bundle (run `node scripts/build-shell.ts` first), over a MemoryFs workspace,
 * with a sink that records every piece and when it arrived.
 */
import { env, exports, RpcTarget } from "cloudflare:workers";
import type { ExecOutcome, ExecRequest, OutputSink, OutputStream } from "../../contract.ts";
import { shellGuestCode } from "../guestCode.ts";
import { shellGuest } from "../loadGuest.ts";
import { MemoryFs } from "./memoryFs.ts";

export class RecordingSink extends RpcTarget implements OutputSink {
  /** Every piece of output in order; `tail` marks those that came back with the outcome (ExecOutcome.tail), as the workspace object appends them. */
  readonly pieces: { stream: OutputStream; data: Uint8Array; atMs: number; tail?: true }[] = [];

  async write(stream: OutputStream, data: Uint8Array): Promise<void> {
    this.pieces.push({ stream, data, atMs: Date.now() });
  }

  /** Takes the outcome's tail after what the sink took, as ExecRunner does, and answers the outcome without it. */
  end({ tail, ...outcome }: ExecOutcome): ExecOutcome {
    for (const piece of tail ?? []) this.pieces.push({ ...piece, atMs: Date.now(), tail: true });
    return outcome;
  }

  bytes(stream: OutputStream): Uint8Array {
    const parts = this.pieces.filter((piece) => piece.stream === stream).map((piece) => piece.data);
    const joined = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
    let at = 0;
    for (const part of parts) {
      joined.set(part, at);
      at += part.length;
    }
    return joined;
  }

  text(stream: OutputStream): string {
    return new TextDecoder().decode(this.bytes(stream));
  }
}

export interface ShellResult {
  outcome: ExecOutcome;
  stdout: string;
  stderr: string;
  sink: RecordingSink;
  fs: MemoryFs;
}

let runs = 0;

/** The guest; with egress, behind the real egress gateway, billing tenant `isolateKey`'s workspace `ws_test`. */
export function guest(isolateKey = "test", egress = false) {
  const props = { tenantId: isolateKey, workspaceId: "ws_test", keyId: null, executor: "shell" as const, allow: null };
  const outbound = egress ? exports.EgressGateway({ props }) : null;
  return shellGuest(env.LOADER, { isolateKey, outbound, ...shellGuestCode });
}

export function request(command: string, overrides: Partial<ExecRequest> = {}): ExecRequest {
  return {
    execId: `ex_test${++runs}`,
    command,
    cwd: "/workspace",
    env: {},
    stdin: new Uint8Array(0),
    timeoutMs: 10_000,
    outputBytesMax: 1024 * 1024,
    egress: false,
    ...overrides,
  };
}

/** Runs `command` in a workspace (a fresh MemoryFs unless one is given). */
export async function sh(
  command: string,
  options: Partial<ExecRequest> & { fs?: MemoryFs; isolateKey?: string } = {},
): Promise<ShellResult> {
  const { fs = new MemoryFs(), isolateKey, ...overrides } = options;
  const sink = new RecordingSink();
  const outcome = sink.end(await guest(isolateKey, overrides.egress).run(request(command, overrides), sink, fs));
  return { outcome, stdout: sink.text("stdout"), stderr: sink.text("stderr"), sink, fs };
}
