/**
 * Root in the box (`user: "root"`): root over the box's own files and uids, and still an
 * unprivileged uid of the computer's range on the host, with no way out of the box.
 */
import { lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { boxLimits } from "./limits.ts";
import { useDaemon } from "./testing/harness.ts";

const fixture = useDaemon();
// A computer without `cubicle-mknod` launches with bash and setpriv instead (sandbox/box.ts).
const withoutLauncher = useDaemon(undefined, { COMPUTERD_MKNOD_BIN: "" });
const sh = (command: string, user?: "root" | "user") => fixture.sh(command, user ? { user } : {});
const base = boxLimits.hostUidDefault;
/** Docker's default capabilities for a container's root (boxLimits.rootCaps), as /proc shows them. */
const dockerCaps = "00000000a80425fb";

async function ok(command: string, user?: "root" | "user"): Promise<string> {
  const r = await sh(command, user);
  expect(r.outcome, r.stderr).toMatchObject({ status: "completed", exitCode: 0 });
  return r.stdout;
}

describe("the box's users", () => {
  it("runs as the user 1000 by default and as root when asked", async () => {
    expect(await ok("id -u; id -g; echo $USER $HOME")).toBe("1000\n1000\nuser /home/user\n");
    expect(await ok("id -u; id -g; echo $USER $HOME", "root")).toBe("0\n0\nroot /home/user\n");
  });

  it("gives root Docker's default capabilities, no_new_privs and seccomp, and the user none", async () => {
    const status = "grep -E '^(CapEff|CapBnd|NoNewPrivs|Seccomp):' /proc/self/status";
    const root = await ok(status, "root");
    expect(root).toMatch(new RegExp(`CapEff:\\s+${dockerCaps}`));
    expect(root).toMatch(new RegExp(`CapBnd:\\s+${dockerCaps}`));
    expect(root).toMatch(/NoNewPrivs:\s+1/);
    expect(root).toMatch(/Seccomp:\s+2/);
    const user = await ok(status);
    expect(user).toMatch(/CapEff:\s+0{16}/);
    expect(user).toMatch(/CapBnd:\s+0{16}/);
  });

  it("maps box uids 0–65535 onto the computer's host range, and root is its first uid", async () => {
    expect(await ok("cat /proc/self/uid_map /proc/self/gid_map", "root")).toMatch(
      new RegExp(`^\\s*0\\s+${base}\\s+65536\\n\\s*0\\s+${base}\\s+65536\\n$`),
    );
    // The box's /tmp is a tmpfs computerd mounted on the host: what root makes there is the base uid's.
    const name = `root-probe-${Date.now()}`;
    await ok(
      `touch /tmp/${name}; setpriv --reuid=65534 --regid=65534 --clear-groups touch /tmp/${name}.nobody`,
      "root",
    );
    const staging = "/run/cubicle-box";
    const tmp = readdirSync(staging)
      .map((id) => join(staging, id, "tmp"))
      .find((dir) => lstatSync(join(dir, name), { throwIfNoEntry: false }));
    expect(tmp).toBeDefined();
    expect(lstatSync(join(tmp as string, name)).uid).toBe(base);
    expect(lstatSync(join(tmp as string, `${name}.nobody`)).uid).toBe(base + 65534);
  });

  it("lets root own workspace files as any box uid, and the owner use them", async () => {
    const out = await ok(
      [
        "mkdir -p own && cd own",
        "touch by-root && mkdir shared && chmod 0755 shared && chown 65534:65534 shared",
        "setpriv --reuid=65534 --regid=65534 --clear-groups sh -c 'echo hi > shared/by-nobody'",
        "stat -c '%n %u:%g' by-root shared shared/by-nobody",
      ].join("; "),
      "root",
    );
    expect(out).toBe("by-root 0:0\nshared 65534:65534\nshared/by-nobody 65534:65534\n");
    // The box user cannot write into nobody's directory, as on any system.
    const denied = await sh("echo x > own/shared/by-user");
    expect(denied.outcome.exitCode).not.toBe(0);
    const replica = join(fixture.daemon.stateDir, "replica/own");
    expect(lstatSync(join(replica, "by-root")).uid).toBe(base);
    expect(lstatSync(join(replica, "shared/by-nobody")).uid).toBe(base + 65534);
  });
});

describe("a computer without cubicle-mknod", () => {
  it("gives its boxes the same users, capabilities, no_new_privs and seccomp, and no inherited descriptor", async () => {
    const probe =
      "id; grep -E '^(Uid|Gid|Groups|Cap[A-Za-z]+|NoNewPrivs|Seccomp):' /proc/self/status; ls /proc/self/fd | sort -n";
    for (const user of ["user", "root"] as const) {
      const expected = await ok(probe, user);
      const r = await withoutLauncher.sh(probe, { user });
      expect(r.outcome, r.stderr).toMatchObject({ status: "completed", exitCode: 0 });
      expect(r.stdout).toBe(expected);
    }
  });
});

describe("root in the box stays in the box", () => {
  it("cannot mount, make or enter namespaces, load modules, chroot or reconfigure the kernel", async () => {
    const attempts = {
      mount: "mount -t tmpfs none /tmp",
      remountImage: "mount -o remount,rw /",
      umountWorkspace: "umount -l /workspace",
      unshareUser: "unshare -U -r true",
      unshareMount: "unshare -m true",
      unshareNet: "unshare -n true",
      nsenter: "nsenter -t 1 -m true",
      insmod: `python3 -c "import ctypes,sys; l=ctypes.CDLL(None, use_errno=True); r=l.syscall(313, -1, b'', 0); sys.exit(0 if r==0 else 1)"`,
      chroot: "chroot / true",
      hostname: "hostname elsewhere",
      userns: "echo 10 > /proc/sys/user/max_user_namespaces",
      corePattern: "echo core > /proc/sys/kernel/core_pattern",
      sysrq: "echo 1 > /proc/sysrq-trigger",
      link: "ip link add dummy0 type dummy",
      route: "ip addr add 10.9.9.9/32 dev lo",
      writeImage: "echo x > /usr/bin/probe",
      writeEtc: "echo x >> /etc/passwd",
      // Device nodes can be made (exec.devices.test.ts) but never opened: every writable mount is nodev.
      openBlockDevice: "mknod /workspace/sda b 8 0 && head -c1 /workspace/sda",
      openCharDevice: "mknod /tmp/mem c 1 1 && head -c1 /tmp/mem",
    };
    const script = Object.entries(attempts)
      .map(([name, cmd]) => `(${cmd}) >/dev/null 2>&1 && echo "ALLOWED ${name}";`)
      .join(" ");
    expect(await ok(`${script} true`, "root")).toBe("");
  });

  it("opens no host device and sees no host process, computerd least of all", async () => {
    expect(await ok("ls /dev", "root")).not.toMatch(/\b(sd[a-z]|nvme|vd[a-z]|mem|kmem|kmsg|fuse)\b/);
    expect(
      await ok("for d in /dev/sda /dev/mem /dev/kmsg /dev/fuse; do head -c1 $d 2>/dev/null; done | wc -c", "root"),
    ).toBe("0\n");
    // Nothing of the host to ptrace: the box's pid namespace holds its own processes only.
    const procs = await ok("for p in /proc/[0-9]*; do cat $p/comm; done", "root");
    expect(procs).not.toMatch(/node|computerd|workerd/);
    expect(procs.trim().split("\n").length).toBeLessThan(6);
  });
});
