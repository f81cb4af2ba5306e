import { describe, expect, it } from "vitest";
import { workspaceLimits } from "../limits.ts";
import { compactChanges, setCursor } from "./changes.ts";
import { bytes, ok, withVfs } from "./test/withVfs.ts";

describe("change log", () => {
  it("records each mutation's revision and paths, and nothing for failures", () =>
    withVfs(async (vfs) => {
      ok(await vfs.write("/a", bytes("a")));
      ok(await vfs.move("/a", "/b"));
      await vfs.remove("/missing");
      ok(await vfs.remove("/b"));
      const log = vfs.changesSince(0);
      expect(log.changes.map((c) => [c.rev, c.op, c.paths])).toEqual([
        [1, "write", ["/a"]],
        [2, "move", ["/a", "/b"]],
        [3, "remove", ["/b"]],
      ]);
      expect(vfs.changesSince(2).changes.map((c) => c.rev)).toEqual([3]);
      expect(log.revision).toBe(3);
    }));

  it("compacts behind the oldest cursor, or keeps the newest entries", () =>
    withVfs(async (vfs) => {
      for (let i = 0; i < 5; i++) ok(await vfs.write(`/f${i}`, bytes("x")));
      setCursor(vfs.store, "sync", 3);
      compactChanges(vfs.store);
      // 5 entries is far below changeLogEntriesKept, so nothing goes yet.
      expect(vfs.changesSince(0).oldestRev).toBe(1);
      expect(workspaceLimits.changeLogEntriesKept).toBeGreaterThan(5);
      vfs.store.sql.exec(
        "UPDATE meta SET value = value + ? WHERE key = 'revision'",
        workspaceLimits.changeLogEntriesKept,
      );
      vfs.store.forget();
      compactChanges(vfs.store);
      expect(vfs.changesSince(0).oldestRev).toBe(4);
    }));
});
