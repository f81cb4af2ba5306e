/**
 * The `wrangler dev` flags every local run of the gateway shares (`npm start`, the
 * benchmarks): remote bindings off, so wrangler never asks for a Cloudflare login for the
 * Workers AI binding, and an empty AI_IMAGE_MODEL, so `ws:ai` answers ENOTSUP instead of
 * failing against a binding that cannot run here (see wrangler.toml, `[ai]`).
 */
export const localDevFlags = ["--local", "--var", "AI_IMAGE_MODEL:"];

/**
 * The environment `wrangler dev` needs beside those flags.
 *
 * - Miniflare hands the V8 flags in MINIFLARE_WORKERD_V8_FLAGS to workerd;
 *   `--expose-statistics` gives every isolate V8's `getV8Statistics()`, with which a
 *   javascript run reads its own heap and stops itself at the platform's 128 MB limit
 *   (executors/javascript/guest/heapWatch.ts). Local workerd enforces no memory limit per
 *   isolate, and one isolate at V8's heap limit aborts the whole process.
 * - wrangler's local observability is off unless asked for (`X_LOCAL_OBSERVABILITY=true`).
 *   With `[observability]` on in wrangler.toml, wrangler dev attaches a trace collector to the
 *   Worker that receives every tail event (each request, RPC, storage call and log line) on
 *   workerd's one thread, where Cloudflare collects them outside the Worker. It doubled the
 *   CPU workerd spends on each request: per warm shell `echo hi`, 14.9–19.2 ms with it against
 *   7.3–8.9 ms without; per `GET /v1/account`, 7.4–9.8 against 4.5–5.3 ms (/proc's CPU time
 *   over 400 requests, two runs each). The Worker's logs still reach the terminal without it.
 */
export function localDevEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const v8Flags = [env.MINIFLARE_WORKERD_V8_FLAGS, "--expose-statistics"].filter(Boolean).join(" ");
  // Miniflare fetches a real `request.cf` object from workers.cloudflare.com at start, and
  // prints a getaddrinfo error when it cannot (offline, CI); its placeholder serves as well.
  return {
    MINIFLARE_WORKERD_V8_FLAGS: v8Flags,
    CLOUDFLARE_CF_FETCH_ENABLED: env.CLOUDFLARE_CF_FETCH_ENABLED ?? "false",
    X_LOCAL_OBSERVABILITY: env.X_LOCAL_OBSERVABILITY ?? "false",
  };
}
