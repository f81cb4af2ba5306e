/**
 * A first pull large enough for the walk's thorough collection (sync/pull.ts,
 * `walkCollection`), with the daemon started as the supervisor starts it: its Node flags
 * (--expose-gc) and malloc settings, in the native mode. What the collection gives back is a
 * benchmark's to measure (issue 19's daemon memory row, docs/benchmarks.md;
 * bench/container/memoryProbe.ts), not a test's: this one holds the path itself to working,
 * and the collection to running after the first command's answer, not before it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type DaemonProcess,
  eventually,
  makeDirs,
  mountEnv,
  openSession,
  productionDaemon,
  run,
  type Session,
  startDaemon,
} from "./testing/harness.ts";
import { MemoryWorkspace } from "./testing/memoryWorkspace.ts";

const files = 5_000;
/** `/tree/a<0..35>/b<0..9>/f<n>.txt`, as the benchmark's tree. */
const treePath = (i: number) => `/tree/a${Math.floor(i / 1000)}/b${Math.floor(i / 100) % 10}/f${i}.txt`;

describe("a first pull of 5,000 files under the daemon's production flags (native mode)", () => {
  let dirs: Awaited<ReturnType<typeof makeDirs>>;
  let daemon: DaemonProcess;
  let session: Session;

  beforeAll(async () => {
    dirs = await makeDirs();
    // COMPUTERD_TRACE: the daemon's timestamps of the first command's steps (trace.ts).
    const env = { ...(await mountEnv("native")), ...productionDaemon.env, COMPUTERD_TRACE: "1" };
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

  it("places every file, and the daemon lives through the collection after the walk", async () => {
    const first = await run(session.computer, daemon.mount, "find /workspace/tree -type f | wc -l", {
      timeoutMs: 120_000,
    });
    expect(first.stdout.trim()).toBe(String(files));
    expect(daemon.proc.exitCode).toBeNull();
    // The collection that ends the walk is not on the first command's path: it runs once the
    // command was answered.
    const steps = await eventually(() => {
      const lines = daemon.stderr().match(/^trace \S+ (exec answered|walk collected)$/gm);
      return lines?.length === 2 && lines.map((line) => line.split(" ").slice(2).join(" "));
    });
    expect(steps).toEqual(["exec answered", "walk collected"]);
    const again = await run(session.computer, daemon.mount, "cat /workspace/tree/a4/b9/f4999.txt");
    expect(again.stdout).toBe("file 4999\n");
  }, 180_000);
});
