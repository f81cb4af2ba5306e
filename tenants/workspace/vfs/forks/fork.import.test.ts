/**
 * A fork answers at once and its rows arrive in the background (import.ts, forks.ts): what
 * a user sees meanwhile, through the object's methods as the gateway calls them. Each test
 * holds the import (`forkHeld`) and lands some of it a call at a time (`importCalls`), so
 * "during the import" is a state the test is in, not a race it hopes to win.
 */
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { WorkspaceDO } from "../../WorkspaceDO.ts";
import { forkHeld, importCalls, isImporting, objectName, stubOf, treeOf } from "../test/forks.ts";
import { bytes, ok } from "../test/withVfs.ts";

async function fill(name: string): Promise<void> {
  await runInDurableObject(stubOf(name), async (instance: WorkspaceDO) => {
    for (let i = 0; i < 30; i++)
      ok(await instance.vfs.write(`/d${i % 3}/f${i}.txt`, bytes(`line ${i}\nneedle ${i}\n`)));
    ok(await instance.vfs.symlink("d0/f0.txt", "/link"));
    ok(await instance.vfs.link("/d1/f1.txt", "/hard"));
  });
}

const text = async (answer: { ok: boolean }) =>
  new Response((ok(answer as never) as { body: ReadableStream }).body).text();

describe("a fork while its rows arrive", () => {
  it("answers every read as it will after the import, at the version it was made from", async () => {
    const [source, fork] = [objectName(), objectName()];
    await fill(source);
    const whole = await treeOf(source);
    ok(await forkHeld(fork, source));
    // The source moves on; the fork stays at the revision it pinned.
    ok(await stubOf(source).writeFile("/d0/f0.txt", bytes("changed in the source")));
    ok(await stubOf(source).remove("/d2", { recursive: true }));
    await importCalls(fork, source, 12);
    expect(await isImporting(fork)).toBe(true);
    const stub = stubOf(fork);
    const reads = async () => ({
      tree: await treeOf(fork),
      stat: await stub.stat("/link"),
      lstat: await stub.lstat("/link"),
      readlink: await stub.readlink("/link"),
      range: await text(await stub.readFile("/d0/f0.txt", { offset: 2, length: 4 })),
      page: await stub.list("/d1", { limit: 4 }),
      found: await stub.find("/", { name: "f1*.txt" }),
      grepped: await stub.grep("needle 2[0-9]", "/d2"),
      missing: await stub.stat("/nope"),
      notDir: await stub.list("/hard"),
    });
    const during = await reads();
    expect(await isImporting(fork)).toBe(true);
    expect(during.tree).toEqual(whole);
    expect(during.range).toBe("ne 0");
    expect(ok(during.found).entries.map((e) => e.path)).toContain("/d1/f13.txt");
    expect(ok(during.grepped).matches).toHaveLength(4);
    expect(during.missing).toMatchObject({ ok: false, code: "ENOENT" });
    expect(during.notDir).toMatchObject({ ok: false, code: "ENOTDIR" });
    // What needs the fork's own rows (its change log here) waits for the import, then answers.
    expect((await stub.changesSince(0)).revision).toBe(1);
    expect(await isImporting(fork)).toBe(false);
    const after = await reads();
    expect(after).toEqual(during);
  });

  it("holds a write until the import is done, and the import never overwrites it", async () => {
    const [source, fork] = [objectName(), objectName()];
    await fill(source);
    const whole = await treeOf(source);
    ok(await forkHeld(fork, source));
    await importCalls(fork, source, 5);
    const stub = stubOf(fork);
    const [appended, created, removed] = await Promise.all([
      stub.writeFile("/d0/f0.txt", bytes("fork's own\n"), { mode: "append" }),
      stub.writeFile("/d9/new.txt", bytes("new in the fork")),
      stub.remove("/d2", { recursive: true }),
    ]);
    ok(appended);
    ok(created);
    ok(removed);
    expect(await isImporting(fork)).toBe(false);
    const tree = await treeOf(fork);
    expect(tree["/d0/f0.txt"]).toMatchObject({ content: "line 0\nneedle 0\nfork's own\n" });
    expect(await text(await stub.readFile("/link"))).toBe("line 0\nneedle 0\nfork's own\n");
    expect(tree["/d9/new.txt"]).toMatchObject({ content: "new in the fork" });
    expect(Object.keys(tree).filter((path) => path.startsWith("/d2"))).toEqual([]);
    expect(tree["/hard"]).toEqual(whole["/hard"]);
    // The source never sees the fork's changes.
    expect(await treeOf(source)).toEqual(whole);
  });

  it("stays whole when its source is deleted mid-import", async () => {
    const [source, fork] = [objectName(), objectName()];
    await fill(source);
    const whole = await treeOf(source);
    ok(await forkHeld(fork, source));
    await importCalls(fork, source, 7);
    await stubOf(source).destroy();
    expect(await isImporting(fork)).toBe(false);
    expect(await runInDurableObject(stubOf(fork), (instance: WorkspaceDO) => instance.vfs.forkOrigin())).toBeNull();
    expect(await treeOf(fork)).toEqual(whole);
  });

  it("deleted mid-import, stops importing, keeps nothing and lets go of its source", async () => {
    const [source, fork] = [objectName(), objectName()];
    await fill(source);
    ok(await forkHeld(fork, source));
    await importCalls(fork, source, 4);
    const tables = await runInDurableObject(stubOf(fork), async (instance: WorkspaceDO, state) => {
      instance.forks.importCallBytesMax = 1;
      const importing = instance.forks.ready();
      await instance.destroy();
      await importing.catch(() => {});
      return state.storage.sql.exec("SELECT name FROM sqlite_master WHERE type = 'table'").toArray();
    });
    expect(tables).toEqual([]);
    expect(await runInDurableObject(stubOf(source), (instance: WorkspaceDO) => instance.vfs.forkPins())).toEqual([]);
  });

  it("makes a caller confined to a prefix wait for the import, then reads its own tree", async () => {
    const [source, fork] = [objectName(), objectName()];
    await fill(source);
    ok(await forkHeld(fork, source));
    const listed = ok(await stubOf(fork).list("/d1", {}, "/d1"));
    expect(await isImporting(fork)).toBe(false);
    expect(listed.entries).toHaveLength(10);
    expect(await stubOf(fork).stat("/d0/f0.txt", "/d1")).toMatchObject({ ok: false, code: "EACCES" });
  });
});
