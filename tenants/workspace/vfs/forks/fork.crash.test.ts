/**
 * Crash tests for forks: an object is aborted (as an eviction ends it) in the middle of a
 * fork or of a source's hand-over on delete, and what is left must be no fork or a whole
 * one, never part of a tree, and never a fork whose chunks are gone.
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { WorkspaceDO } from "../../WorkspaceDO.ts";
import { forkHeld, importCalls, isImporting, objectName, stubOf, treeOf } from "../test/forks.ts";
import { bytes, ok } from "../test/withVfs.ts";

async function abortQuietly(state: DurableObjectState, reason: string): Promise<void> {
  try {
    state.abort(reason);
  } catch {
    // abort() throws in the caller too; the object is gone either way.
  }
}

async function fill(name: string): Promise<void> {
  await runInDurableObject(stubOf(name), async (instance: WorkspaceDO) => {
    for (let i = 0; i < 40; i++) ok(await instance.vfs.write(`/d${i % 4}/f${i}`, bytes(`content ${i}`)));
    ok(await instance.vfs.symlink("d0/f0", "/link"));
    ok(await instance.vfs.link("/d1/f1", "/hard"));
  });
}

describe("fork and eviction", () => {
  for (const moment of ["while the source's rows are on their way", "after the import committed"] as const) {
    it(`leaves no fork or a whole one when the fork goes ${moment}`, async () => {
      const source = objectName();
      const fork = objectName();
      await fill(source);
      const whole = await treeOf(source);
      const empty = await treeOf(objectName());
      await runInDurableObject(stubOf(fork), async (instance: WorkspaceDO, state) => {
        if (moment === "after the import committed") ok(await instance.forkFrom(source, "live"));
        else {
          const forking = instance.forkFrom(source, "live");
          await abortQuietly(state, "evicted mid-fork");
          await forking.catch(() => {});
        }
        await abortQuietly(state, "evicted after the fork");
      }).catch(() => {});
      const after = await treeOf(fork);
      expect([empty, whole]).toContainEqual(after);
      // Whichever it is, it is consistent: a whole fork reads every byte (through its source).
      if (JSON.stringify(after) === JSON.stringify(whole)) {
        expect(await stubOf(fork).adoptSource(source)).toBe(true);
      } else {
        // No fork: the source's pin, if it was taken, is the only trace, and it is let go.
        await stubOf(source).releaseFork(fork);
        expect(await runInDurableObject(stubOf(source), (i: WorkspaceDO) => i.vfs.forkPins())).toEqual([]);
      }
    });
  }

  it("resumes an import cut short between calls, and is never seen half-imported", async () => {
    const source = objectName();
    const fork = objectName();
    await fill(source);
    const whole = await treeOf(source);
    ok(await forkHeld(fork, source));
    await importCalls(fork, source, 20);
    await runInDurableObject(stubOf(fork), async (instance: WorkspaceDO, state) => {
      // The next call is on its way when the object goes.
      instance.forks.importCallBytesMax = 1;
      const importing = instance.forks.ready();
      await abortQuietly(state, "evicted between import calls");
      await importing.catch(() => {});
    }).catch(() => {});
    // The next instance answers from the source until the rows are all here, then from its own.
    expect(await isImporting(fork)).toBe(true);
    expect(await treeOf(fork)).toEqual(whole);
    await stubOf(fork).stats();
    expect(await isImporting(fork)).toBe(false);
    expect(await treeOf(fork)).toEqual(whole);
    expect(await stubOf(fork).counters()).toMatchObject(
      await runInDurableObject(stubOf(source), (i: WorkspaceDO) => ({ ...i.vfs.counters() })),
    );
  });

  it("keeps the fork whole when the source is evicted while handing its chunks over", async () => {
    const source = objectName();
    const fork = objectName();
    await fill(source);
    const whole = await treeOf(source);
    ok(await stubOf(fork).forkFrom(source, "live"));
    await runInDurableObject(stubOf(source), async (instance: WorkspaceDO, state) => {
      const deleting = instance.destroy();
      await abortQuietly(state, "evicted mid-hand-over");
      await deleting.catch(() => {});
    }).catch(() => {});
    // The source's storage stayed (the fork still needed it): reads go through, or are local.
    expect(await treeOf(fork)).toEqual(whole);
    // The source's alarm (if its deletion mark was committed before the eviction) finishes
    // the deletion once the fork has everything; either way the fork ends up on its own.
    await runDurableObjectAlarm(stubOf(source));
    expect(await stubOf(fork).adoptSource(source)).toBe(true);
    expect(await runInDurableObject(stubOf(fork), (i: WorkspaceDO) => i.vfs.forkOrigin())).toBeNull();
    expect(await treeOf(fork)).toEqual(whole);
  });
});
