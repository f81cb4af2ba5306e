/**
 * The plan's history window holds for every writer of a workspace, not only the API: a
 * run's file calls and a container's pushes keep the version they replace from the very
 * first change an object instance records, and what they leave is pruned by the alarm.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { signup } from "../../test/client.ts";
import { WorkspaceFsTarget } from "./execs/WorkspaceFsTarget.ts";
import { WorkspaceSyncTarget } from "./execs/WorkspaceSyncTarget.ts";
import { bytes, ok } from "./vfs/test/withVfs.ts";
import { Vfs } from "./vfs/Vfs.ts";
import type { WorkspaceDO } from "./WorkspaceDO.ts";

/** A workspace object of a real tenant (free plan: one hour of history), fresh. */
async function tenantWorkspace() {
  const { tenantId } = await signup();
  return env.WORKSPACE.getByName(`${tenantId}:ws_${crypto.randomUUID().replaceAll("-", "")}`);
}

async function textAt(vfs: Vfs, ref: string, path: string): Promise<string> {
  const read = ok(vfs.readAt(ref, path));
  return new TextDecoder().decode(await new Response(read.body).arrayBuffer());
}

describe("the history window before the first change", () => {
  it("keeps what a run's first writes replace", async () => {
    const stub = await tenantWorkspace();
    await runInDurableObject(stub, async (instance: WorkspaceDO) => {
      for (const [run, text] of [
        ["ex_1", "one"],
        ["ex_2", "two"],
      ] as const) {
        const fs = new WorkspaceFsTarget(instance.vfs, { actor: `exec:${run}` });
        expect(await fs.writeFile("/notes.md", bytes(text))).toEqual({ ok: true });
      }
      const { versions } = ok(instance.vfs.history("/notes.md"));
      expect(versions.map((v) => v.actor)).toEqual(["exec:ex_2", "exec:ex_1"]);
      expect(await textAt(instance.vfs, versions[1]?.readAt as string, "/notes.md")).toBe("one");
    });
  });

  it("keeps what a container's first pushes replace, naming who pushed", async () => {
    const stub = await tenantWorkspace();
    await runInDurableObject(stub, async (instance: WorkspaceDO) => {
      let actor = "exec:ex_box";
      const sync = new WorkspaceSyncTarget(instance.vfs, () => actor);
      await sync.apply([{ op: "write", path: "/out.txt", bytes: bytes("from the run"), mode: 0o644 }]);
      actor = "container";
      await sync.apply([{ op: "write", path: "/out.txt", bytes: bytes("from a process left running"), mode: 0o644 }]);
      const { versions } = ok(instance.vfs.history("/out.txt"));
      expect(versions.map((v) => v.actor)).toEqual(["container", "exec:ex_box"]);
      expect(await textAt(instance.vfs, versions[1]?.readAt as string, "/out.txt")).toBe("from the run");
    });
  });

  it("has the alarm prune what runs alone left behind", async () => {
    const stub = await tenantWorkspace();
    await runInDurableObject(stub, async (instance: WorkspaceDO, state) => {
      const fs = new WorkspaceFsTarget(instance.vfs, { actor: "exec:ex_1" });
      await fs.writeFile("/f", bytes("one"));
      await new WorkspaceFsTarget(instance.vfs, { actor: "exec:ex_2" }).writeFile("/f", bytes("two"));
      let alarm: number | null = null;
      for (let tries = 0; alarm === null && tries < 50; tries++) {
        alarm = await state.storage.getAlarm();
        if (alarm === null) await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(alarm).not.toBeNull();
    });
  });
});

describe("the history window after a plan change", () => {
  it("asks the plan again before a change once its answer is older than the refresh", async () => {
    const stub = await tenantWorkspace();
    await runInDurableObject(stub, async (_instance: WorkspaceDO, state) => {
      let now = 1_000_000;
      const vfs = new Vfs(
        state.storage.sql,
        (fn) => state.storage.transactionSync(fn),
        () => now,
      );
      const asked: number[] = [];
      let planWindowMs = 3_600_000;
      vfs.keepHistoryFor(async () => {
        asked.push(now);
        return planWindowMs;
      }, 60_000);
      ok(await vfs.write("/f", bytes("one")));
      expect(vfs.historyWindowMs()).toBe(3_600_000);
      // The tenant upgrades; the object keeps what it was told for a minute, then asks.
      planWindowMs = 7 * 24 * 3_600_000;
      now += 30_000;
      ok(await vfs.write("/f", bytes("two")));
      expect(vfs.historyWindowMs()).toBe(3_600_000);
      now += 30_000;
      ok(await vfs.write("/f", bytes("three")));
      expect(vfs.historyWindowMs()).toBe(7 * 24 * 3_600_000);
      expect(asked).toEqual([1_000_000, 1_060_000]);
    });
  });
});
