/**
 * Garbage collection and deduplication at scale: about 200 MiB written, overwritten and
 * deleted comes back to an empty chunk store, one bounded pass at a time; equal content
 * is stored once however many files (or copies) hold it.
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { workspaceLimits } from "../limits.ts";
import type { WorkspaceDO } from "../WorkspaceDO.ts";
import { ok, randomBytes } from "./test/values.ts";
import type { Vfs } from "./Vfs.ts";

const MIB = 1024 * 1024;
const FILE_BYTES = 4 * MIB;
const CHUNKS_PER_FILE = FILE_BYTES / workspaceLimits.chunkBytes;

/** Runs `maintain` until nothing remains; returns how many chunks each pass deleted. */
async function collectAll(vfs: Vfs): Promise<number[]> {
  const passes: number[] = [];
  for (;;) {
    const pass = await vfs.maintain();
    passes.push(pass.deleted);
    if (!pass.remaining) return passes;
    if (passes.length > 1_000) throw new Error("garbage collection does not converge");
  }
}

function workspace() {
  return env.WORKSPACE.getByName(`gc-${crypto.randomUUID()}`);
}

describe("garbage collection", () => {
  it("returns the chunk store to its floor after 100 MiB written, overwritten and deleted, a bounded pass at a time", async () => {
    await runInDurableObject(workspace(), async (instance: WorkspaceDO) => {
      const vfs = instance.vfs;
      const floor = vfs.stats();
      expect(floor).toMatchObject({ chunkCount: 0, chunkBytes: 0 });
      const files = 25;
      for (let generation = 0; generation < 2; generation++) {
        for (let i = 0; i < files; i++) ok(await vfs.write(`/data/f${i}`, randomBytes(FILE_BYTES)));
      }
      // The first generation is garbage now, the second is live.
      expect(vfs.stats()).toMatchObject({ sizeBytes: files * FILE_BYTES, chunkBytes: 2 * files * FILE_BYTES });
      for (let i = 0; i < files; i++) ok(await vfs.remove(`/data/f${i}`));
      expect(vfs.counters()).toEqual({ sizeBytes: 0, fileCount: 0 });
      expect(vfs.hasGarbage()).toBe(true);

      const passes = await collectAll(vfs);
      for (const deleted of passes) expect(deleted).toBeLessThanOrEqual(workspaceLimits.gcChunksPerAlarm);
      const garbage = 2 * files * CHUNKS_PER_FILE;
      expect(passes.reduce((sum, deleted) => sum + deleted, 0)).toBe(garbage);
      expect(passes.length).toBeGreaterThanOrEqual(Math.ceil(garbage / workspaceLimits.gcChunksPerAlarm));
      expect(vfs.hasGarbage()).toBe(false);
      expect(vfs.stats()).toMatchObject({ chunkCount: floor.chunkCount, chunkBytes: floor.chunkBytes });
    });
  }, 120_000);

  it("is driven to the end by the alarm a mutation arms", async () => {
    const stub = workspace();
    // More garbage chunks than one alarm reclaims, so the alarm has to re-arm itself.
    const files = workspaceLimits.gcChunksPerAlarm + 44;
    await runInDurableObject(stub, async (instance: WorkspaceDO) => {
      for (let i = 0; i < files; i++) ok(await instance.writeFile(`/many/f${i}`, randomBytes(64)));
      ok(await instance.remove("/many", { recursive: true }));
      expect(instance.vfs.stats().chunkCount).toBe(files);
    });
    // The remove armed the alarm; each run reclaims one bounded batch and re-arms while garbage remains.
    let alarms = 0;
    while (await runDurableObjectAlarm(stub)) if (++alarms > 100) throw new Error("the alarm never stops re-arming");
    expect(alarms).toBe(Math.ceil(files / workspaceLimits.gcChunksPerAlarm));
    await runInDurableObject(stub, (instance: WorkspaceDO) => {
      expect(instance.vfs.hasGarbage()).toBe(false);
      expect(instance.vfs.stats()).toMatchObject({ chunkCount: 0, chunkBytes: 0 });
    });
  }, 60_000);
});

describe("deduplication", () => {
  it("stores content once however many paths hold it, and a copy adds no chunks", async () => {
    await runInDurableObject(workspace(), async (instance: WorkspaceDO) => {
      const vfs = instance.vfs;
      const content = randomBytes(FILE_BYTES);
      for (let i = 0; i < 10; i++) ok(await vfs.write(`/same/f${i}`, content));
      const once = { chunkCount: CHUNKS_PER_FILE, chunkBytes: FILE_BYTES };
      expect(vfs.stats()).toMatchObject({ sizeBytes: 10 * FILE_BYTES, fileCount: 10, ...once });

      ok(await vfs.copy("/same/f0", "/copy"));
      ok(await vfs.copy("/same", "/same-too"));
      expect(vfs.stats()).toMatchObject({ sizeBytes: 21 * FILE_BYTES, fileCount: 21, ...once });
      expect(ok(await vfs.readBytes("/same-too/f9")).bytes).toEqual(content);

      // The content stays until its last user goes.
      ok(await vfs.remove("/same", { recursive: true }));
      ok(await vfs.remove("/same-too", { recursive: true }));
      await collectAll(vfs);
      expect(vfs.stats()).toMatchObject(once);
      ok(await vfs.remove("/copy"));
      await collectAll(vfs);
      expect(vfs.stats()).toMatchObject({ sizeBytes: 0, fileCount: 0, chunkCount: 0, chunkBytes: 0 });
    });
  }, 60_000);
});
