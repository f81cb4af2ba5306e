/**
 * Why sqlMigrations.ts is hand-written (docs/migrations.md): what drizzle's durable-sqlite
 * migrator (drizzle-orm 0.45) does in workerd with the cases our objects meet. Each test
 * states a behaviour that rules it out; when an upgrade of drizzle-orm makes one fail, the
 * reason is gone and the decision should be made again.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { drizzle } from "drizzle-orm/durable-sqlite";
import { migrate } from "drizzle-orm/durable-sqlite/migrator";
import { describe, expect, it } from "vitest";

/** A drizzle-kit style migration set: entry i runs `steps[i]` if its `when` is newer than the last applied. */
function journal(steps: string[], whens: number[]) {
  return {
    journal: { entries: whens.map((when, idx) => ({ idx, when, tag: `step_${idx}`, breakpoints: true })) },
    migrations: Object.fromEntries(steps.map((step, idx) => [`m${String(idx).padStart(4, "0")}`, step])),
  };
}

const tables = (sql: SqlStorage) =>
  sql
    .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'drz\\_%' ESCAPE '\\'")
    .toArray()
    .map((row) => row.name)
    .sort();

async function inObject(test: (storage: DurableObjectStorage) => Promise<void>): Promise<void> {
  await runInDurableObject(env.TENANT.getByName(`ten_drizzle_${crypto.randomUUID()}`), (_o, state) =>
    test(state.storage),
  );
}

describe("drizzle's durable-sqlite migrator", () => {
  it("works on a new database", async () => {
    await inObject(async (storage) => {
      await migrate(drizzle(storage), journal(["CREATE TABLE drz_a (id TEXT)"], [1]));
      expect(tables(storage.sql)).toEqual(["drz_a"]);
    });
  });

  it("fails on a database whose tables an earlier migrator made, and hides SQLite's reason", async () => {
    await inObject(async (storage) => {
      storage.sql.exec("CREATE TABLE drz_a (id TEXT)");
      storage.sql.exec("ALTER TABLE drz_a ADD COLUMN body TEXT");
      const steps = ["CREATE TABLE drz_a (id TEXT)", "ALTER TABLE drz_a ADD COLUMN body TEXT"];
      const failure = await migrate(drizzle(storage), journal(steps, [1, 2])).catch((error: Error) => error);
      // SQLite said "table drz_a already exists"; the migrator rethrows only its own rollback.
      expect(String(failure)).toBe("DrizzleError: Rollback");
      expect((failure as Error).cause).toBeUndefined();
    });
  });

  it("keeps one history per database: a second schema's steps are skipped", async () => {
    await inObject(async (storage) => {
      const db = drizzle(storage);
      await migrate(db, journal(["CREATE TABLE drz_vfs (id TEXT)"], [200]));
      await migrate(db, journal(["CREATE TABLE drz_execs (id TEXT)"], [100]));
      expect(tables(storage.sql)).toEqual(["drz_vfs"]);
    });
  });

  it("skips, silently, a step whose timestamp is older than the newest applied", async () => {
    await inObject(async (storage) => {
      const db = drizzle(storage);
      await migrate(db, journal(["CREATE TABLE drz_a (id TEXT)", "CREATE TABLE drz_c (id TEXT)"], [1, 3]));
      // A step from a branch merged later, generated before the other branch's last one.
      const merged = ["CREATE TABLE drz_a (id TEXT)", "CREATE TABLE drz_c (id TEXT)", "CREATE TABLE drz_b (id TEXT)"];
      await migrate(db, journal(merged, [1, 3, 2]));
      expect(tables(storage.sql)).toEqual(["drz_a", "drz_c"]);
    });
  });
});
