/**
 * The helper's safety rules: it marks only the root of a dedicated ext4 mount (a mark on
 * anything else would intercept strangers' processes and let us write into their files),
 * places files only beneath that root, and never leaves a reader with a placeholder's zeros
 * when it stops.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disposeNativeHarnesses, type NativeHarness, startNativeHarness } from "../testing/fanotifyHarness.ts";
import type { HelperExit } from "./fanotify.ts";
import { startFanotify } from "./fanotify.ts";
import { probeFanotify } from "./probe.ts";

const run = promisify(execFile);
let h: NativeHarness;
let scratch: string;
const mounted: string[] = [];

beforeAll(async () => {
  h = await startNativeHarness();
  scratch = mkdtempSync(join(tmpdir(), "cubicle-native-safety-"));
});
afterAll(async () => {
  for (const target of mounted.reverse()) await run("umount", ["-l", target]).catch(() => {});
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  await disposeNativeHarnesses();
});

describe("the helper refuses", () => {
  it("/", async () => {
    expect(await probeFanotify(h.binary, "/")).toEqual({ ok: false, reason: "refusing /: it is /" });
  });

  it("a tmpfs, which cannot carry pre-content marks", async () => {
    const tmpfs = join(scratch, "tmpfs");
    mkdirSync(tmpfs);
    await run("mount", ["-t", "tmpfs", "-o", "size=1m", "none", tmpfs]);
    mounted.push(tmpfs);
    const probe = await probeFanotify(h.binary, tmpfs);
    expect(probe).toEqual({ ok: false, reason: expect.stringContaining("not ext4") });
    const start = startFanotify({
      binary: h.binary,
      mountRoot: tmpfs,
      allowPid: process.pid,
      hydrate: async () => ({ errno: 5 }),
      onChange: () => {},
      onRescan: () => {},
    });
    await expect(start).rejects.toThrow(/not ext4/);
  });

  it("a directory that is not a mount root", async () => {
    await h.sh("mkdir -p plain/dir");
    const probe = await probeFanotify(h.binary, h.host("/plain/dir"));
    expect(probe).toEqual({ ok: false, reason: expect.stringContaining("not the root of a mount") });
  });

  it("a bind mount of a subdirectory, whose filesystem mark would reach beyond it", async () => {
    await h.sh("mkdir -p bound");
    const bind = join(scratch, "bind");
    mkdirSync(bind);
    await run("mount", ["--bind", h.host("/bound"), bind]);
    mounted.push(bind);
    const probe = await probeFanotify(h.binary, bind);
    expect(probe).toEqual({ ok: false, reason: expect.stringContaining("not the root directory of its filesystem") });
  });

  it("nothing when the binary is missing, and says so", async () => {
    const probe = await probeFanotify(join(scratch, "no-such-helper"), h.fs.mnt);
    expect(probe).toEqual({ ok: false, reason: expect.stringContaining("cannot run") });
  });

  it("nothing on the root of its own ext4 mount", async () => {
    expect(await probeFanotify(h.binary, h.fs.mnt)).toEqual({ ok: true });
  });
});

describe("placements", () => {
  it("never follow a symlink out of the workspace", async () => {
    const outside = join(scratch, "outside");
    mkdirSync(outside);
    await h.sh(`ln -s ${outside} escape`);
    const placed = await h.helper.place({
      path: "/escape/planted.txt",
      size: 1,
      mode: 0o644,
      uid: 0,
      gid: 0,
      mtimeNs: 0n,
      key: "k /escape/planted.txt",
    });
    expect(placed).toEqual({ ok: false, errno: 40 }); // ELOOP: RESOLVE_NO_SYMLINKS
    expect(existsSync(join(outside, "planted.txt"))).toBe(false);
  });

  it("never climb above the mount root", async () => {
    const placed = await h.helper.place({
      path: "/../planted.txt",
      size: 1,
      mode: 0o644,
      uid: 0,
      gid: 0,
      mtimeNs: 0n,
      key: "k",
    });
    expect(placed.ok).toBe(false);
    expect(existsSync(join(h.fs.dir, "planted.txt"))).toBe(false);
  });
});

describe("stopping", () => {
  it("denies a waiting reader (EIO) instead of letting the kernel show it zeros, and exits on stdin's end", async () => {
    const own = await startNativeHarness();
    own.hold = new Promise(() => {});
    try {
      await own.placeholder("/waiting.txt", "never arrives");
      const reader = own.sh("cat waiting.txt");
      while (own.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      const exit = await own.helper.stop();
      expect(exit).toMatchObject({ code: 0, expected: true });
      expect((await reader).stderr).toContain("Input/output error");
    } finally {
      await own.dispose();
    }
  });

  it("reports an exit nobody asked for, so computerd can stop the box", async () => {
    let reported: HelperExit | undefined;
    const own = await startNativeHarness({
      onExit: (exit) => {
        reported = exit;
      },
    });
    try {
      process.kill(own.helper.pid, "SIGKILL");
      await own.helper.exited;
      expect(reported).toMatchObject({ signal: "SIGKILL", expected: false });
    } finally {
      await own.dispose();
    }
  });
});
