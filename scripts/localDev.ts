/**
 * The `wrangler dev` flags every local run of the gateway shares (`npm start`, the
 * benchmarks): remote bindings off, so wrangler never asks for a Cloudflare login for the
 * Workers AI binding, and an empty AI_IMAGE_MODEL, so `ws:ai` answers ENOTSUP instead of
 * failing against a binding that cannot run here (see wrangler.toml, `[ai]`).
 */
export const localDevFlags = ["--local", "--var", "AI_IMAGE_MODEL:"];
