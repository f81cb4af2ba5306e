/**
 * A fork whose index row never landed (the gateway died between the import and the insert)
 * deletes itself once `forkListedWithinMs` has passed, letting go of its source; a listed
 * fork keeps everything, and is asked only once.
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { tenants, workspaces } from "../account/schema.ts";
import { database, nowIso } from "../db.ts";
import { workspaceLimits } from "./limits.ts";
import { ownerOf } from "./names.ts";
import { listingCheckAt } from "./unlistedFork.ts";
import { objectName, stubOf, treeOf } from "./vfs/test/forks.ts";
import { bytes, ok } from "./vfs/test/withVfs.ts";
import type { WorkspaceDO } from "./WorkspaceDO.ts";

async function forkOf(source: string): Promise<string> {
  await runInDurableObject(stubOf(source), async (instance: WorkspaceDO) => {
    for (let i = 0; i < 8; i++) ok(await instance.vfs.write(`/d/f${i}`, bytes(`content ${i}`)));
  });
  const fork = objectName(ownerOf(source).tenantId);
  ok(await stubOf(fork).forkFrom(source, "live"));
  return fork;
}

/** As if `forkListedWithinMs` had passed since the fork was made. */
const ageFork = (fork: string) =>
  runInDurableObject(stubOf(fork), (instance: WorkspaceDO) => {
    instance.vfs.store.sql.exec(
      "UPDATE meta SET value = value - ? WHERE key = 'fork_unlisted_since_ms'",
      workspaceLimits.forkListedWithinMs + 1,
    );
  });

const pinsOf = (source: string) => runInDurableObject(stubOf(source), (i: WorkspaceDO) => i.vfs.forkPins());

describe("a fork the index never listed", () => {
  it("deletes itself once its time to be listed has passed, and lets go of its source", async () => {
    const source = objectName();
    const fork = await forkOf(source);
    // Before its time, the alarm leaves it alone.
    await runDurableObjectAlarm(stubOf(fork));
    expect(Object.keys(await treeOf(fork))).toContain("/d/f0");
    await ageFork(fork);
    await runDurableObjectAlarm(stubOf(fork));
    // Its storage is gone: no table is left (what a deleted workspace leaves).
    const tables = await runInDurableObject(stubOf(fork), (_i: WorkspaceDO, state) =>
      state.storage.sql
        .exec<{ name: string }>(
          "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\'",
        )
        .toArray(),
    );
    expect(tables).toEqual([]);
    expect(await pinsOf(source)).toEqual([]);
    expect(Object.keys(await treeOf(source))).toContain("/d/f7");
  });

  it("keeps a listed fork whole, and asks the index about it only once", async () => {
    const source = objectName(`tlisted${crypto.randomUUID().slice(0, 8)}`);
    const fork = await forkOf(source);
    const whole = await treeOf(source);
    const { tenantId, workspaceId } = ownerOf(fork);
    const db = database(env.DB);
    await db.insert(tenants).values({ id: tenantId, email: `${tenantId}@example.com`, createdAt: nowIso() });
    await db.insert(workspaces).values({ id: workspaceId, tenantId, createdAt: nowIso() });
    await ageFork(fork);
    await runDurableObjectAlarm(stubOf(fork));
    expect(await treeOf(fork)).toEqual(whole);
    expect(await runInDurableObject(stubOf(fork), (i: WorkspaceDO) => listingCheckAt(i.vfs.store.sql))).toBeNull();
  });
});
