import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { migrateSchema } from "../../sqlMigrations.ts";
import type { WorkspaceDO } from "../WorkspaceDO.ts";
import { MIGRATIONS, vfsSchema } from "./schema.ts";
import { bytes, ok, readText } from "./test/withVfs.ts";
import { Vfs } from "./Vfs.ts";

/** Starts the object's database over as schema `version` left it, empty, to be filled through that version's tables. */
function startOver(storage: DurableObjectStorage, version: number): void {
  const sql = storage.sql;
  const tables = sql
    .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\'")
    .toArray();
  for (const { name } of tables) sql.exec(`DROP TABLE IF EXISTS "${name}"`);
  migrateSchema(storage, vfsSchema(1_000, MIGRATIONS.slice(0, version)));
}

describe("schema migrations", () => {
  it("records the version, and re-running them on a live database changes nothing", async () => {
    const stub = env.WORKSPACE.getByName(`schema-${crypto.randomUUID()}`);
    await runInDurableObject(stub, async (instance: WorkspaceDO, state) => {
      ok(await instance.vfs.write("/f", bytes("kept")));
      const version = state.storage.sql
        .exec<{ value: number }>("SELECT value FROM meta WHERE key = 'schema_version'")
        .one();
      expect(version.value).toBe(MIGRATIONS.length);
      migrateSchema(state.storage, vfsSchema(Date.now()));
      expect(instance.vfs.counters()).toEqual({ sizeBytes: 4, fileCount: 1 });
    });
  });

  it("refuses a database a newer build migrated further, leaving it untouched", async () => {
    const stub = env.WORKSPACE.getByName(`schema-newer-${crypto.randomUUID()}`);
    await runInDurableObject(stub, async (instance: WorkspaceDO, state) => {
      ok(await instance.vfs.write("/f", bytes("kept")));
      const sql = state.storage.sql;
      sql.exec("UPDATE meta SET value = ? WHERE key = 'schema_version'", MIGRATIONS.length + 1);
      expect(
        () =>
          new Vfs(
            sql,
            (fn) => state.storage.transactionSync(fn),
            () => 9_000,
          ),
      ).toThrow(`schema_version is ${MIGRATIONS.length + 1}; this build knows ${MIGRATIONS.length} steps`);
      expect(await readText(instance.vfs, "/f")).toBe("kept");
    });
  });

  it("brings a version 2 database with data to hard links and POSIX metadata, keeping everything", async () => {
    const stub = env.WORKSPACE.getByName(`schema-v2-${crypto.randomUUID()}`);
    await runInDurableObject(stub, async (_instance: WorkspaceDO, state) => {
      const sql = state.storage.sql;
      startOver(state.storage, 2);
      sql.exec(
        "INSERT INTO inodes (ino, type, mode, size, mtime_ms, ctime_ms, etag, entries) VALUES (2, 'dir', 493, 0, 2000, 2000, NULL, 2)",
      );
      sql.exec(
        "INSERT INTO inodes (ino, type, mode, size, mtime_ms, ctime_ms, etag) VALUES (3, 'file', 420, 5, 3000, 3000, '\"e\"')",
      );
      sql.exec(
        "INSERT INTO inodes (ino, type, mode, size, mtime_ms, ctime_ms, target) VALUES (4, 'symlink', 511, 1, 4000, 4000, 'f')",
      );
      sql.exec(
        "INSERT INTO inodes (ino, type, mode, size, mtime_ms, ctime_ms, entries) VALUES (5, 'dir', 448, 0, 5000, 5000, 0)",
      );
      sql.exec("INSERT INTO dirents (parent, name, ino) VALUES (1, 'd', 2), (2, 'f', 3), (2, 'l', 4), (1, 'e', 5)");
      sql.exec("UPDATE inodes SET entries = 2 WHERE ino = 1");
      sql.exec("INSERT INTO blobs (hash, size, refs, data) VALUES ('h', 5, 1, ?)", bytes("hello"));
      sql.exec("INSERT INTO file_chunks (ino, idx, hash, size) VALUES (3, 0, 'h', 5)");
      sql.exec(
        "UPDATE meta SET value = CASE key WHEN 'size_bytes' THEN 5 WHEN 'file_count' THEN 1 WHEN 'inode_count' THEN 4 ELSE value END",
      );

      const vfs = new Vfs(
        sql,
        (fn) => state.storage.transactionSync(fn),
        () => 9_000,
      );
      expect(sql.exec<{ value: number }>("SELECT value FROM meta WHERE key = 'schema_version'").one().value).toBe(
        MIGRATIONS.length,
      );
      expect(await readText(vfs, "/d/f")).toBe("hello");
      expect(ok(vfs.stat("/d/f")).stat).toMatchObject({
        size: 5,
        mode: 0o644,
        nlink: 1,
        uid: 1000,
        gid: 1000,
        mtimeNs: "3000000000",
        ino: 3,
      });
      expect(ok(vfs.lstat("/d/l")).stat).toMatchObject({ type: "symlink", target: "f", nlink: 1 });
      expect(ok(vfs.stat("/")).stat).toMatchObject({ nlink: 4, uid: 1000 });
      expect(ok(vfs.stat("/d")).stat).toMatchObject({ nlink: 2, mode: 0o755 });
      expect(ok(vfs.stat("/e")).stat).toMatchObject({ nlink: 2, mode: 0o700 });
      expect(vfs.counters()).toEqual({ sizeBytes: 5, fileCount: 1 });
      // The rebuilt table takes a second name for the same inode, which UNIQUE refused before.
      ok(await vfs.link("/d/f", "/e/g"));
      expect(ok(vfs.stat("/e/g")).stat).toMatchObject({ nlink: 2, ino: 3 });
      expect(vfs.counters()).toEqual({ sizeBytes: 5, fileCount: 1 });
    });
  });

  it("brings a version 3 database to versions, keeping every row, and pins it from the first snapshot", async () => {
    const stub = env.WORKSPACE.getByName(`schema-v3-${crypto.randomUUID()}`);
    await runInDurableObject(stub, async (_instance: WorkspaceDO, state) => {
      const sql = state.storage.sql;
      startOver(state.storage, 3);
      sql.exec(
        "INSERT INTO inodes (ino, type, mode, size, mtime_ms, ctime_ms, entries, nlink) VALUES (2, 'dir', 493, 0, 2000, 2000, 1, 2)",
      );
      sql.exec(
        "INSERT INTO inodes (ino, type, mode, size, mtime_ms, ctime_ms, etag, nlink, uid) VALUES (3, 'file', 420, 5, 3000, 3000, '\"e\"', 2, 0)",
      );
      sql.exec("INSERT INTO dirents (parent, name, ino) VALUES (1, 'd', 2), (2, 'f', 3), (1, 'hard', 3)");
      sql.exec("UPDATE inodes SET entries = 2, nlink = 3 WHERE ino = 1");
      sql.exec("INSERT INTO blobs (hash, size, refs, data) VALUES ('h', 5, 1, ?)", bytes("hello"));
      sql.exec("INSERT INTO file_chunks (ino, idx, hash, size) VALUES (3, 0, 'h', 5)");
      sql.exec("INSERT INTO changes (rev, at_ms, op, paths) VALUES (7, 3000, 'write', '[\"/d/f\"]')");
      sql.exec(
        "UPDATE meta SET value = CASE key WHEN 'size_bytes' THEN 5 WHEN 'file_count' THEN 1 WHEN 'inode_count' THEN 3 WHEN 'revision' THEN 7 ELSE value END",
      );
      const count = (table: string) => sql.exec<{ n: number }>(`SELECT count(*) AS n FROM ${table}`).one().n;
      const before = { inodes: count("inodes"), dirents: count("dirents"), chunks: count("file_chunks") };

      const vfs = new Vfs(
        sql,
        (fn) => state.storage.transactionSync(fn),
        () => 9_000,
      );
      expect({ inodes: count("inodes"), dirents: count("dirents"), chunks: count("file_chunks") }).toEqual(before);
      expect(sql.exec<{ n: number }>("SELECT count(*) AS n FROM inodes WHERE born_rev != 0").one().n).toBe(0);
      expect(ok(vfs.stat("/hard")).stat).toMatchObject({ ino: 3, nlink: 2, uid: 0, size: 5 });
      expect(vfs.changesSince(0).changes).toMatchObject([{ rev: 7, op: "write", paths: ["/d/f"] }]);
      const snap = await vfs.snapshot();
      expect(snap.revision).toBe(7);
      ok(await vfs.write("/d/f", bytes("changed")));
      ok(await vfs.remove("/hard"));
      expect(await readText(vfs, "/d/f")).toBe("changed");
      const old = ok(vfs.readAt(snap.id, "/hard"));
      expect(new TextDecoder().decode(await new Response(old.body).arrayBuffer())).toBe("hello");
      // The new inode numbers start past the history's, so none is ever reused.
      ok(await vfs.write("/new", bytes("n")));
      expect(ok(vfs.stat("/new")).stat.ino).toBeGreaterThan(3);
    });
  });

  it("brings a version 5 database to names and runs: old snapshots and restores keep reading, new ones name more", async () => {
    const stub = env.WORKSPACE.getByName(`schema-v5-${crypto.randomUUID()}`);
    await runInDurableObject(stub, async (_instance: WorkspaceDO, state) => {
      const sql = state.storage.sql;
      startOver(state.storage, 5);
      sql.exec(
        `INSERT INTO snapshots (id, rev, name, description, created_ms, size_bytes, file_count, actor)
         VALUES ('snap_old', 0, NULL, 'before ex_old', 1000, 0, 0, 'key:key_1')`,
      );
      sql.exec("INSERT INTO changes (rev, at_ms, op, paths, actor) VALUES (1, 2000, 'restore', '[]', 'key:key_1')");
      sql.exec("UPDATE meta SET value = 1 WHERE key = 'revision'");

      const vfs = new Vfs(
        sql,
        (fn) => state.storage.transactionSync(fn),
        () => 9_000,
      );
      expect(vfs.getSnapshot("snap_old")).toMatchObject({ id: "snap_old", execId: null, actor: "key:key_1" });
      expect(vfs.changesSince(0).changes).toEqual([
        { rev: 1, at: new Date(2000).toISOString(), op: "restore", paths: [], actor: "key:key_1" },
      ]);
      ok(await vfs.write("/f", bytes("x")));
      expect(ok(await vfs.restore("snap_old"))).toMatchObject({ changedPaths: 1 });
      expect(vfs.changesSince(2).changes).toMatchObject([{ op: "restore", restoredTo: "snap_old" }]);
      expect((await vfs.snapshot({ execId: "ex_new" })).execId).toBe("ex_new");
    });
  });
});
