/**
 * The seccomp program: first read by a small interpreter of its bytes for both architectures
 * (aarch64 cannot run here), then installed by a real unprivileged bwrap, where the kernel's
 * own answers show it works and ordinary programs show it stays out of the way.
 * Needs root (to drop to the box's host uid), bwrap, python3 and git, as computerd does.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { allowedOnPurpose, deniedSyscalls, type SeccompArch, seccompProgram } from "./seccomp.ts";
import { syscallNumbers } from "./syscalls.ts";

const KILL_PROCESS = 0x8000_0000;
const ALLOW = 0x7fff_0000;
const EPERM = 0x0005_0001;
const ENOSYS = 0x0005_0026;
const auditArch = { x64: 0xc000_003e, arm64: 0xc000_00b7 } as const;
/** The 32-bit ABIs each 64-bit kernel also runs: AUDIT_ARCH_I386 and AUDIT_ARCH_ARM. */
const compatArch = { x64: 0x4000_0003, arm64: 0x4000_0028 } as const;
const getpid = { x64: 39, arm64: 172 } as const;

/** Runs the program over one `struct seccomp_data` as the kernel would; knows only the opcodes it emits. */
function verdict(program: Buffer, arch: number, nr: number, args: bigint[] = []): number {
  const data = Buffer.alloc(64);
  data.writeInt32LE(nr, 0);
  data.writeUInt32LE(arch, 4);
  for (const [i, arg] of args.entries()) data.writeBigUInt64LE(arg, 16 + 8 * i);
  let a = 0;
  for (let pc = 0; pc * 8 < program.length; pc++) {
    const [code, jt, jf, k] = [
      program.readUInt16LE(pc * 8),
      program.readUInt8(pc * 8 + 2),
      program.readUInt8(pc * 8 + 3),
      program.readUInt32LE(pc * 8 + 4),
    ];
    if (code === 0x20) a = data.readUInt32LE(k);
    else if (code === 0x15) pc += a === k ? jt : jf;
    else if (code === 0x35) pc += a >= k ? jt : jf;
    else if (code === 0x45) pc += (a & k) !== 0 ? jt : jf;
    else if (code === 0x06) return k;
    else throw new Error(`opcode ${code} at ${pc}`);
  }
  throw new Error("fell off the end of the program");
}

describe("seccompProgram", () => {
  it("refuses an architecture it has no table for", () => {
    expect(() => seccompProgram("ia32")).toThrow(/ia32/);
  });

  it("is whole sock_filter instructions, within the kernel's 4096", () => {
    for (const arch of ["x64", "arm64"]) {
      const program = seccompProgram(arch);
      expect(program.length % 8).toBe(0);
      expect(program.length / 8).toBeLessThanOrEqual(4096);
    }
  });

  // linux-libc-dev is the independent source; calls newer than its headers are not checked.
  const headers = {
    x64: "/usr/include/x86_64-linux-gnu/asm/unistd_64.h",
    arm64: "/usr/include/asm-generic/unistd.h",
  } as const;
  it.skipIf(!existsSync(headers.x64) || !existsSync(headers.arm64))("numbers calls as the kernel headers do", () => {
    (["x64", "arm64"] as const).forEach((arch, column) => {
      const text = readFileSync(headers[arch], "utf8");
      for (const [name, numbers] of Object.entries(syscallNumbers)) {
        const found = new RegExp(`^#define __NR_${name}\\s+(\\d+)`, "m").exec(text);
        if (found) expect([name, numbers[column]]).toEqual([name, Number(found[1])]);
        else if (numbers[column] !== null) expect(numbers[column], name).toBeGreaterThan(450);
      }
    });
  });

  describe.each(["x64", "arm64"] as const)("on %s", (arch: SeccompArch) => {
    const program = seccompProgram(arch);
    const native = auditArch[arch];
    const nr = (name: keyof typeof syscallNumbers) => syscallNumbers[name][arch === "x64" ? 0 : 1] as number;
    const run = (name: keyof typeof syscallNumbers, ...args: bigint[]) => verdict(program, native, nr(name), args);

    it("kills calls of the 32-bit ABI, and on x86_64 of x32", () => {
      expect(verdict(program, compatArch[arch], getpid[arch])).toBe(KILL_PROCESS);
      expect(verdict(program, native, 0x4000_0000 | getpid[arch])).toBe(arch === "x64" ? KILL_PROCESS : ALLOW);
      expect(verdict(program, native, -1)).toBe(ALLOW);
    });

    it("answers every unconditional denial with its errno, and lets ordinary calls through", () => {
      for (const rule of deniedSyscalls.filter((r) => !r.test)) {
        if (syscallNumbers[rule.name][arch === "x64" ? 0 : 1] === null) continue;
        expect([rule.name, run(rule.name)]).toEqual([rule.name, rule.errno === "EPERM" ? EPERM : ENOSYS]);
      }
      expect(verdict(program, native, getpid[arch])).toBe(ALLOW);
      for (const { name } of allowedOnPurpose) expect(run(name)).toBe(ALLOW);
    });

    it("reads arguments on their low 32 bits, as the kernel does", () => {
      const high = 0xdead_0000_0000_0000n;
      expect(run("clone", 0x1000_0011n)).toBe(EPERM); // CLONE_NEWUSER | SIGCHLD
      expect(run("clone", high | 0x11n)).toBe(ALLOW); // fork: high bits the kernel ignores
      expect(run("clone", 0x003d_0f00n)).toBe(ALLOW); // glibc's thread flags
      expect(run("ioctl", 0n, high | 0x5412n)).toBe(EPERM); // TIOCSTI
      expect(run("ioctl", 0n, 0x541cn)).toBe(EPERM); // TIOCLINUX
      expect(run("ioctl", 0n, 0x5401n)).toBe(ALLOW); // TCGETS
      expect(run("personality", 0xffff_ffffn)).toBe(ALLOW);
      expect(run("personality", 0x8n)).toBe(ALLOW);
      expect(run("personality", 0x0040_0000n)).toBe(EPERM); // READ_IMPLIES_EXEC
      expect(run("socket", 40n)).toBe(EPERM); // AF_VSOCK
      expect(run("socket", 2n)).toBe(ALLOW); // AF_INET
    });
  });
});

const here = dirname(fileURLToPath(import.meta.url));
const node = realpathSync(join(here, "../../../node_modules/.bin/node"));
const probe = readFileSync(join(here, "seccomp.probe.py"), "utf8");

interface Boxed {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs argv as the box does: an unprivileged host uid, bwrap's namespaces, and the program on fd 3. */
function boxed(argv: string[], filter = true): Promise<Boxed> {
  const args = [
    ...["--reuid", "100000", "--regid", "100000", "--clear-groups", "--", "bwrap", "--ro-bind", "/", "/"],
    // The runner's root will be an image without this checkout; node comes in by its real
    // path, after the tmpfs over /tmp, which would otherwise hide a checkout under /tmp.
    ...["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp", "--ro-bind", node, node],
    ...["--unshare-all", "--uid", "1000", "--gid", "1000", "--die-with-parent", "--clearenv"],
    ...["--setenv", "HOME", "/tmp", "--setenv", "PATH", "/usr/bin:/bin"],
    ...(filter ? ["--seccomp", "3"] : []),
    "--",
    ...argv,
  ];
  const child = spawn("setpriv", args, { stdio: ["ignore", "pipe", "pipe", filter ? "pipe" : "ignore"] });
  // bwrap reads the program until end of file, so the write end closes right after it.
  if (filter) (child.stdio[3] as NodeJS.WritableStream).end(seccompProgram());
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (d: Buffer) => {
    stdout += d;
  });
  child.stderr?.on("data", (d: Buffer) => {
    stderr += d;
  });
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

const probeAnswers = async (filter: boolean) => {
  const r = await boxed(["/usr/bin/python3", "-c", probe], filter);
  expect(r.stderr).toBe("");
  return JSON.parse(r.stdout) as Record<string, string>;
};

describe("inside a box", () => {
  it("turns the kernel's answers into the filter's", async () => {
    const [without, within] = await Promise.all([probeAnswers(false), probeAnswers(true)]);
    // Without the filter the same box could nest a user namespace, and the kernel, not a filter, answers.
    expect(without).toMatchObject({
      unshare_newuser: "ok",
      clone_newuser: "ok",
      mount: "EFAULT",
      clone3: "EINVAL",
      tiocsti: "ENOTTY",
    });
    expect(within).toEqual({
      mount: "EPERM",
      keyctl: "EPERM",
      bpf: "EPERM",
      userfaultfd: "EPERM",
      init_module: "EPERM",
      io_uring_setup: "EPERM",
      unshare_newuser: "EPERM",
      clone_newuser: "EPERM",
      clone_newnet: "EPERM",
      clone_plain: "ok",
      clone3: "ENOSYS",
      tiocsti: "EPERM",
      tiocsti_high_bits: "EPERM",
      personality_query: "ok",
      personality_no_aslr: "EPERM",
      vsock: "EPERM",
      ptrace_own_child: "ok",
      nr_minus_one: "ENOSYS",
      ...(process.arch === "x64" ? { x32_getpid: "SIGSYS" } : {}),
    });
  });

  it("stops util-linux's unshare and mount", async () => {
    // mount(8) refuses a non-root user before its system call; the probe above shows the call's own answer.
    const r = await boxed([
      "/bin/bash",
      "-c",
      "unshare -U true; echo unshare=$?; mount -t tmpfs x /tmp; echo mount=$?",
    ]);
    expect(r.stdout).toMatch(/^unshare=1\nmount=(1|32)\n$/);
    expect(r.stderr).toMatch(/unshare failed: Operation not permitted/);
  });

  it("runs bash, a forked child and git", async () => {
    const script = [
      "(exit 3); echo child=$?",
      "cd /tmp && git init -q repo && cd repo && echo hi > f && git add f",
      "git -c user.name=box -c user.email=box@example.com commit -qm first && git log --format=%s",
    ].join("\n");
    const r = await boxed(["/bin/bash", "-c", script]);
    expect(r).toMatchObject({ code: 0, stdout: "child=3\nfirst\n" });
  });

  it("runs python threads", async () => {
    const script = [
      "import threading",
      "out = []",
      "ts = [threading.Thread(target=out.append, args=(i,)) for i in range(8)]",
      "[t.start() for t in ts]; [t.join() for t in ts]",
      "print(sorted(out))",
    ].join("\n");
    const r = await boxed(["/usr/bin/python3", "-c", script]);
    expect(r).toMatchObject({ code: 0, stdout: "[0, 1, 2, 3, 4, 5, 6, 7]\n" });
  });

  it("runs node with a worker thread", async () => {
    const script = `const { Worker } = require("node:worker_threads");
      new Worker("require('node:worker_threads').parentPort.postMessage(6 * 7)", { eval: true })
        .on("message", (m) => console.log("worker says", m));`;
    const r = await boxed([node, "-e", script]);
    expect(r, r.stderr).toMatchObject({ code: 0, stdout: "worker says 42\n" });
  });
});
