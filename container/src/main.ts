/**
 * computerd's entry point (container/wire describes its environment, port and ready line).
 * Its FUSE addon (fs/fuse/) links libfuse 3 from the system, so nothing need be fixed
 * before it loads (fuse-native's prebuilt addon needed libfuse.so.2 found first).
 */
// Every FUSE request that touches the replica and every push read goes through libuv's
// thread pool; its default of 4 threads serialises a busy mount. Set before its first use.
process.env.UV_THREADPOOL_SIZE ??= "16";

try {
  // Imported only now, so the thread pool's size above is set before any module could use it.
  const { serve } = await import("./serve.ts");
  await serve();
} catch (err) {
  process.stderr.write(`computerd: fatal: ${(err as Error).stack ?? err}\n`);
  process.exit(1);
}

export {};
