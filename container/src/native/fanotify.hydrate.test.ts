/**
 * Lazy hydration on a real kernel: placeholders made by the helper on a loop ext4, read by
 * child processes that block in the kernel until this process (computerd's stand-in)
 * answers with content or an errno.
 */
import { execFile, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  blockedOnFanotify,
  disposeNativeHarnesses,
  listXattrs,
  type NativeHarness,
  startNativeHarness,
} from "../testing/fanotifyHarness.ts";
import { nativeLimits } from "./limits.ts";

let h: NativeHarness;
beforeAll(async () => {
  h = await startNativeHarness();
});
afterAll(async () => {
  await disposeNativeHarnesses();
});

const requestsFor = (key: string) => h.requests.filter((request) => request.key === key).length;

describe("a placeholder", () => {
  it("holds its content on the first read, and a second read asks for nothing", async () => {
    const key = await h.placeholder("/first.txt", "hello from the object\n");
    // Nothing of the object's yet: only the zero head every placement writes (limits.ts says why).
    expect(statSync(h.host("/first.txt")).blocks * 512).toBeLessThanOrEqual(nativeLimits.placeholderDataBytes);
    expect((await h.sh("cat first.txt")).stdout).toBe("hello from the object\n");
    expect((await h.sh("cat first.txt")).stdout).toBe("hello from the object\n");
    expect(requestsFor(key)).toBe(1);
  });

  it("keeps its mtime (to the nanosecond), mode and owner, and loses the placeholder xattr", async () => {
    await h.placeholder("/meta.txt", "some bytes", { mode: 0o640, mtimeNs: 1_234_567_890_987_654_321n });
    expect(await listXattrs(h.host("/meta.txt"))).toEqual(["trusted.cubicle.placeholder"]);
    expect((await h.sh("cat meta.txt")).stdout).toBe("some bytes");
    const st = statSync(h.host("/meta.txt"), { bigint: true });
    expect(st.mtimeNs).toBe(1_234_567_890_987_654_321n);
    expect(st.mode & 0o7777n).toBe(0o640n);
    expect([st.uid, st.gid]).toEqual([1000n, 1000n]);
    expect(await listXattrs(h.host("/meta.txt"))).toEqual([]);
  });

  it("read by two processes at once is fetched once, and both get it", async () => {
    const key = await h.placeholder("/shared.txt", "one fetch for two readers");
    let release = () => {};
    h.hold = new Promise((resolve) => {
      release = resolve;
    });
    const first = h.sh("cat shared.txt");
    while (requestsFor(key) === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const second = spawn("cat", [h.host("/shared.txt")], { stdio: ["ignore", "pipe", "inherit"] });
    let secondOut = "";
    second.stdout.on("data", (chunk) => {
      secondOut += chunk;
    });
    const secondDone = new Promise((resolve) => second.on("close", resolve));
    await blockedOnFanotify(second.pid ?? 0);
    h.hold = null;
    release();
    expect((await first).stdout).toBe("one fetch for two readers");
    await secondDone;
    expect(secondOut).toBe("one fetch for two readers");
    expect(requestsFor(key)).toBe(1);
  });

  it("is fetched when read through a bind mount in another mount namespace, as the box sees it", async () => {
    const key = await h.placeholder("/via-bind.txt", "seen from the box");
    const view = join(h.fs.dir, "box-view");
    const read = await h.sh(
      `mkdir -p ${view} && unshare -m sh -c 'mount --bind ${h.fs.mnt} ${view} && cat ${view}/via-bind.txt'`,
    );
    expect(read.stdout).toBe("seen from the box");
    expect(requestsFor(key)).toBe(1);
  });

  it("is not fetched by stat, chmod, chown, rename or link", async () => {
    const key = await h.placeholder("/untouched.txt", "stays remote");
    const result = await h.sh(
      "stat untouched.txt > /dev/null && chmod 600 untouched.txt && chown 1001 untouched.txt && mv untouched.txt renamed.txt && ln renamed.txt linked.txt && ls -l > /dev/null",
    );
    expect(result.stderr).toBe("");
    expect(requestsFor(key)).toBe(0);
    expect((await h.sh("cat linked.txt")).stdout).toBe("stays remote");
    expect(requestsFor(key)).toBe(1);
  });

  it("gives its readers the errno the object's fetch failed with, and stays a placeholder", async () => {
    const key = await h.placeholder("/busy.txt", "later");
    h.remote.set(key, 16); // EBUSY passes through FAN_DENY_ERRNO
    const busy = await h.sh("cat busy.txt");
    expect(busy.code).not.toBe(0);
    expect(busy.stderr).toContain("Device or resource busy");
    h.remote.set(key, 2); // ENOENT is not an errno read() may return: the kernel is given EIO
    expect((await h.sh("cat busy.txt")).stderr).toContain("Input/output error");
    h.remote.set(key, Buffer.from("later"));
    expect((await h.sh("cat busy.txt")).stdout).toBe("later");
  });

  it("made by a helper that has since stopped is held for its first read by the next one", async () => {
    // A computer's image outlives its helper (computerd restarts on the same replica); marks do not.
    const shallow = await h.placeholder("/before-restart.txt", "placed by the first helper");
    await h.sh("mkdir -p deep/er/still");
    const deep = await h.placeholder("/deep/er/still/file.txt", "deep, and placed before the restart");
    await h.restart();
    expect((await h.sh("cat before-restart.txt deep/er/still/file.txt")).stdout).toBe(
      "placed by the first helper" + "deep, and placed before the restart",
    );
    expect([requestsFor(shallow), requestsFor(deep)]).toEqual([1, 1]);
  });

  it("moved before its first read is still fetched by the key it was made with", async () => {
    const key = await h.placeholder("/moved-from.txt", "travels with the inode");
    expect((await h.sh("mkdir -p sub && mv moved-from.txt sub/moved-to.txt && cat sub/moved-to.txt")).stdout).toBe(
      "travels with the inode",
    );
    expect(requestsFor(key)).toBe(1);
  });

  it("emptied by an O_TRUNC open (no pre-content event) keeps what its writer wrote, and is never fetched", async () => {
    const key = await h.placeholder("/overwritten.txt", "old content that must not come back");
    expect((await h.sh("echo new > overwritten.txt && cat overwritten.txt")).stdout).toBe("new\n");
    expect(requestsFor(key)).toBe(0);
    expect(h.dropped.map((d) => d.key)).toContain(key);
    expect(await listXattrs(h.host("/overwritten.txt"))).toEqual([]);
  });

  it("takes the size of the content that arrives, when the object's file changed since (smaller, or empty)", async () => {
    const smaller = await h.placeholder("/shrunk.txt", "0123456789");
    h.remote.set(smaller, Buffer.from("abc"));
    expect((await h.sh("cat shrunk.txt")).stdout).toBe("abc");
    expect(statSync(h.host("/shrunk.txt")).size).toBe(3);
    const emptied = await h.placeholder("/emptied.txt", "0123456789");
    h.remote.set(emptied, Buffer.alloc(0));
    expect(await h.sh("cat emptied.txt")).toMatchObject({ code: 0, stdout: "" });
    expect(statSync(h.host("/emptied.txt")).size).toBe(0);
    const larger = await h.placeholder("/grown.txt", "01");
    h.remote.set(larger, Buffer.alloc(5000, "x"));
    // `wc -c < file` would only stat it: read it first.
    expect((await h.sh("cat grown.txt | wc -c")).stdout.trim()).toBe("5000");
    expect(statSync(h.host("/grown.txt")).size).toBe(5000);
  });

  it("appended to gets its content first", async () => {
    await h.placeholder("/log.txt", "line 1\n");
    expect((await h.sh("echo 'line 2' >> log.txt && cat log.txt")).stdout).toBe("line 1\nline 2\n");
  });

  it("truncated to a shorter size keeps the start of its content", async () => {
    await h.placeholder("/cut.txt", "0123456789");
    expect((await h.sh("truncate -s 4 cut.txt && cat cut.txt")).stdout).toBe("0123");
  });

  it("runs as a script and as a binary", async () => {
    await h.placeholder("/script.sh", "#!/bin/sh\necho script ran\n", { mode: 0o755 });
    expect((await h.sh("./script.sh")).stdout).toBe("script ran\n");
    await h.placeholder("/true-copy", readFileSync("/bin/echo"), { mode: 0o755 });
    expect((await h.sh("./true-copy binary ran")).stdout).toBe("binary ran\n");
  });

  it("is read whole through mmap", async () => {
    await h.placeholder("/mapped.bin", "mapped content");
    const script =
      "import mmap, sys; f = open(sys.argv[1], 'rb'); print(mmap.mmap(f.fileno(), 0, prot=mmap.PROT_READ)[:].decode())";
    expect((await h.sh(`python3 -c "${script}" mapped.bin`)).stdout).toBe("mapped content\n");
  });

  it("larger than one copy step arrives whole", async () => {
    const big = Buffer.alloc(20 * 1024 * 1024 + 3);
    for (let i = 0; i < big.length; i += 4096) big[i] = (i / 4096) % 251;
    await h.placeholder("/big.bin", big);
    const digest = createHash("sha256").update(big).digest("hex");
    expect((await h.sh("sha256sum < big.bin")).stdout.split(" ")[0]).toBe(digest);
  });

  it("is read raw, without waiting, by computerd itself (the allow pid)", async () => {
    const key = await h.placeholder("/raw.txt", "abc");
    expect(readFileSync(h.host("/raw.txt"))).toEqual(Buffer.alloc(3));
    expect(requestsFor(key)).toBe(0);
  });

  it("answered with a content file on the workspace filesystem is refused (it would deadlock) with EIO", async () => {
    const helperless = await startNativeHarness({
      hydrate: async () => ({ file: join(helperless.fs.mnt, "inside.txt") }),
    });
    try {
      await helperless.sh("echo x > inside.txt");
      await helperless.placeholder("/p.txt", "never");
      expect((await helperless.sh("cat p.txt")).stderr).toContain("Input/output error");
    } finally {
      await helperless.dispose();
    }
  });
});

describe("a placement", () => {
  it("keeps set-uid and set-gid bits, which a change of owner clears", async () => {
    const key = await h.placeholder("/setuid.sh", "#!/bin/sh\necho set\n", { mode: 0o6755 });
    expect(statSync(h.host("/setuid.sh")).mode & 0o7777).toBe(0o6755);
    expect(requestsFor(key)).toBe(0);
  });

  it("asked for a new file only, leaves a file already at its name as it is", async () => {
    await h.sh("printf 'made in the box' > taken.txt");
    const placed = await h.helper.place({
      path: "/taken.txt",
      size: 99,
      mode: 0o644,
      uid: 1000,
      gid: 1000,
      mtimeNs: 0n,
      key: "etag /taken.txt",
      onlyNew: true,
    });
    expect(placed).toEqual({ ok: false, errno: 17 }); // EEXIST
    expect(readFileSync(h.host("/taken.txt"), "utf8")).toBe("made in the box");
    expect(await listXattrs(h.host("/taken.txt"))).toEqual([]);
  });

  it("of a name with spaces, %, ~, a newline and UTF-8 makes that very name, and its first read asks for that key", async () => {
    const path = "/odd 100% ~é\n名.txt";
    const key = await h.placeholder(path, "odd bytes");
    expect(readdirSync(h.fs.mnt)).toContain(path.slice(1));
    const { stdout } = await promisify(execFile)("cat", [h.host(path)]);
    expect(stdout).toBe("odd bytes");
    expect(requestsFor(key)).toBe(1);
  });

  it("without that, replaces the file at its name", async () => {
    await h.sh("printf 'old' > replaced.txt");
    await h.placeholder("/replaced.txt", "the object's version");
    expect((await h.sh("cat replaced.txt")).stdout).toBe("the object's version");
  });
});
