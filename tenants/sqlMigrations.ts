/**
 * Forward-only schema migrations for a Durable Object's own SQLite database: each schema
 * (the tenant ledger; the workspace's exec records and its filesystem) is a list of
 * steps, and a row in the database's `meta` table says how many it has applied. An object
 * runs this once when it starts; the steps it lacks run in order, in one transaction, so a
 * step that fails leaves the database as it found it.
 *
 * Hand-written rather than drizzle's durable-sqlite migrator, which docs/migrations.md
 * measured: it keeps one `__drizzle_migrations` table per database (two schemas in one
 * object skip each other's steps), silently skips a step whose timestamp is older than the
 * newest applied, loses the SQLite error of a failing step (it rethrows "Rollback"), and
 * needs a hand-written bridge for every object made before it.
 */

export type SqlStatement = string | ((sql: SqlStorage) => void);

export interface SqlSchema {
  /** The `meta` row holding how many steps this database has applied. */
  versionKey: string;
  /**
   * Step n (from 0) takes the schema from version n to n + 1: SQL statements, or a function
   * for one that needs values (a first row stamped with the time). A step that has shipped
   * is never edited or reordered: objects that ran it keep its result forever; change it
   * with a new step.
   */
  steps: readonly (readonly SqlStatement[])[];
  /** The version of a database made before its `meta` row existed, read from its tables. */
  versionBeforeMeta?: (sql: SqlStorage) => number;
}

/** Brings the object's database up to the last step of `schema`; answers the version it reached. */
export function migrateSchema(
  storage: Pick<DurableObjectStorage, "sql" | "transactionSync">,
  schema: SqlSchema,
): number {
  return storage.transactionSync(() => migrate(storage.sql, schema));
}

function migrate(sql: SqlStorage, schema: SqlSchema): number {
  const { versionKey, steps } = schema;
  sql.exec("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL)");
  const row = sql.exec<{ value: number }>("SELECT value FROM meta WHERE key = ?", versionKey).toArray()[0];
  const from = row?.value ?? schema.versionBeforeMeta?.(sql) ?? 0;
  // An older build on a database a newer one migrated would read columns it does not know.
  if (from > steps.length) throw new Error(`${versionKey} is ${from}; this build knows ${steps.length} steps`);
  if (row !== undefined && from === steps.length) return from;
  for (let version = from; version < steps.length; version++) {
    for (const statement of steps[version] ?? []) {
      try {
        if (typeof statement === "string") sql.exec(statement);
        else statement(sql);
      } catch (error) {
        throw new Error(`${versionKey} step ${version + 1}: ${(error as Error).message}`, { cause: error });
      }
    }
  }
  sql.exec(
    "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
    versionKey,
    steps.length,
  );
  return steps.length;
}
