/**
 * The native mode's journal reports a box change a little after it was made. applyEntry must
 * never take that gap for "unchanged": a file, link or special file stamped (ctime) after the
 * last drain began is left as the box made it and marked dirty, so it is pushed with its base
 * and the conflict rule decides (docs/container-sync.md, "Conflicts"). pjdfstest's rename
 * tests found the gap: a file the box had just renamed into place came back as another inode.
 */
import * as fs from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RemoteEntry, WorkspaceSyncApi } from "../../wire/index.ts";
import { syncContextIn } from "../testing/syncContext.ts";
import { applyEntry } from "./apply.ts";
import type { SyncContext } from "./context.ts";
import { nativeIds } from "./metadata.ts";

let dir: string;
let ctx: SyncContext;

beforeEach(async () => {
  ({ dir, ctx } = await syncContextIn("computerd-unreported-", {} as WorkspaceSyncApi, {
    native: true,
    ids: nativeIds(0),
  }));
});

afterEach(() => {
  ctx.state.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The object's version of `/f`: a symlink, as a rename test leaves one behind. */
const objectSymlink: RemoteEntry = {
  path: "/f",
  type: "symlink",
  target: "elsewhere",
  size: 9,
  mode: 0o777,
  mtimeMs: 0,
};

describe("applying the object's version over a change the journal has not reported", () => {
  it("keeps the box's file, and marks it dirty, when it changed after the drain began", () => {
    const local = ctx.replica.local("/f");
    ctx.unreportedSinceNs = BigInt(Date.now() - 1_000) * 1_000_000n;
    fs.writeFileSync(local, "the box's\n");
    const ino = fs.lstatSync(local).ino;
    applyEntry(ctx, "/f", objectSymlink);
    expect(fs.lstatSync(local).ino).toBe(ino);
    expect(fs.readFileSync(local, "utf8")).toBe("the box's\n");
    expect(ctx.dirty.has("/f")).toBe(true);
    applyEntry(ctx, "/f", null);
    expect(fs.existsSync(local)).toBe(true);
  });

  it("applies it when the box's file is older than the drain, which then reported every change to it", () => {
    const local = ctx.replica.local("/f");
    fs.writeFileSync(local, "synced long ago\n");
    ctx.unreportedSinceNs = BigInt(Date.now() + 1_000) * 1_000_000n;
    applyEntry(ctx, "/f", objectSymlink);
    expect(fs.readlinkSync(local)).toBe("elsewhere");
    expect(ctx.dirty.has("/f")).toBe(false);
  });
});
