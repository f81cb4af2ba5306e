/**
 * Device nodes in the box (docs/container-sandbox.md, "Device nodes"): root makes them on the
 * workspace and its other nodev mounts through the computer's device-node supervisor, with
 * every answer the kernel would give, and nobody can open one; they are never synced. The
 * FUSE fallback keeps refusing them (docs/container-sync.md, "POSIX on the FUSE fallback").
 */
import { describe, expect, it } from "vitest";
import { ensureFanotifyBinary } from "../native/build.ts";
import { type DaemonFixture, useDaemon } from "./testing/harness.ts";
import { MemoryWorkspace } from "./testing/memoryWorkspace.ts";

const fanotify = await ensureFanotifyBinary();
if (!fanotify.ok) throw new Error(fanotify.reason);
const native = useDaemon(() => new MemoryWorkspace(), {
  COMPUTERD_MOUNT_MODE: "native",
  COMPUTERD_FANOTIFY_BIN: fanotify.path,
});
const fuse = useDaemon(() => new MemoryWorkspace(), { COMPUTERD_MOUNT_MODE: "fuse" });

async function ok(fixture: DaemonFixture, command: string, user: "root" | "user" = "root"): Promise<string> {
  const r = await fixture.sh(command, { user });
  expect(r.outcome, r.stderr).toMatchObject({ status: "completed", exitCode: 0 });
  return r.stdout;
}

/**
 * Every way a mknodat can fail, called raw (ctypes) with a FIFO, a character and a block
 * device of the same mode: the kernel answers a FIFO itself, so where the device answers the
 * same, the supervisor gave the kernel's answer. Prints `case fifo chr blk` errnos (0: made).
 */
const errnoProbe = `
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
AT_FDCWD, SYS_mknod, SYS_mknodat = -100, 133, 259
def call(nr, args):
    r = libc.syscall(ctypes.c_long(nr), *[ctypes.c_long(a) if isinstance(a, int) else ctypes.c_char_p(a.encode()) for a in args])
    return 0 if r == 0 else ctypes.get_errno()
fd_dir = os.open("d", os.O_RDONLY | os.O_DIRECTORY)
fd_file = os.open("f", os.O_RDONLY)
cases = [
    ("new", AT_FDCWD, "d/new-%s"),
    ("through a symlink", AT_FDCWD, "dlink/linked-%s"),
    ("missing parent", AT_FDCWD, "nope/x"),
    ("parent is a file", AT_FDCWD, "f/x"),
    ("file exists", AT_FDCWD, "f"),
    ("directory exists", AT_FDCWD, "d"),
    ("dangling symlink exists", AT_FDCWD, "dangling"),
    ("trailing slash", AT_FDCWD, "d/new-slash-%s/"),
    ("dot", AT_FDCWD, "."),
    ("dot dot", AT_FDCWD, ".."),
    ("root", AT_FDCWD, "/"),
    ("empty path", AT_FDCWD, ""),
    ("name too long", AT_FDCWD, "d/" + "x" * 256),
    ("path too long", AT_FDCWD, "d/" + ("y" * 200 + "/") * 21 + "z"),
    ("symlink loop", AT_FDCWD, "loop1/x"),
    ("read-only image", AT_FDCWD, "/usr/x"),
    ("read-only /dev", AT_FDCWD, "/dev/x"),
    ("procfs", AT_FDCWD, "/proc/x"),
    ("no write permission", AT_FDCWD, "locked/x-%s"),
    ("no search permission", AT_FDCWD, "hidden/inner/x-%s"),
    ("bad pointer", AT_FDCWD, 1),
    ("bad dirfd", 999, "x"),
    ("dirfd of a file", fd_file, "x"),
    ("dirfd of a directory", fd_dir, "new-fd-%s"),
    ("bad dirfd, absolute path", 999, os.getcwd() + "/d/new-abs-%s"),
    ("mknod(2)", None, "d/new-old-%s"),
]
for name, dirfd, path in cases:
    out = []
    for kind, mode, dev in (("p", 0o010644, 0), ("c", 0o020644, 0x103), ("b", 0o060644, 0x800)):
        p = path % kind if isinstance(path, str) and "%s" in path else path
        out.append(call(SYS_mknod, [p, mode, dev]) if dirfd is None else call(SYS_mknodat, [dirfd, p, mode, dev]))
    print(name + ":" + " ".join(map(str, out)))
`;

const probeSetup = [
  "mkdir -p d nope-not && touch f && ln -sf nowhere dangling && ln -sfn d dlink",
  "ln -sf loop2 loop1 && ln -sf loop1 loop2",
  "mkdir -p locked hidden/inner && chmod 0555 locked && chmod 0600 hidden",
].join(" && ");

function parseProbe(stdout: string): Map<string, number[]> {
  const rows = new Map<string, number[]>();
  for (const line of stdout.trim().split("\n")) {
    const [name, codes] = line.split(":");
    rows.set(name as string, (codes as string).split(" ").map(Number));
  }
  return rows;
}

const EPERM = 1;

describe("device nodes in the box (native mount)", () => {
  it("lets root make character and block devices on the workspace, /tmp, home and /dev/shm, which nobody can open", async () => {
    const out = await ok(
      native,
      [
        "mkdir -p devs && cd devs",
        "mknod null c 1 3 && mknod sda b 8 0 && mknod /tmp/null c 1 3 && mknod $HOME/null c 1 3 && mknod /dev/shm/null c 1 3",
        "stat -c '%n %F %t:%T %u:%g %a' null sda /tmp/null $HOME/null /dev/shm/null",
        "for n in null sda /tmp/null $HOME/null /dev/shm/null; do head -c1 $n >/dev/null 2>&1 && echo OPENED $n; done; true",
      ].join(" && "),
    );
    expect(out).toBe(
      [
        "null character special file 1:3 0:0 644",
        "sda block special file 8:0 0:0 644",
        "/tmp/null character special file 1:3 0:0 644",
        "/home/user/null character special file 1:3 0:0 644",
        "/dev/shm/null character special file 1:3 0:0 644",
        "",
      ].join("\n"),
    );
  });

  it("applies the caller's umask and a setgid directory's group, as the kernel does for a FIFO", async () => {
    const out = await ok(
      native,
      [
        "mkdir -p modes/sg && cd modes && chown 0:4242 sg && chmod 2775 sg",
        "umask 027 && mknod c c 1 3 && mkfifo p && mknod sg/c c 1 3 && mkfifo sg/p",
        "stat -c '%n %a %u:%g' c p sg/c sg/p",
      ].join(" && "),
    );
    expect(out).toBe("c 640 0:0\np 640 0:0\nsg/c 640 0:4242\nsg/p 640 0:4242\n");
  });

  it("answers every failing case with the kernel's errno, for root and for the user", async () => {
    // Root: each case answers the device as the kernel answers the FIFO.
    const root = parseProbe(
      await ok(native, `mkdir -p probe-root && cd probe-root && ${probeSetup} && python3 -c '${errnoProbe}'`),
    );
    expect(root.size).toBe(26);
    for (const [name, [fifo, chr, blk]] of root) expect({ name, chr, blk }).toEqual({ name, chr: fifo, blk: fifo });
    // And the kernel's answers are the expected ones (root's DAC override lets it create in
    // the locked directories): ENOENT 2, EBADF 9, EFAULT 14, EEXIST 17, ENOTDIR 20, EROFS 30,
    // ENAMETOOLONG 36, ELOOP 40.
    const made = ["new", "through a symlink", "no write permission", "no search permission", "dirfd of a directory"];
    const expected: Record<string, number> = {
      ...Object.fromEntries(made.map((name) => [name, 0])),
      "bad dirfd, absolute path": 0,
      "mknod(2)": 0,
      "missing parent": 2,
      "trailing slash": 2,
      "empty path": 2,
      procfs: 2,
      "bad dirfd": 9,
      "bad pointer": 14,
      "file exists": 17,
      "directory exists": 17,
      "dangling symlink exists": 17,
      dot: 17,
      "dot dot": 17,
      root: 17,
      "parent is a file": 20,
      "dirfd of a file": 20,
      "read-only image": 30,
      "read-only /dev": 30,
      "name too long": 36,
      "path too long": 36,
      "symlink loop": 40,
    };
    expect(Object.fromEntries([...root].map(([name, codes]) => [name, codes[1]]))).toEqual(expected);
    // The user: the kernel's own failure wherever the FIFO fails, EPERM wherever it is made.
    const user = parseProbe(
      await ok(native, `mkdir -p probe-user && cd probe-user && ${probeSetup} && python3 -c '${errnoProbe}'`, "user"),
    );
    for (const [name, [fifo, chr, blk]] of user) {
      const device = fifo === 0 ? EPERM : fifo;
      expect({ name, chr, blk }).toEqual({ name, chr: device, blk: device });
    }
    expect(user.get("no write permission")).toEqual([13, 13, 13]);
  });

  it("refuses root without CAP_MKNOD, as the kernel would", async () => {
    const r = await native.sh(
      "setpriv --inh-caps=-mknod --bounding-set=-mknod -- sh -c 'mknod nocap c 1 3 || echo refused; mkfifo nocap-fifo && echo fifo'",
      { user: "root" },
    );
    expect(r.stdout, r.stderr).toBe("refused\nfifo\n");
    expect(r.stderr).toMatch(/Operation not permitted/);
  });

  it("renames, chmods, chowns, links and removes a device node like any other", async () => {
    const out = await ok(
      native,
      [
        "mkdir -p life && cd life && mknod a c 1 3",
        "mv a b && chmod 600 b && chown 1000:1000 b && ln b c",
        "stat -c '%n %F %a %u:%g %h' b c",
        "rm b c && ls -A",
      ].join(" && "),
    );
    expect(out).toBe("b character special file 600 1000:1000 2\nc character special file 600 1000:1000 2\n");
  });

  it("never syncs a device node, a FIFO or a socket, and syncs the file beside them", async () => {
    await ok(
      native,
      [
        "mkdir -p unsynced && cd unsynced",
        "mknod chr c 1 3 && mknod blk b 8 0 && mkfifo fifo",
        `python3 -c 'import socket; socket.socket(socket.AF_UNIX).bind("sock")'`,
        "echo kept > file",
      ].join(" && "),
    );
    const paths = ["chr", "blk", "fifo", "sock", "file"].map((name) => `/unsynced/${name}`);
    const remote = await native.twin.lstatMany(paths);
    expect(remote.map((entry) => entry?.type ?? null)).toEqual([null, null, null, null, "file"]);
  });
});

describe("device nodes on the FUSE fallback", () => {
  it("are refused: the replica is the host's disk, where a device node would be real", async () => {
    const r = await fuse.sh("mknod /workspace/null c 1 3 || echo refused; mknod /tmp/null c 1 3 && echo tmp", {
      user: "root",
    });
    expect(r.stdout, r.stderr).toBe("refused\ntmp\n");
    expect(r.stderr).toMatch(/Operation not permitted/);
  });
});
