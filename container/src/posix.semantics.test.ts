/**
 * What pjdfstest found wrong with the FUSE mount, each as a user meets it: owners of new
 * files, times to the nanosecond with UTIME_OMIT, FIFOs and sockets, and paths as long as
 * PATH_MAX allows. The whole suite runs in CI too (container/conformance/pjdfstest.ts).
 */
import { describe, expect, it } from "vitest";
import { useDaemon } from "./testing/harness.ts";

const fixture = useDaemon();

async function ok(command: string, user: "root" | "user" = "user"): Promise<string> {
  const r = await fixture.sh(command, { user });
  expect(r.outcome.exitCode, `${r.stdout}\n${r.stderr}`).toBe(0);
  return r.stdout;
}

describe("owners", () => {
  it("gives a new file, directory, link and FIFO to whoever made it, who can then use them", async () => {
    const out = await ok(
      [
        "mkdir -m 0777 -p owners && cd owners",
        "setpriv --reuid=65534 --regid=65534 --clear-groups sh -c 'echo x > f && mkdir d && ln -s f l && mkfifo p && echo y >> f && chmod 0600 f && cat f'",
        "stat -c '%n %u:%g %a' f d p && stat -c '%n %u:%g' l",
      ].join(" && "),
      "root",
    );
    expect(out).toBe("x\ny\nf 65534:65534 600\nd 65534:65534 755\np 65534:65534 644\nl 65534:65534\n");
  });

  it("passes chown through, and a setgid directory's group to what is made in it", async () => {
    const out = await ok(
      [
        "mkdir -p sgid && cd sgid && mkdir g && chown 0:4242 g && chmod 2775 g",
        "setpriv --reuid=1000 --regid=1000 --groups=4242 sh -c 'touch g/f && mkdir g/d'",
        "touch o && chown 123:456 o",
        "stat -c '%n %u:%g %A' g/f g/d o",
      ].join(" && "),
      "root",
    );
    expect(out).toBe("g/f 1000:4242 -rw-r--r--\ng/d 1000:4242 drwxr-sr-x\no 123:456 -rw-r--r--\n");
  });

  it("sends a chown and a time set alone to the object, so its next version of the file keeps them", async () => {
    await ok("mkdir -p later && echo x > later/f", "root");
    await ok("chown 4242:4243 later/f && touch -m -d @1000000000.5 later/f", "root");
    expect(fixture.twin.entry("/later/f")).toMatchObject({ uid: 4242, gid: 4243, mtimeMs: 1_000_000_000_500 });
    // The object's version of the directory comes down (a walk of it), and the box keeps both.
    await fixture.session.computer.changed(fixture.twin.setattr("/later", { mtimeMs: 1_700_000_000_000 }));
    expect(await ok("stat -c '%u:%g %Y' later/f", "root")).toBe("4242:4243 1000000000\n");
  });

  it("keeps a setuid bit a file was created with", async () => {
    expect(await ok("mkdir -p suid && cd suid && install -m 4755 /dev/null s && stat -c '%a %u' s")).toBe(
      "4755 1000\n",
    );
  });
});

describe("times", () => {
  it("sets both times as given, to the nanosecond, as cp -p, tar and touch -d do", async () => {
    const out = await ok(
      [
        "mkdir -p times && cd times && touch -d '2001-02-03 04:05:06.123456789' f",
        `python3 -c "import os; os.utime('f', ns=(981173106123456789, 1323785716987654321))"`,
        "stat -c '%x|%y' f",
      ].join(" && "),
    );
    expect(out).toBe("2001-02-03 04:05:06.123456789 +0000|2011-12-13 14:15:16.987654321 +0000\n");
  });

  it("sets one time alone, leaving the other as it was (UTIME_OMIT)", async () => {
    const out = await ok(
      [
        "mkdir -p omit && cd omit && touch -d '2001-02-03 04:05:06.123456789' f",
        // touch -a and -m pass UTIME_OMIT for the time they leave alone.
        "touch -m -d '2011-12-13 14:15:16.987654321' f && stat -c '%x|%y' f",
        "touch -a -d '2002-02-02 00:00:00.25' f && stat -c '%x|%y' f",
      ].join(" && "),
    );
    expect(out).toBe(
      "2001-02-03 04:05:06.123456789 +0000|2011-12-13 14:15:16.987654321 +0000\n" +
        "2002-02-02 00:00:00.250000000 +0000|2011-12-13 14:15:16.987654321 +0000\n",
    );
  });

  it("keeps a symlink's own times as set, and sends its mtime to the object", async () => {
    await ok("mkdir -p linktimes && cd linktimes && ln -s target l");
    // An access time older than the mtime, which reading the link would move (relatime).
    await ok("touch -h -a -d @1000000000 linktimes/l && touch -h -m -d @1100000000 linktimes/l");
    // Past the kernel's 1 s attribute cache, so the times are the replica's, after the push.
    expect(await ok("sleep 1.2 && stat -c '%X %Y' linktimes/l")).toBe("1000000000 1100000000\n");
    expect(fixture.twin.entry("/linktimes/l")).toMatchObject({
      type: "symlink",
      target: "target",
      mtimeMs: 1_100_000_000_000,
    });
  });

  it("keeps the times set on a symlink made by the same command, whose push reads the link", async () => {
    // The link is new, so its push must read its target: through the replica's noatime view,
    // or the read would stamp the push's time over the access time just set (utimensat/05.t).
    await ok("mkdir -p newlink && cd newlink && ln -s target l && touch -h -d @1000000000 l");
    expect(await ok("sleep 1.2 && stat -c '%X %Y' newlink/l")).toBe("1000000000 1000000000\n");
    expect(fixture.twin.entry("/newlink/l")).toMatchObject({ type: "symlink", target: "target" });
  });

  it("lets make see which file is newer", async () => {
    const out = await ok(
      "mkdir -p mk && cd mk && printf 'out: in\\n\\tcp in out\\n' > Makefile && echo 1 > in && make -s && (make -q && echo fresh) && touch -m -d '2000-01-01' out && (make -q || echo stale) && make -s && make -q && echo fresh",
    );
    expect(out).toBe("fresh\nstale\nfresh\n");
  });
});

describe("special files", () => {
  it("makes FIFOs and unix sockets that work, and never sends them to the object", async () => {
    const out = await ok(
      [
        "mkdir -p special && cd special && mkfifo fifo",
        "(echo through-fifo > fifo &) && cat fifo",
        `python3 -c "import socket,os; s=socket.socket(socket.AF_UNIX); s.bind('sock'); s.listen(1); c=socket.socket(socket.AF_UNIX); c.connect('sock'); a,_=s.accept(); c.send(b'through-socket'); print(a.recv(64).decode())"`,
        "stat -c '%n %F' fifo sock",
      ].join(" && "),
    );
    expect(out).toBe("through-fifo\nthrough-socket\nfifo fifo\nsock socket\n");
    const r = await fixture.session.computer.flush();
    expect(r.revision).toBeGreaterThan(0);
    expect(fixture.twin.entry("/special/fifo")).toBeNull();
    expect(fixture.twin.entry("/special/sock")).toBeNull();
  });

  it("refuses device nodes on the mount, also to root (the replica is on the host's disk)", async () => {
    const r = await fixture.sh("mknod /workspace/null c 1 3", { user: "root" });
    expect(r.outcome.exitCode).not.toBe(0);
    expect(r.stderr).toMatch(/Operation not permitted/);
  });
});

describe("hard links", () => {
  it("shows a change made through one name at once through the others", async () => {
    const out = await ok(
      [
        "mkdir -p hl && cd hl && echo x > a && mkfifo p && stat -c '%h %a %u' a p >/dev/null",
        "ln a b && ln p q && stat -c '%n %h' a p",
        "chmod 600 b && chown 4242 q && stat -c '%n %a %u' a p",
        "echo more >> b && stat -c '%n %s' a",
        "rm b && mv q r && stat -c '%n %h' a p",
      ].join(" && "),
      "root",
    );
    expect(out).toBe("a 2\np 2\na 600 0\np 644 4242\na 7\na 1\np 2\n");
  });
});

describe("long paths", () => {
  it("takes a path of PATH_MAX - 1 bytes below /workspace", async () => {
    // 16 directories of 255 bytes make 4,095 bytes with their slashes, less the last one.
    const out = await ok(
      `cd /workspace && p=.; for i in $(seq 16); do n=$(printf 'd%.0s' $(seq 250))$(printf %05d $i); [ $i = 16 ] && n=$(printf 'f%.0s' $(seq 255)); p=$p/$n; done; p=\${p#./}; echo \${#p}; mkdir -p "$(dirname "$p")" && echo deep > "$p" && cat "$p" && rm -rf d*`,
    );
    expect(out).toBe("4095\ndeep\n");
  });
});
