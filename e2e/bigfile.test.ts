/**
 * A 1 GiB file streams through the whole platform (wrangler dev, the gateway, RPC to the
 * workspace object, SQLite chunks) both ways and comes back byte-identical. That nothing
 * holds it whole is proven where it can be observed exactly: vfs/ops/read.test.ts and
 * write.test.ts count chunk reads and buffers against what the consumer has taken.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { newWorkspace, signUp } from "./platform.ts";
import { sharedPlatform } from "./sharedPlatform.ts";

const MIB = 1024 * 1024;
const FILE_MIB = 1024;

const platform = sharedPlatform();

/** Deterministic, non-repeating bytes (so deduplication cannot shrink the file), one MiB at a time. */
function* mebibytes(count: number): Generator<Uint8Array> {
  let state = 0x9e3779b9;
  for (let i = 0; i < count; i++) {
    const words = new Uint32Array(MIB / 4);
    for (let j = 0; j < words.length; j++) {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      words[j] = state >>> 0;
    }
    yield new Uint8Array(words.buffer);
  }
}

describe("a 1 GiB file", () => {
  it("streams in and out byte-identical", async () => {
    const { auth } = await signUp(platform.url, "big@example.com");
    const workspace = { id: await newWorkspace(platform.url, auth) };
    const url = `${platform.url}/v1/workspaces/${workspace.id}/files/big.bin`;

    const sent = createHash("sha256");
    const chunks = mebibytes(FILE_MIB);
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.next();
        if (next.done) return controller.close();
        sent.update(next.value);
        controller.enqueue(next.value);
      },
    });
    const put = await fetch(url, { method: "PUT", headers: auth, body, duplex: "half" } as RequestInit);
    expect(put.status, await put.clone().text()).toBe(200);
    expect(((await put.json()) as { size: number }).size).toBe(FILE_MIB * MIB);

    const got = await fetch(url, { headers: auth });
    expect(got.headers.get("content-length")).toBe(String(FILE_MIB * MIB));
    const received = createHash("sha256");
    let bytes = 0;
    for await (const part of got.body as unknown as AsyncIterable<Uint8Array>) {
      received.update(part);
      bytes += part.byteLength;
    }
    expect(bytes).toBe(FILE_MIB * MIB);
    expect(received.digest("hex")).toBe(sent.digest("hex"));
  });
});
