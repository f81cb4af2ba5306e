/**
 * The image demo's picture, shared by the example (main.ts) and the test that runs it
 * against a stand-in for Workers AI (executors/javascript/javascript.ai.test.ts).
 */
export const WIDTH = 512;
export const HEIGHT = 320;
export const PROMPT = "a sunset over a calm sea, the sun half under the horizon, warm sky";

/**
 * The module the agent runs. It asks the deployment's image model (`ws:ai`, Workers AI) for
 * the picture; where there is none (ENOTSUP: local `npm start`) or the plan's images are
 * used up (EDQUOT), it draws one itself: RGBA pixels of a sunset (sky gradient, sun, sea),
 * encoded as a PNG by hand (signature, IHDR, one zlib IDAT from CompressionStream, IEND,
 * CRC-32s). Either way the PNG lands at /workspace/art/sunset.png.
 */
export const DRAW_PNG = `
import { mkdir, writeFile } from "node:fs/promises";
import { generateImage } from "ws:ai";

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

async function drawLocally(width, height) {
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
  return bytes;
}

export default async function draw({ prompt, width, height }) {
  let bytes, source, fallback = null;
  try {
    const image = await generateImage({ prompt, width, height });
    bytes = image.bytes;
    source = image.model;
  } catch (error) {
    if (error.code !== "ENOTSUP" && error.code !== "EDQUOT") throw error;
    bytes = await drawLocally(width, height);
    source = "local";
    fallback = error.message;
  }
  await mkdir("/workspace/art", { recursive: true });
  await writeFile("/workspace/art/sunset.png", bytes);
  return { path: "/art/sunset.png", bytes: bytes.length, source, fallback };
}
`;
