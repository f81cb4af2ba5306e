/**
 * Test only: a stand-in for the Workers AI binding, which cannot run without a Cloudflare
 * account. It answers `run(model, inputs)` as the SDXL models do (a PNG stream of the asked
 * size) or as a test says, and records every call. `drawsWith` hands it to one workspace's
 * object, so everything above the binding is the deployed code.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { type AiRunner, imageModelFrom, type ModelInputs } from "../tenants/workspace/images.ts";
import type { WorkspaceDO } from "../tenants/workspace/WorkspaceDO.ts";

// What a test of drawing reads off a picture, and the binding's shape, for tests in rooms
// below tenants/ (executors/), which reach the workspace's image code only through here.
export { type AiRunner, pngSize } from "../tenants/workspace/images.ts";

export const FAKE_IMAGE_MODEL = "@cf/test/png-painter";

/** A valid PNG of the given size: one grey RGBA row repeated, deflated by CompressionStream. */
export async function png(width: number, height: number): Promise<Uint8Array> {
  const crc = (bytes: Uint8Array) => {
    let c = 0xffffffff;
    for (const b of bytes) {
      c ^= b;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    }
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Uint8Array) => {
    const out = new Uint8Array(12 + data.length);
    const view = new DataView(out.buffer);
    view.setUint32(0, data.length);
    out.set(new TextEncoder().encode(type), 4);
    out.set(data, 8);
    view.setUint32(8 + data.length, crc(out.subarray(4, 8 + data.length)));
    return out;
  };
  const header = new Uint8Array(13);
  new DataView(header.buffer).setUint32(0, width);
  new DataView(header.buffer).setUint32(4, height);
  header.set([8, 6, 0, 0, 0], 8);
  const raw = new Uint8Array(height * (1 + width * 4)).fill(128);
  const deflated = new Uint8Array(
    await new Response(new Blob([raw]).stream().pipeThrough(new CompressionStream("deflate"))).arrayBuffer(),
  );
  const parts = [
    new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk("IHDR", header),
    chunk("IDAT", deflated),
    chunk("IEND", new Uint8Array()),
  ];
  return new Uint8Array(await new Blob(parts).arrayBuffer());
}

export type Answer = (inputs: ModelInputs) => Promise<unknown>;

/** The stand-in binding: records each call and answers as `answer` says (a PNG stream by default). */
export function fakeAi(answer?: Answer) {
  const calls: { model: string; inputs: ModelInputs }[] = [];
  const ai: AiRunner = {
    async run(model, inputs) {
      calls.push({ model, inputs });
      if (answer) return answer(inputs);
      return new Blob([await png(inputs.width ?? 1024, inputs.height ?? 1024)]).stream();
    },
  };
  return { ai, calls };
}

/** Makes the workspace's object draw with `ai` from now on (until the object is evicted). */
export async function drawsWith(tenantId: string, workspaceId: string, ai: AiRunner): Promise<void> {
  await runInDurableObject(env.WORKSPACE.getByName(`${tenantId}:${workspaceId}`), (instance: WorkspaceDO) => {
    instance.imageModel = imageModelFrom({ AI: ai, AI_IMAGE_MODEL: FAKE_IMAGE_MODEL });
  });
}
