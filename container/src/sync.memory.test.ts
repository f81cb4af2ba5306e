/**
 * computerd's own memory after its first pull of a large workspace (issue 19: RssAnon with
 * 36,000 files ≤ 64 MiB, with the fanotify helper). The daemon runs as the supervisor starts
 * it (its Node flags and malloc settings), in the native mode, and walks a twin holding the
 * tree the benchmark writes through the API (bench/container/memory.ts).
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type DaemonProcess,
  makeDirs,
  mountEnv,
  openSession,
  productionDaemon,
  run,
  type Session,
  startDaemon,
} from "./testing/harness.ts";
import { MemoryWorkspace } from "./testing/memoryWorkspace.ts";

const files = 36_000;
/** `/tree/a<0..35>/b<0..9>/f<n>.txt`, as the benchmark's tree. */
const treePath = (i: number) => `/tree/a${Math.floor(i / 1000)}/b${Math.floor(i / 100) % 10}/f${i}.txt`;

const rssAnonMiB = (pid: number) =>
  Number(readFileSync(`/proc/${pid}/status`, "utf8").match(/^RssAnon:\s+(\d+) kB$/m)?.[1]) / 1024;

describe("computerd's memory after a first pull of 36,000 files (native mode)", () => {
  let dirs: Awaited<ReturnType<typeof makeDirs>>;
  let daemon: DaemonProcess;
  let session: Session;

  beforeAll(async () => {
    dirs = await makeDirs();
    const env = { ...(await mountEnv("native")), ...productionDaemon.env };
    daemon = await startDaemon(dirs, env, undefined, productionDaemon.nodeFlags);
    const twin = new MemoryWorkspace();
    for (let i = 0; i < files; i++) twin.writeFile(treePath(i), `file ${i}\n`);
    session = await openSession(daemon.port, twin);
  }, 30_000);
  afterAll(async () => {
    session?.close();
    await daemon?.stop();
    await dirs?.cleanup();
  });

  it("gives back what the walk's pages took: its RssAnon after the first command is well under 64 MiB", async () => {
    const first = await run(session.computer, daemon.mount, "find /workspace/tree -type f | wc -l", {
      timeoutMs: 120_000,
    });
    expect(first.stdout.trim()).toBe(String(files));
    // 60–67 MiB when the walk ended with a plain full collection, 30–31 with V8's thorough one.
    expect(rssAnonMiB(daemon.proc.pid ?? 0)).toBeLessThan(45);
  }, 180_000);
});
