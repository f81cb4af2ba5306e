/**
 * The native mount learns of the box's changes from a journal read at intervals, so a pull can
 * meet something the box made after the last read: not dirty yet, and not on the object. The
 * pull must keep it (it is the box's newest change), never take it for something the object
 * removed. The sync parts run alone on a real directory; `beforeApply` stamps the drain as the
 * daemon does, and the box's changes are made without marking them dirty, as the journal
 * would not have reported them yet.
 */
import * as fs from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { WorkspaceSyncApi } from "../../wire/index.ts";
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
let journalReadNs = 0n;

beforeEach(async () => {
  twin = new MemoryWorkspace();
  ({ dir, ctx } = await syncContextIn("computerd-unreported-", twin as unknown as WorkspaceSyncApi, {
    native: true,
    ids: fuseIds(200_000),
  }));
  // As the daemon's, with the journal last read when `settle` ended: what changed before is
  // reported, what changed after is stamped later (20 ms of slack, as the kernel's ctime
  // clock runs a tick behind).
  ctx.beforeApply = async () => {
    ctx.unreportedSinceNs = journalReadNs;
  };
  puller = new Puller(ctx);
  pusher = new Pusher(ctx, new Hydrator(ctx));
});

afterEach(() => {
  ctx.state.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const local = (path: string) => ctx.replica.local(path);
/** Everything so far is old news: the journal is read now. */
const settle = async () => {
  await new Promise((resolve) => setTimeout(resolve, 120));
  journalReadNs = BigInt(Date.now() - 20) * 1_000_000n;
};

describe("what the box made since the journal was last read", () => {
  it("survives a walk of its directory that the object's listing lacks it from, and is pushed", async () => {
    twin.seed({ "/w/old": "o" });
    await puller.request();
    await settle();
    fs.writeFileSync(local("/w/new"), "box");
    fs.mkdirSync(local("/w/made/deep"), { recursive: true });
    // The API changes the directory itself: the pull walks it and sweeps what it did not list.
    twin.setattr("/w", { mode: 0o750 });
    await puller.request();
    expect(fs.readFileSync(local("/w/new"), "utf8")).toBe("box");
    expect(fs.statSync(local("/w/made/deep")).isDirectory()).toBe(true);
    await pusher.flush();
    expect(twin.text("/w/new")).toBe("box");
    expect(twin.entry("/w/made/deep")?.type).toBe("dir");
  });

  it("keeps the directory the object removed alive with only the box's new entries in it", async () => {
    twin.seed({ "/w/old": "o", "/w/sub/older": "o" });
    await puller.request();
    await settle();
    fs.writeFileSync(local("/w/sub/new"), "box");
    twin.remove("/w");
    await puller.request();
    expect(fs.readFileSync(local("/w/sub/new"), "utf8")).toBe("box");
    expect(fs.existsSync(local("/w/old"))).toBe(false);
    expect(fs.existsSync(local("/w/sub/older"))).toBe(false);
    await pusher.flush();
    expect(twin.text("/w/sub/new")).toBe("box");
    expect(twin.entry("/w/old")).toBeNull();
  });

  it("keeps what the box made in a directory the object replaced with a file", async () => {
    twin.seed({ "/w/old": "o" });
    await puller.request();
    await settle();
    fs.writeFileSync(local("/w/new"), "box");
    twin.remove("/w");
    twin.writeFile("/w", "now a file");
    await puller.request();
    expect(fs.readFileSync(local("/w/new"), "utf8")).toBe("box");
  });

  it("still removes what the object removed and the box has not touched since", async () => {
    twin.seed({ "/w/old": "o", "/w/keep": "k" });
    await puller.request();
    await settle();
    twin.remove("/w/old");
    twin.setattr("/w", { mode: 0o750 });
    await puller.request();
    expect(fs.existsSync(local("/w/old"))).toBe(false);
    expect(fs.existsSync(local("/w/keep"))).toBe(true);
  });
});
