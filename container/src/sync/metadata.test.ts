/**
 * Owners, exact times and hard links between the replica and the (twin) workspace object,
 * through the real puller, pusher and hydrator on a real directory (no mount: these are
 * the sync parts alone, so each case reads the replica's inodes directly).
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { SyncOp, WorkspaceSyncApi } from "../../wire/index.ts";
import { StateDb } from "../state.ts";
import { MemoryWorkspace } from "../testing/memoryWorkspace.ts";
import { syncContextIn } from "../testing/syncContext.ts";
import type { SyncContext } from "./context.ts";
import { Hydrator } from "./hydrate.ts";
import { fuseIds } from "./metadata.ts";
import { Puller } from "./pull.ts";
import { Pusher } from "./push.ts";

let dir: string;
let twin: MemoryWorkspace;
let ctx: SyncContext;
let puller: Puller;
let pusher: Pusher;
let hydrator: Hydrator;
/** The computer's host id range starts here (sandbox/userns.ts); the FUSE mode's map over it. */
const ids = fuseIds(200_000);

beforeEach(async () => {
  twin = new MemoryWorkspace();
  ({ dir, ctx } = await syncContextIn("computerd-metadata-", twin as unknown as WorkspaceSyncApi, {
    native: false,
    ids,
  }));
  puller = new Puller(ctx);
  hydrator = new Hydrator(ctx);
  pusher = new Pusher(ctx, hydrator);
});

afterEach(() => {
  ctx.state.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const local = (path: string) => ctx.replica.local(path);
const stat = (path: string) => fs.lstatSync(local(path), { bigint: true });
/** A change on the box: marked dirty first, as the mount does, then made. */
const onBox = (path: string, change: () => void) => {
  ctx.dirty.touch(path);
  change();
};
const touchExactly = (path: string, at: string) =>
  expect(spawnSync("touch", ["-h", "-d", at, "--", local(path)]).status).toBe(0);
const pushedOps = (from: number): SyncOp[] => twin.applied.slice(from);

describe("pull", () => {
  it("gives the replica the object's owners (box ids mapped) and times, to the nanosecond where set so", async () => {
    twin.writeFile("/exact", "e");
    twin.setattr("/exact", { uid: 0, gid: 65534, mtimeMs: 1_700_000_000_123, mtimeNsec: 456_789 });
    twin.writeFile("/ms", "m");
    twin.setattr("/ms", { mtimeMs: 1_700_000_000_123 });
    twin.writeFile("/old", "o");
    twin.setattr("/old", { mtimeMs: -2, mtimeNsec: 999_999 });
    twin.mkdir("/d");
    twin.setattr("/d", { uid: 4242, gid: 1000 });
    await puller.request();
    expect(stat("/exact")).toMatchObject({
      uid: BigInt(ids.toReplica(0)),
      gid: BigInt(ids.toReplica(65534)),
      mtimeNs: 1_700_000_000_123_456_789n,
    });
    expect(ids.toReplica(0)).toBe(200_000);
    // The box's own user is the replica's root (the FUSE mount shows root's files as the box user's).
    expect(stat("/ms")).toMatchObject({ uid: 0n, gid: 0n });
    expect(stat("/ms").mtimeNs / 1000n).toBe(1_700_000_000_123_000n);
    expect(stat("/old").mtimeNs).toBe(-1_000_001n);
    expect(stat("/d")).toMatchObject({ uid: BigInt(ids.toReplica(4242)), gid: 0n });
  });

  it("makes two names of one object file one replica file, and keeps them one through hydration and rewrites", async () => {
    twin.writeFile("/a", "shared");
    twin.link("/a", "/sub/b");
    await puller.request();
    expect(stat("/sub/b").ino).toBe(stat("/a").ino);
    expect(stat("/a").nlink).toBe(2n);
    expect(await hydrator.ensure("/sub/b")).toBe(0);
    expect(fs.readFileSync(local("/a"), "utf8")).toBe("shared");
    expect(stat("/sub/b").ino).toBe(stat("/a").ino);
    expect(ctx.state.file("/a")?.hydrated).toBe(true);
    expect(twin.totalReads()).toBe(1);

    twin.writeFile("/sub/b", "rewritten on the object");
    await puller.request();
    expect(stat("/sub/b").ino).toBe(stat("/a").ino);
    expect(await hydrator.ensure("/a")).toBe(0);
    expect(fs.readFileSync(local("/sub/b"), "utf8")).toBe("rewritten on the object");
    // A link made later on the object links the existing local file.
    twin.link("/a", "/c");
    await puller.request();
    expect(stat("/c").ino).toBe(stat("/a").ino);
    expect(stat("/a").nlink).toBe(3n);
  });
  it("keeps the box's FIFOs and sockets, and their extra names, when the object's version of their directory comes down", async () => {
    twin.mkdir("/d");
    await puller.request();
    // The mount makes these without a dirty mark: they are never pushed.
    expect(spawnSync("mkfifo", [local("/d/fifo")]).status).toBe(0);
    fs.linkSync(local("/d/fifo"), local("/d/fifo2"));
    expect(
      spawnSync("python3", [
        "-c",
        `import socket; socket.socket(socket.AF_UNIX).bind(${JSON.stringify(local("/d/sock"))})`,
      ]).status,
    ).toBe(0);
    // A change of the directory on the object brings its whole subtree down (a walk and sweep),
    // and a change log naming a box-only path says only that the object has nothing there.
    twin.setattr("/d", { uid: 4242 });
    twin.writeFile("/d/fifo", "briefly a file on the object");
    twin.remove("/d/fifo");
    await puller.request();
    expect(stat("/d/fifo").isFIFO()).toBe(true);
    expect(stat("/d/fifo").nlink).toBe(2n);
    expect(stat("/d/sock").isSocket()).toBe(true);
    // Removing the directory on the object takes them with it.
    twin.remove("/d");
    await puller.request();
    expect(fs.existsSync(local("/d"))).toBe(false);
  });

  it("never undoes, through one name of a file, a change still pending under another", async () => {
    twin.writeFile("/a", "shared");
    twin.link("/a", "/b");
    await puller.request();
    onBox("/a", () => {
      fs.lchownSync(local("/a"), ids.toReplica(4242), ids.toReplica(4242));
      fs.chmodSync(local("/a"), 0o600);
    });
    // The object's version of the other name, with its older owner and mode, comes down.
    twin.setattr("/b", { mtimeMs: 1_700_000_000_000 });
    await puller.request();
    expect(stat("/a")).toMatchObject({ uid: BigInt(ids.toReplica(4242)), mode: 0o100600n });
    await pusher.flush();
    expect(twin.entry("/b")).toMatchObject({ uid: 4242, mode: 0o600 });
  });
});

describe("push", () => {
  it("sends the box's owner and exact mtime with what it makes", async () => {
    onBox("/p", () => fs.writeFileSync(local("/p"), "data"));
    fs.lchownSync(local("/p"), ids.toReplica(65534), ids.toReplica(100));
    touchExactly("/p", "@1700000000.123456789");
    onBox("/dir", () => fs.mkdirSync(local("/dir"), { mode: 0o750 }));
    fs.lchownSync(local("/dir"), ids.toReplica(0), 0);
    await pusher.flush();
    expect(twin.entry("/p")).toMatchObject({ uid: 65534, gid: 100, mtimeMs: 1_700_000_000_123, mtimeNsec: 456_789 });
    expect(twin.entry("/dir")).toMatchObject({ uid: 0, gid: 1000, mode: 0o750 });
  });

  it("pushes a second name of a pushed file as a link, not a copy, and a new pair as a write and a link", async () => {
    onBox("/p", () => fs.writeFileSync(local("/p"), "data"));
    await pusher.flush();
    let from = twin.applied.length;
    onBox("/q", () => fs.linkSync(local("/p"), local("/q")));
    await pusher.flush();
    expect(pushedOps(from)).toEqual([{ op: "link", path: "/q", existing: "/p", base: null }]);
    expect(twin.entry("/q")).toMatchObject({ ino: twin.entry("/p")?.ino, nlink: 2 });

    from = twin.applied.length;
    onBox("/r", () => fs.writeFileSync(local("/r"), "pair"));
    onBox("/s", () => fs.linkSync(local("/r"), local("/s")));
    await pusher.flush();
    expect(pushedOps(from).map((op) => op.op)).toEqual(["write", "link"]);
    expect(twin.entry("/s")?.ino).toBe(twin.entry("/r")?.ino);
    expect(ctx.dirty.size).toBe(0);
  });

  it("sends the content after the link when it may have changed, and a replaced name as its own file", async () => {
    onBox("/p", () => fs.writeFileSync(local("/p"), "data"));
    await pusher.flush();
    onBox("/t", () => {
      fs.linkSync(local("/p"), local("/t"));
      fs.appendFileSync(local("/t"), "+more");
    });
    await pusher.flush();
    expect(twin.text("/p")).toBe("data+more");
    expect(twin.entry("/t")?.ino).toBe(twin.entry("/p")?.ino);

    // An editor's save: a new file renamed over one name leaves the other name's bytes alone.
    onBox("/t", () => {
      fs.writeFileSync(local("/t.tmp"), "saved");
      fs.renameSync(local("/t.tmp"), local("/t"));
    });
    await pusher.flush();
    expect(twin.text("/t")).toBe("saved");
    expect(twin.text("/p")).toBe("data+more");
    expect(twin.entry("/p")?.nlink).toBe(1);
  });

  it("never pushes a FIFO (special files stay on the box), and forgets it as dirty", async () => {
    const from = twin.applied.length;
    onBox("/fifo", () => expect(spawnSync("mkfifo", [local("/fifo")]).status).toBe(0));
    await pusher.flush();
    expect(pushedOps(from)).toEqual([]);
    expect(twin.entry("/fifo")).toBeNull();
    expect(ctx.dirty.size).toBe(0);
  });

  it("removes the object's file where the box put a FIFO, and keeps the FIFO", async () => {
    twin.writeFile("/f", "old");
    await puller.request();
    onBox("/f", () => {
      fs.rmSync(local("/f"));
      expect(spawnSync("mkfifo", [local("/f")]).status).toBe(0);
    });
    await pusher.flush();
    expect(twin.entry("/f")).toBeNull();
    expect(stat("/f").isFIFO()).toBe(true);
    expect(ctx.dirty.size).toBe(0);
  });

  it("never links to a name the box renamed away, though its inode lives on under the new name", async () => {
    onBox("/a", () => fs.writeFileSync(local("/a"), "data"));
    await pusher.flush();
    const from = twin.applied.length;
    onBox("/a", () => fs.renameSync(local("/a"), local("/c")));
    onBox("/c", () => fs.appendFileSync(local("/c"), "+more"));
    onBox("/d", () => fs.linkSync(local("/c"), local("/d")));
    await pusher.flush();
    expect(pushedOps(from).map(({ op, path }) => `${op} ${path}`)).toEqual(["remove /a", "write /c", "link /d"]);
    expect(twin.text("/c")).toBe("data+more");
    expect(twin.entry("/d")?.ino).toBe(twin.entry("/c")?.ino);
    expect(fs.readFileSync(local("/c"), "utf8")).toBe("data+more");
    expect(twin.entry("/a")).toBeNull();
    expect(twin.namesIn("/", "").filter((p) => p.includes("conflict"))).toEqual([]);
    expect(ctx.dirty.size).toBe(0);
  });

  it("falls back to the content when the object refuses the link", async () => {
    onBox("/p", () => fs.writeFileSync(local("/p"), "data"));
    await pusher.flush();
    twin.remove("/p");
    onBox("/q", () => fs.linkSync(local("/p"), local("/q")));
    await pusher.flush();
    expect(twin.text("/q")).toBe("data");
    expect(ctx.dirty.size).toBe(0);
  });
});

describe("state database", () => {
  it("opens a database from before hard links and keeps its rows", () => {
    const file = join(dir, "old.db");
    const old = new DatabaseSync(file);
    old.exec(`CREATE TABLE files (path TEXT PRIMARY KEY, etag TEXT NOT NULL, size INTEGER NOT NULL, hydrated INTEGER NOT NULL);
      INSERT INTO files VALUES ('/kept', '"e"', 3, 1);`);
    old.close();
    const state = new StateDb(file);
    expect(state.file("/kept")).toMatchObject({ etag: '"e"', size: 3, hydrated: true, ino: null });
    state.putFile({ path: "/kept", etag: '"e"', size: 3, hydrated: true, ino: 7, localIno: 8 });
    expect(state.filesWithIno(7).map((row) => row.path)).toEqual(["/kept"]);
    state.close();
  });
});
