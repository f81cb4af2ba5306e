/**
 * The benchmark's scratch disk (COMPUTERD_BOX_SCRATCH, never set in production): the box
 * shows that host directory read-write at /mnt, and what a command writes there stays out
 * of the workspace.
 */
import { chmod, mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DaemonProcess, makeDirs, openSession, run, type Session, startDaemon } from "../testing/harness.ts";
import { MemoryWorkspace } from "../testing/memoryWorkspace.ts";

let dirs: Awaited<ReturnType<typeof makeDirs>>;
let daemon: DaemonProcess;
let session: Session;
let scratch: string;

beforeAll(async () => {
  dirs = await makeDirs();
  scratch = join(dirs.root, "scratch");
  await mkdir(scratch);
  // The box runs as an unprivileged host uid that the benchmark does not know in advance.
  await chmod(scratch, 0o1777);
  daemon = await startDaemon(dirs, { COMPUTERD_BOX_SCRATCH: scratch });
  session = await openSession(daemon.port, new MemoryWorkspace());
}, 30_000);

afterAll(async () => {
  session?.close();
  await daemon?.stop();
  await dirs?.cleanup();
});

describe("the box's scratch disk", () => {
  it("is the host directory, read-write at /mnt, and not part of the workspace", async () => {
    const r = await run(session.computer, daemon.mount, "echo measured > /mnt/note && cat /mnt/note && ls /workspace");
    expect(r.outcome.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe("measured\n");
    expect(await readFile(join(scratch, "note"), "utf8")).toBe("measured\n");
    expect(await session.twin.lstatMany(["/note"])).toEqual([null]);
  });
});
