/** Both directions of sync between the mount and the (twin) workspace object. */
import { createHash, randomBytes } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { wireLimits } from "../wire/index.ts";
import { eventually, mountEnv, mountModes, openSession, useDaemon } from "./testing/harness.ts";
import { MemoryWorkspace } from "./testing/memoryWorkspace.ts";

const fileCount = 2_000;

const envs = { native: await mountEnv("native"), fuse: await mountEnv("fuse") };

describe.each(mountModes)("%s mount", (mode) => {
  const fixture = useDaemon(() => {
    const twin = new MemoryWorkspace();
    const files: Record<string, string> = {};
    for (let i = 0; i < fileCount; i++) files[`/tree/d${i % 20}/f${i}.txt`] = `content of file ${i}\n`;
    twin.seed(files);
    twin.writeFile("/readme.md", "# hello\n");
    return twin;
  }, envs[mode]);
  const sh = (command: string, opts = {}) => fixture.sh(command, opts);

  describe("sync", () => {
    it("shows the object's tree at once, downloading only what is read", async () => {
      const r = await sh("find tree -type f | wc -l; stat -c %s tree/d7/f7.txt; cat tree/d7/f7.txt");
      expect(r.stdout).toBe(`${fileCount}\n${"content of file 7\n".length}\ncontent of file 7\n`);
      expect([...fixture.twin.reads.keys()]).toEqual(["/tree/d7/f7.txt"]);
    });

    it("downloads a file larger than one wire chunk intact", async () => {
      const big = randomBytes(wireLimits.chunkBytesMax * 2 + 12345);
      await fixture.session.computer.changed(fixture.twin.writeFile("/big.bin", big));
      const r = await sh("wc -c < big.bin; sha256sum big.bin | cut -d' ' -f1");
      expect(r.stdout).toBe(`${big.byteLength}\n${createHash("sha256").update(big).digest("hex")}\n`);
      expect(fixture.twin.reads.get("/big.bin")).toBe(3);
    });

    it("pushes a file written in requests of up to 1 MiB, and its copies, intact", async () => {
      // About 4.8 MB written by one process: on the FUSE mount, four 1 MiB requests and a
      // short one. `cp` copies it with copy_file_range, which the FUSE mount answers on the
      // replica; Node's copyFile too.
      const r = await sh(
        `seq 1 700000 > seq.txt && cp seq.txt copy.txt && node -e "require('fs').copyFileSync('seq.txt', 'copy2.txt')" && sha256sum seq.txt | cut -d' ' -f1`,
      );
      const pushed = fixture.twin.text("/seq.txt") ?? "";
      expect(pushed.length).toBe(4_788_895);
      expect(r.stdout).toBe(`${createHash("sha256").update(pushed).digest("hex")}\n`);
      expect(fixture.twin.text("/copy.txt")).toBe(pushed);
      expect(fixture.twin.text("/copy2.txt")).toBe(pushed);
    });

    it("pushes the last content of a file rewritten in place, with its times set back, while the command ran", async () => {
      // The native mode reads a written file while the command still runs (sync/pushPrefetch.ts).
      // The second write keeps the inode and the size, and `touch -r` puts back the first
      // write's times to the nanosecond: only the ctime tells that the first read is stale.
      const r = await sh(
        "printf aaaa > same.txt && touch -r same.txt same.ref && sleep 0.1 && printf bbbb > same.txt && touch -r same.ref same.txt && rm same.ref && cat same.txt",
      );
      expect(r.stdout).toBe("bbbb");
      expect(fixture.twin.text("/same.txt")).toBe("bbbb");
    });

    it("keeps serving and pushing after a command writes a file at a path longer than the replica can name", async () => {
      // 4,095 bytes below the mount: computerd's own name for it adds the replica's prefix,
      // past PATH_MAX, so every read of it there fails (ENAMETOOLONG). Reading it while the
      // command ran (sync/pushPrefetch.ts) ended the native daemon, and its push failed every
      // push pass after it, for every path (sync/push.ts, leaveUnnamed).
      const path = `p=.; for i in $(seq 16); do n=$(printf 'd%.0s' $(seq 250))$(printf %05d $i); [ $i = 16 ] && n=$(printf 'f%.0s' $(seq 255)); p=$p/$n; done; p=\${p#./}`;
      const first = await sh(`${path}; mkdir -p "$(dirname "$p")" && echo deep > "$p" && sleep 0.1 && cat "$p"`);
      expect(first.stdout).toBe("deep\n");
      await sh("echo kept > after-long.txt");
      expect(fixture.twin.text("/after-long.txt")).toBe("kept\n");
      const next = await sh("rm -rf d*; rm after-long.txt; echo alive");
      expect(next.stdout).toBe("alive\n");
      expect(fixture.twin.text("/after-long.txt")).toBeNull();
    });

    it("brings every other change down when the object has a path this replica cannot hold", async () => {
      // 4,041 bytes: the object takes it (PATH_MAX), but the native mode's placeholder mark
      // (`<etag> <path>`) does not fit ext4's attribute space (ENOSPC). That failed the whole
      // pull, and every pull after it (sync/apply.ts, applyEntryOrSkip).
      const segment = (i: number) => `${"d".repeat(250)}${String(i).padStart(5, "0")}`;
      // Under /a-long, so a pull meets it before the other paths (they are applied in order).
      const long = `/a-long/${Array.from({ length: 15 }, (_, i) => segment(i + 1)).join("/")}/${"f".repeat(193)}`;
      const { computer } = fixture.session;
      await computer.changed(fixture.twin.writeFile(long, "far\n"));
      await computer.changed(fixture.twin.writeFile("/near.txt", "near\n"));
      expect((await sh("cat near.txt")).stdout).toBe("near\n");
      await computer.changed(fixture.twin.writeFile("/later.txt", "later\n"));
      expect((await sh("cat later.txt; echo pushed > pushed-after-long.txt")).stdout).toBe("later\n");
      expect(fixture.twin.text("/pushed-after-long.txt")).toBe("pushed\n");
      await computer.changed(fixture.twin.remove("/a-long"));
      expect((await sh("ls -d a-long 2>&1 || true")).stdout).toMatch(/No such file/);
    });

    // The native mount is the computer's own ext4, with the kernel's read-ahead.
    if (mode === "fuse") {
      it("reads ahead 1 MiB on the mount, not the kernel's 128 KiB", () => {
        const dev = statSync(fixture.daemon.mount, { bigint: true }).dev;
        const device = `${(dev >> 8n) & 0xfffn}:${(dev & 0xffn) | ((dev >> 12n) & ~0xffn)}`;
        expect(readFileSync(`/sys/class/bdi/${device}/read_ahead_kb`, "utf8")).toBe("1024\n");
      });
    }

    it("reads nothing of its own push back, though making a directory logs two changes", async () => {
      fixture.twin.asked.length = 0;
      await sh("mkdir own && echo 1 > own/a && mkdir own/sub && echo 2 > own/sub/b");
      expect(fixture.twin.text("/own/sub/b")).toBe("2\n");
      await fixture.session.computer.changed(fixture.twin.revision);
      await sh("true");
      expect(fixture.twin.asked.filter((p) => p.startsWith("/own"))).toEqual([]);
    });

    it("has a file the command wrote on the object when exec resolves", async () => {
      const r = await sh("mkdir -p out && printf 'result' > out/result.txt && chmod 600 out/result.txt");
      expect(fixture.twin.text("/out/result.txt")).toBe("result");
      expect(fixture.twin.entry("/out/result.txt")?.mode).toBe(0o600);
      expect(r.outcome.revision).toBe(fixture.twin.revision);
    });

    it("propagates removals and renames made by a command", async () => {
      await sh("mkdir -p mv/a && echo 1 > mv/a/one && echo 2 > mv/two");
      expect(fixture.twin.text("/mv/a/one")).toBe("1\n");
      await sh("mv mv/a mv/b && rm mv/two && ln -s b/one mv/link");
      expect(fixture.twin.text("/mv/b/one")).toBe("1\n");
      expect(fixture.twin.entry("/mv/a")).toBeNull();
      expect(fixture.twin.entry("/mv/two")).toBeNull();
      expect(fixture.twin.entry("/mv/link")).toMatchObject({ type: "symlink", target: "b/one" });
    });

    it("lets a running command see a file the object wrote meanwhile", async () => {
      const pending = sh("for i in $(seq 100); do [ -f incoming.txt ] && break; sleep 0.05; done; cat incoming.txt");
      await new Promise((r) => setTimeout(r, 200));
      await fixture.session.computer.changed(fixture.twin.writeFile("/incoming.txt", "from the API\n"));
      const r = await pending;
      expect(r.stdout).toBe("from the API\n");
    });

    it("runs a command on every change the object made before the run, though no notice of it came", async () => {
      await sh("echo one > note.txt");
      // The object keeps one `changed` notice in flight, so a run can overtake the notice of
      // an API write that was acknowledged before the run was asked for; the run names it.
      const revision = fixture.twin.writeFile("/note.txt", "two\n");
      const r = await sh("cat note.txt", { revision });
      expect(r.stdout).toBe("two\n");
    });

    it("runs a command after the object removed a file the box had just pushed, without it", async () => {
      await sh("echo one > gone.txt");
      const revision = fixture.twin.remove("/gone.txt");
      const r = await sh("test -e gone.txt && echo still there || echo gone", { revision });
      expect(r.stdout).toBe("gone\n");
      await fixture.session.computer.flush();
      expect(fixture.twin.namesIn("/", "gone.")).toEqual([]);
    });

    it("shows object-side changes and moves of directories after changed()", async () => {
      fixture.twin.writeFile("/tree/d1/f1.txt", "rewritten\n");
      fixture.twin.rename("/tree/d2", "/moved");
      await fixture.session.computer.changed(fixture.twin.remove("/tree/d3"));
      const r = await eventually(async () => {
        const r = await sh("cat tree/d1/f1.txt; ls moved | wc -l; ls tree | grep -c d3; ls tree | grep -c d2");
        return r.stdout.startsWith("rewritten\n100\n0\n0\n") && r;
      });
      expect(r.stdout).toBe("rewritten\n100\n0\n0\n");
    });

    it("keeps an unpushed container change in the box until it is pushed, then both versions", async () => {
      // The object refuses the push for now, so the container's write stays unpushed (dirty).
      fixture.twin.refuse = (op) => op.path === "/conflict.txt";
      await sh("echo container > conflict.txt");
      await fixture.session.computer.changed(fixture.twin.writeFile("/conflict.txt", "object\n"));
      const r = await sh("cat conflict.txt");
      expect(r.stdout).toBe("container\n");
      fixture.twin.refuse = null;
      await fixture.session.computer.flush();
      // Both changed it: the object's version stays, the container's is kept beside it
      // (sync.conflict.test.ts has the rule case by case).
      expect(fixture.twin.text("/conflict.txt")).toBe("object\n");
      const copies = fixture.twin.namesIn("/", "conflict.conflict-");
      expect(copies.map((p) => fixture.twin.text(p))).toEqual(["container\n"]);
    });

    it("does not download a file it pushed itself", async () => {
      await sh("echo mine > mine.txt");
      await fixture.session.computer.changed(fixture.twin.revision);
      const r = await sh("cat mine.txt");
      expect(r.stdout).toBe("mine\n");
      expect(fixture.twin.reads.has("/mine.txt")).toBe(false);
    });

    it("keeps a path the object refuses dirty and pushes it once allowed", async () => {
      fixture.twin.refuse = (op) => op.path === "/refused.txt";
      await sh("echo keep > refused.txt");
      expect(fixture.twin.entry("/refused.txt")).toBeNull();
      fixture.twin.refuse = null;
      await sh("echo again > refused.txt");
      expect(fixture.twin.text("/refused.txt")).toBe("again\n");
    });

    it("flush() pushes and reports the object's revision", async () => {
      const { revision } = await fixture.session.computer.flush();
      expect(revision).toBe(fixture.twin.revision);
    });

    it("lets a new session replace the old one, and keeps working after the old socket closes", async () => {
      const next = await openSession(fixture.daemon.port, fixture.twin);
      fixture.session.close();
      fixture.session = next;
      await sh("echo via-new-session > replaced.txt");
      expect(fixture.twin.text("/replaced.txt")).toBe("via-new-session\n");
    });
  });
});
