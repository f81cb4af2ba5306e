/**
 * An image behind a public link: a `javascript` run draws a PNG (a deterministic local
 * generator: no model, no network), writes it into the workspace, and the file is shared by
 * a public link that serves it as image/png.
 *
 *   npm start                        # in one terminal
 *   npm run example image-link       # in another
 */
import type { Cubicle } from "@cubicle/sdk";
import { connect, ensureCompleted } from "../connect.ts";

export const WIDTH = 160;
export const HEIGHT = 90;

/**
 * The module the agent runs: RGBA pixels of a sunset (sky gradient, sun, sea), encoded as
 * a PNG by hand (signature, IHDR, one zlib IDAT from CompressionStream, IEND, CRC-32s).
 */
export const DRAW_PNG = `
import { mkdir, writeFile } from "node:fs/promises";

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (bytes) => {
  let c = 0xffffffff;
  for (const b of bytes) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type, data) => {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
};

export default async function draw({ width, height }) {
  const raw = new Uint8Array(height * (1 + width * 4));
  for (let y = 0; y < height; y++) {
    raw[y * (1 + width * 4)] = 0; // filter: none
    for (let x = 0; x < width; x++) {
      const i = y * (1 + width * 4) + 1 + x * 4;
      const sky = y < height * 0.6;
      const sun = (x - width / 2) ** 2 + (y - height * 0.6) ** 2 < (height / 5) ** 2;
      const t = y / height;
      const [r, g, b] = sun ? [255, 200, 60] : sky ? [255 - 80 * t, 120 + 60 * t, 90 + 120 * t] : [20, 60 + 40 * t, 120];
      raw.set([r, g, b, 255], i);
    }
  }
  const compressed = new Uint8Array(
    await new Response(new Blob([raw]).stream().pipeThrough(new CompressionStream("deflate"))).arrayBuffer(),
  );
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA, no interlace
  const png = [new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]), chunk("IHDR", header), chunk("IDAT", compressed), chunk("IEND", new Uint8Array())];
  const bytes = new Uint8Array(png.reduce((n, part) => n + part.length, 0));
  let offset = 0;
  for (const part of png) { bytes.set(part, offset); offset += part.length; }
  await mkdir("/workspace/art", { recursive: true });
  await writeFile("/workspace/art/sunset.png", bytes);
  return { path: "/art/sunset.png", bytes: bytes.length };
}
`;

export async function imageLink(cubicle: Cubicle) {
  const ws = await cubicle.workspaces.create({ name: "image-link" });
  const run = await ws.exec({ executor: "javascript", code: DRAW_PNG, input: { width: WIDTH, height: HEIGHT } });
  ensureCompleted("draw", run);
  const { path } = run.result as { path: string; bytes: number };
  const share = await ws.share({ path, ttlSeconds: 3600 });
  const response = await fetch(share.url);
  const png = new Uint8Array(await response.arrayBuffer());
  return { workspaceId: ws.id, url: share.url, contentType: response.headers.get("content-type"), png };
}

if (import.meta.main) {
  const { url, png, contentType } = await imageLink(await connect("image-link"));
  console.log(`sunset.png: ${png.length} bytes, ${contentType}`);
  console.log(`public link (1 hour): ${url}`);
}
