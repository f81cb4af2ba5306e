/**
 * The ledger's schema: an object made by any earlier build upgrades to exactly the tables a
 * new object gets, keeping its rows.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { migrateSchema } from "../../sqlMigrations.ts";
import { LEDGER_STEPS, migrateLedger } from "./schema.ts";

/** Every table and index as SQLite stores it (ALTERs rewrite a table's CREATE text, so this sees columns too). */
const shape = (sql: SqlStorage) =>
  sql
    .exec("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE '\\_cf%' ESCAPE '\\' ORDER BY name")
    .toArray();

/** Empties the object's database, as it was before its first start. */
function wipe(sql: SqlStorage): void {
  const tables = sql
    .exec<{ name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_cf%' ESCAPE '\\'",
    )
    .toArray();
  for (const { name } of tables) sql.exec(`DROP TABLE ${name}`);
}

async function inObject(test: (storage: DurableObjectStorage) => void): Promise<void> {
  const stub = env.TENANT.getByName(`ten_schema_${crypto.randomUUID()}`);
  await runInDurableObject(stub, (_object, state) => test(state.storage));
}

describe("ledger schema", () => {
  it("upgrades an object of every earlier version to a new object's tables, keeping its events", async () => {
    let fresh: unknown[] = [];
    await inObject((storage) => {
      wipe(storage.sql);
      migrateLedger(storage);
      fresh = shape(storage.sql);
    });
    for (let version = 1; version < LEDGER_STEPS.length; version++) {
      await inObject((storage) => {
        wipe(storage.sql);
        migrateSchema(storage, { versionKey: "ledger_schema_version", steps: LEDGER_STEPS.slice(0, version) });
        storage.sql.exec("INSERT INTO usage_events (id, meter, quantity, at) VALUES ('ev_1', 'api_requests', 1, 'x')");
        migrateLedger(storage);
        expect(shape(storage.sql), `from version ${version}`).toEqual(fresh);
        expect(storage.sql.exec("SELECT id FROM usage_events").toArray()).toEqual([{ id: "ev_1" }]);
      });
    }
  });

  it("upgrades an object from before the version row, whose only table was the events", async () => {
    let fresh: unknown[] = [];
    await inObject((storage) => {
      wipe(storage.sql);
      migrateLedger(storage);
      fresh = shape(storage.sql);
    });
    await inObject((storage) => {
      wipe(storage.sql);
      for (const statement of LEDGER_STEPS[0] ?? []) if (typeof statement === "string") storage.sql.exec(statement);
      migrateLedger(storage);
      expect(shape(storage.sql)).toEqual(fresh);
    });
  });
});
