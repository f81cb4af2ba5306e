/**
 * computerd's entry point (container/wire describes its environment, port and ready line).
 * It makes sure the FUSE library loads before importing anything that needs it.
 */
import { COMPUTERD_ENV } from "../wire/index.ts";
import { ensureLibfuse } from "./fs/libfuse.ts";

// Every FUSE request that touches the replica and every push read goes through libuv's
// thread pool; its default of 4 threads serialises a busy mount. Set before its first use.
process.env.UV_THREADPOOL_SIZE ??= "16";

try {
  await ensureLibfuse(process.env[COMPUTERD_ENV.stateDir]);
  const { serve } = await import("./serve.ts");
  await serve();
} catch (err) {
  process.stderr.write(`computerd: fatal: ${(err as Error).stack ?? err}\n`);
  process.exit(1);
}
