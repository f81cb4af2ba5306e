/**
 * The schema migration runner, in a real Durable Object's SQLite (a tenant object's, under
 * table names of the test's own, so the object's ledger is left alone).
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { migrateSchema, type SqlSchema } from "./sqlMigrations.ts";

const columns = (sql: SqlStorage, table: string) =>
  sql
    .exec<{ name: string }>(`PRAGMA table_info(${table})`)
    .toArray()
    .map((row) => row.name);

/** Runs `test` against a fresh object's storage, with a schema whose tables are the test's own. */
async function withDatabase(
  test: (storage: DurableObjectStorage, schema: (steps: string[][]) => SqlSchema) => void,
): Promise<void> {
  const stub = env.TENANT.getByName(`ten_migrations_${crypto.randomUUID()}`);
  await runInDurableObject(stub, (_object, state) =>
    test(state.storage, (steps) => ({ versionKey: "test_schema_version", steps })),
  );
}

const steps = [
  ["CREATE TABLE notes (id TEXT PRIMARY KEY)"],
  ["ALTER TABLE notes ADD COLUMN body TEXT", "CREATE INDEX notes_body ON notes (body)"],
  ["ALTER TABLE notes ADD COLUMN tags TEXT"],
];

describe("schema migrations", () => {
  it("bring a new database to the last step, and do nothing the second time", async () => {
    await withDatabase((storage, schema) => {
      expect(migrateSchema(storage, schema(steps))).toBe(3);
      expect(migrateSchema(storage, schema(steps))).toBe(3);
      expect(columns(storage.sql, "notes")).toEqual(["id", "body", "tags"]);
    });
  });

  it("upgrade a database an older build migrated, running only the steps it lacks", async () => {
    await withDatabase((storage, schema) => {
      migrateSchema(storage, schema(steps.slice(0, 1)));
      storage.sql.exec("INSERT INTO notes (id) VALUES ('kept')");
      expect(migrateSchema(storage, schema(steps))).toBe(3);
      expect(columns(storage.sql, "notes")).toEqual(["id", "body", "tags"]);
      expect(storage.sql.exec("SELECT id FROM notes").toArray()).toEqual([{ id: "kept" }]);
    });
  });

  it("take the version of a database made before its meta row from its tables", async () => {
    await withDatabase((storage, schema) => {
      for (const statement of steps.slice(0, 2).flat()) storage.sql.exec(statement);
      const versionBeforeMeta = (sql: SqlStorage) => (columns(sql, "notes").includes("body") ? 2 : 0);
      expect(migrateSchema(storage, { ...schema(steps), versionBeforeMeta })).toBe(3);
      expect(columns(storage.sql, "notes")).toEqual(["id", "body", "tags"]);
    });
  });

  it("name the failing step with SQLite's own error, and apply none of the run's steps", async () => {
    await withDatabase((storage, schema) => {
      migrateSchema(storage, schema(steps.slice(0, 1)));
      const broken = [...steps.slice(0, 1), ["ALTER TABLE notes ADD COLUMN body TEXT"], ["ALTER TABLE nowhere ADD x"]];
      expect(() => migrateSchema(storage, schema(broken))).toThrow(
        /test_schema_version step 3: .*no such table: nowhere/,
      );
      expect(columns(storage.sql, "notes")).toEqual(["id"]);
      expect(migrateSchema(storage, schema(steps))).toBe(3);
    });
  });

  it("refuse a database a newer build migrated further than this build knows", async () => {
    await withDatabase((storage, schema) => {
      migrateSchema(storage, schema(steps));
      expect(() => migrateSchema(storage, schema(steps.slice(0, 2)))).toThrow(
        /test_schema_version is 3; this build knows 2/,
      );
    });
  });
});
