import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { WorkspaceDO } from "../WorkspaceDO.ts";
import { MIGRATIONS, migrate } from "./schema.ts";
import { bytes, ok } from "./test/withVfs.ts";

describe("schema migrations", () => {
  it("records the version, and re-running them on a live database changes nothing", async () => {
    const stub = env.WORKSPACE.getByName(`schema-${crypto.randomUUID()}`);
    await runInDurableObject(stub, async (instance: WorkspaceDO, state) => {
      ok(await instance.vfs.write("/f", bytes("kept")));
      const version = state.storage.sql
        .exec<{ value: number }>("SELECT value FROM meta WHERE key = 'schema_version'")
        .one();
      expect(version.value).toBe(MIGRATIONS.length);
      migrate(state.storage.sql, Date.now());
      expect(instance.vfs.counters()).toEqual({ sizeBytes: 4, fileCount: 1 });
    });
  });
});
