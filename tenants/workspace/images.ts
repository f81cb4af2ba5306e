/**
 * Text-to-image through Workers AI, for `ws:ai` (WorkspaceToolsTarget.generateImage). A
 * deployment with the `[ai]` binding (wrangler.toml) draws with `defaultImageModel`, or with
 * the model its `AI_IMAGE_MODEL` var names; an empty var turns images off. Local `npm start`
 * runs wrangler with remote bindings off and the var empty, so there is no model and runs
 * get ENOTSUP (see docs/executors.md, "Images from Workers AI").
 *
 * This module is the seam: everything above it is the same whether the model is the real
 * binding or the tests' stand-in, which answers `run(model, inputs)` like it.
 */
import type { FsError } from "../../executors/contract.ts";

export interface ImageModel {
  /** The `@cf/…` name, reported with each image. */
  readonly name: string;
  /** PNG bytes and their size, or why not. The request is already validated. */
  generate(inputs: ModelInputs): Promise<{ ok: true; png: Uint8Array; width: number; height: number } | FsError>;
}

/** The model's own input names (snake case, as Workers AI takes them). */
export interface ModelInputs {
  prompt: string;
  negative_prompt?: string;
  width?: number;
  height?: number;
  num_steps?: number;
  seed?: number;
}

/** What the binding must offer: `Ai.run`, whose answer for image models is a stream, bytes or `{ image: base64 }`. */
export interface AiRunner {
  run(model: string, inputs: ModelInputs): Promise<unknown>;
}

export const imageLimits = {
  promptCharsMax: 2048,
  sideMin: 256,
  sideMax: 2048,
  stepsMax: 20,
  /** A 2,048² PNG is about 8 MiB; anything much larger is not a picture we asked for. */
  bytesMax: 16 * 1024 * 1024,
} as const;

/** Fast (4 steps) and answers PNG bytes, as every SDXL model on Workers AI does. */
export const defaultImageModel = "@cf/bytedance/stable-diffusion-xl-lightning";

/** The deployment's image model, or null where there is none. */
export function imageModelFrom(env: { AI?: AiRunner; AI_IMAGE_MODEL?: string }): ImageModel | null {
  const name = (env.AI_IMAGE_MODEL ?? defaultImageModel).trim();
  if (!env.AI || !name) return null;
  const ai = env.AI;
  return {
    name,
    async generate(inputs) {
      let answer: unknown;
      try {
        answer = await ai.run(name, inputs);
      } catch (error) {
        return { ok: false, code: "EIO", message: `${name} failed: ${(error as Error).message}` };
      }
      const png = await bytesOf(answer);
      if (!png) return { ok: false, code: "EIO", message: `${name} answered no image` };
      if (png.length > imageLimits.bytesMax) {
        return {
          ok: false,
          code: "EIO",
          message: `${name} answered ${png.length} bytes, more than an image should be`,
        };
      }
      const size = pngSize(png);
      if (!size) return { ok: false, code: "EIO", message: `${name} answered something that is not a PNG` };
      return { ok: true, png, ...size };
    },
  };
}

const base64Bytes = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

/** The binding's answer as bytes: a ReadableStream (SDXL), bytes, or JSON with base64 `image` (FLUX). */
async function bytesOf(answer: unknown): Promise<Uint8Array | null> {
  if (answer instanceof ReadableStream) return new Uint8Array(await new Response(answer).arrayBuffer());
  if (answer instanceof Uint8Array) return answer;
  if (answer instanceof ArrayBuffer) return new Uint8Array(answer);
  const image = (answer as { image?: unknown } | null)?.image;
  if (typeof image === "string") {
    try {
      return base64Bytes(image);
    } catch {
      return null;
    }
  }
  return null;
}

const signature = [137, 80, 78, 71, 13, 10, 26, 10];

/** Width and height from a PNG's IHDR, or null when the bytes are not a PNG. */
export function pngSize(bytes: Uint8Array): { width: number; height: number } | null {
  if (bytes.length < 24 || signature.some((b, i) => bytes[i] !== b)) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (String.fromCharCode(...bytes.subarray(12, 16)) !== "IHDR") return null;
  return { width: view.getUint32(16), height: view.getUint32(20) };
}
