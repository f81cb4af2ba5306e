/**
 * The exec tables' schema: a workspace object made by any earlier build upgrades to exactly
 * the tables a new object gets, keeping its runs.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { migrateSchema } from "../../sqlMigrations.ts";
import { EXEC_STEPS, ExecRecords, migrateExecs } from "./records.ts";

/** The exec tables and indexes as SQLite stores them (ALTERs rewrite a table's CREATE text, so this sees columns too). */
const shape = (sql: SqlStorage) =>
  sql.exec("SELECT type, name, sql FROM sqlite_master WHERE name LIKE 'exec%' ORDER BY name").toArray();

/** Drops the exec tables and their version, as before the object's first start. */
function wipe(sql: SqlStorage): void {
  sql.exec("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL)");
  sql.exec("DROP TABLE IF EXISTS exec_output");
  sql.exec("DROP TABLE IF EXISTS execs");
  sql.exec("DELETE FROM meta WHERE key = 'exec_schema_version'");
}

async function inObject(test: (storage: DurableObjectStorage) => void): Promise<void> {
  const stub = env.WORKSPACE.getByName(`exec-schema-${crypto.randomUUID()}`);
  await runInDurableObject(stub, (_object, state) => test(state.storage));
}

describe("exec records schema", () => {
  it("upgrades an object of every earlier version to a new object's tables, keeping its runs", async () => {
    let fresh: unknown[] = [];
    await inObject((storage) => {
      wipe(storage.sql);
      migrateExecs(storage);
      fresh = shape(storage.sql);
    });
    expect(fresh.length).toBeGreaterThan(0);
    for (let version = 1; version < EXEC_STEPS.length; version++) {
      await inObject((storage) => {
        wipe(storage.sql);
        migrateSchema(storage, { versionKey: "exec_schema_version", steps: EXEC_STEPS.slice(0, version) });
        storage.sql.exec(
          "INSERT INTO execs (id, executor, summary, status, exit_code, started_ms, ended_ms, output_max) VALUES ('ex_old', 'shell', 'echo old', 'completed', 0, 1, 2, 100)",
        );
        storage.sql.exec(
          "INSERT INTO exec_output (exec_id, seq, stream, data) VALUES ('ex_old', 1, 'stdout', x'6f6c640a')",
        );
        migrateExecs(storage);
        expect(shape(storage.sql), `from version ${version}`).toEqual(fresh);
        const records = new ExecRecords(storage.sql);
        expect(records.get("ex_old"), `from version ${version}`).toMatchObject({
          status: "completed",
          exitCode: 0,
          summary: "echo old",
          pathPrefix: null,
        });
        expect(new TextDecoder().decode(records.output("ex_old", 0)[0]?.data)).toBe("old\n");
      });
    }
  });
});
