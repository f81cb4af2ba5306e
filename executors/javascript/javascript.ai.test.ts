/**
 * `ws:ai` from module code, through the real API, workspace object, tenant ledger and
 * Dynamic Worker. Workers AI itself cannot run here (it needs a Cloudflare account), so the
 * workspace object gets a stand-in binding that answers `run(model, inputs)` as the SDXL
 * models do, with a PNG stream; everything above that call is the deployed code.
 */
import { describe, expect, it } from "vitest";
import { DRAW_PNG, HEIGHT, PROMPT, WIDTH } from "../../examples/image-link/draw.ts";
import { call, createWorkspace, json, signup } from "../../test/client.ts";
import { type AiRunner, drawsWith, fakeAi, FAKE_IMAGE_MODEL as MODEL, png, pngSize } from "../../test/fakeAi.ts";
import { imageQuota } from "../../test/fixtures.ts";
import { js } from "./testing.ts";

/** A fresh tenant and workspace whose object draws with `ai` (null: no model, as under `npm start`). */
async function workspaceWith(ai: AiRunner | null) {
  const tenant = await signup();
  const workspaceId = await createWorkspace(tenant.key);
  if (ai) await drawsWith(tenant.tenantId, workspaceId, ai);
  return { ...tenant, workspaceId };
}

async function aiImagesUsed(key: string): Promise<number> {
  const quotas = await json<{ meters: { meter: string; used: number }[] }>(await call("GET", "/v1/quotas", { key }));
  return quotas.meters.find((row) => row.meter === "ai_images")?.used ?? Number.NaN;
}

/** Module code that asks for `request` and reports the error code instead of throwing. */
const tryImage = (request: string) =>
  [
    'import { generateImage } from "ws:ai";',
    "export default async () => {",
    `  try { const image = await generateImage(${request}); return { ok: true, width: image.width, height: image.height, model: image.model, bytes: image.bytes.length }; }`,
    "  catch (error) { return { ok: false, code: error.code, message: error.message }; }",
    "};",
  ].join("\n");

describe("javascript: ws:ai", () => {
  it("draws an image with the deployment's model, writes it, and bills one ai_images unit", async () => {
    const { ai, calls } = fakeAi();
    const ws = await workspaceWith(ai);
    const code = [
      'import { generateImage } from "ws:ai";',
      'import { writeFile } from "node:fs/promises";',
      "export default async ({ prompt }) => {",
      "  const image = await generateImage({ prompt, width: 512, height: 320, steps: 4, seed: 7 });",
      "  await writeFile('lighthouse.png', image.bytes);",
      "  return { width: image.width, height: image.height, model: image.model, contentType: image.contentType };",
      "};",
    ].join("\n");
    const result = await js(code, { input: { prompt: "a lighthouse at dusk" } }, ws);
    expect(result.stderr).toBe("");
    expect(result.result).toEqual({ width: 512, height: 320, model: MODEL, contentType: "image/png" });
    expect(calls).toEqual([
      { model: MODEL, inputs: { prompt: "a lighthouse at dusk", width: 512, height: 320, num_steps: 4, seed: 7 } },
    ]);

    const file = await call("GET", `/v1/workspaces/${ws.workspaceId}/files/lighthouse.png`, { key: ws.key });
    expect(pngSize(new Uint8Array(await file.arrayBuffer()))).toEqual({ width: 512, height: 320 });
    expect(await aiImagesUsed(ws.key)).toBe(1);
  });

  it("answers ENOTSUP where the deployment has no image model, and bills nothing", async () => {
    const ws = await workspaceWith(null);
    const result = await js(tryImage("{ prompt: 'anything' }"), {}, ws);
    expect(result.result).toMatchObject({ ok: false, code: "ENOTSUP" });
    expect(await aiImagesUsed(ws.key)).toBe(0);
  });

  it("refuses a bad request before calling the model", async () => {
    const { ai, calls } = fakeAi();
    const ws = await workspaceWith(ai);
    for (const request of ["{ prompt: '' }", "{ prompt: 'x', width: 100 }", "{ prompt: 'x', steps: 99 }", "{}"]) {
      const result = await js(tryImage(request), {}, ws);
      expect(result.result, request).toMatchObject({ ok: false, code: "EINVAL" });
    }
    expect(calls).toEqual([]);
    expect(await aiImagesUsed(ws.key)).toBe(0);
  });

  it("answers EIO when the model fails or answers something that is not a PNG, and bills nothing", async () => {
    const failing = await workspaceWith(fakeAi(() => Promise.reject(new Error("capacity exceeded"))).ai);
    expect((await js(tryImage("{ prompt: 'x' }"), {}, failing)).result).toMatchObject({
      ok: false,
      code: "EIO",
      message: expect.stringContaining("capacity exceeded"),
    });
    const jpeg = await workspaceWith(
      fakeAi(async () => new Uint8Array([0xff, 0xd8, 0xff, 0xe0, ...new Array(40).fill(0)])).ai,
    );
    expect((await js(tryImage("{ prompt: 'x' }"), {}, jpeg)).result).toMatchObject({
      ok: false,
      code: "EIO",
      message: expect.stringContaining("not a PNG"),
    });
    expect(await aiImagesUsed(failing.key)).toBe(0);
    expect(await aiImagesUsed(jpeg.key)).toBe(0);
  });

  it("takes a FLUX-style answer (JSON with a base64 image) as well as a stream", async () => {
    const bytes = await png(256, 256);
    const ws = await workspaceWith(fakeAi(async () => ({ image: btoa(String.fromCharCode(...bytes)) })).ai);
    expect((await js(tryImage("{ prompt: 'x' }"), {}, ws)).result).toMatchObject({ ok: true, width: 256, height: 256 });
  });

  it("stops at the plan's image quota with EDQUOT", async () => {
    const { ai, calls } = fakeAi();
    const ws = await workspaceWith(ai);
    await imageQuota(ws.tenantId, 2);
    const codes: unknown[] = [];
    for (let i = 0; i < 3; i++) {
      const result = await js(tryImage("{ prompt: 'x', width: 256, height: 256 }"), {}, ws);
      codes.push((result.result as { ok: boolean; code?: string }).code ?? "ok");
    }
    expect(codes).toEqual(["ok", "ok", "EDQUOT"]);
    expect(calls).toHaveLength(2);
    expect(await aiImagesUsed(ws.key)).toBe(2);
  });

  it("runs the image demo's module: the model's picture where there is one, its own drawing where not", async () => {
    const input = { prompt: PROMPT, width: WIDTH, height: HEIGHT };
    const drawn = async (ws: Awaited<ReturnType<typeof workspaceWith>>) => {
      const result = await js(DRAW_PNG, { input }, ws);
      expect(result.stderr).toBe("");
      const file = await call("GET", `/v1/workspaces/${ws.workspaceId}/files/art/sunset.png`, { key: ws.key });
      expect(pngSize(new Uint8Array(await file.arrayBuffer()))).toEqual({ width: WIDTH, height: HEIGHT });
      return { ...(result.result as { source: string; fallback: string | null }), billed: await aiImagesUsed(ws.key) };
    };
    const { ai, calls } = fakeAi();
    expect(await drawn(await workspaceWith(ai))).toMatchObject({ source: MODEL, fallback: null, billed: 1 });
    expect(calls.map((c) => c.inputs)).toEqual([input]);
    expect(await drawn(await workspaceWith(null))).toMatchObject({
      source: "local",
      fallback: expect.stringContaining("ENOTSUP"),
      billed: 0,
    });
  });
});
