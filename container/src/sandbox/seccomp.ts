/**
 * The seccomp filter every box command runs under, compiled here by hand to classic BPF.
 *
 * No maintained npm library compiles seccomp filters (libseccomp has no kept-up Node binding),
 * so this file is a small generator meant to be audited in one sitting: the table of denied
 * system calls with a reason for each (`deniedSyscalls`, which docs/container-sandbox.md can
 * quote), a syscall number table per architecture (syscalls.ts), and a compiler of about forty lines that
 * turns them into `struct sock_filter` instructions. bwrap reads the bytes from a descriptor
 * (`--seccomp FD`, until end of file) and installs them with no_new_privs set once its own
 * setup (namespaces, mounts) is done; its pid 1 and the command both run under them.
 *
 * It is a denylist on top of the other walls, not an allowlist: the command is already an
 * unprivileged uid in its own user, pid, net, ipc, uts and mount namespaces with no
 * capabilities, so most calls below would fail anyway. The filter makes those answers certain,
 * keeps a nested user namespace (and the root-only kernel code it unlocks) out of reach, and
 * shuts kernel surfaces that need no privilege at all (io_uring, userfaultfd, keyrings). A
 * denylist lets through system calls added to the kernel later; that is the price of running
 * arbitrary Linux programs unchanged, and the reason the table is checked on every kernel bump.
 *
 * Shape of the program (every path ends in a return; jumps only go forward):
 *   1. the architecture must be the native one, else the process is killed;
 *   2. on x86_64, x32 system call numbers (bit 30) kill the process too;
 *   3. one self-contained block per denied call: `nr == N` → its test and its return;
 *   4. everything else is allowed.
 * Because steps 1–3 look only at the architecture and the number for every call that is not
 * in the table, the kernel's seccomp action cache (Linux ≥ 5.11) proves those calls always
 * allowed and skips the filter for them entirely.
 *
 * The program depends only on the architecture: build it once and hand the same bytes to
 * every bwrap.
 */

import { type SyscallName, syscallNumbers } from "./syscalls.ts";

/** An architecture this filter knows, named as `process.arch` names it. */
export type SeccompArch = "x64" | "arm64";

/**
 * What a denied call is told. EPERM is what the kernel itself answers for a missing privilege,
 * so programs already handle it; ENOSYS ("no such call") makes libc fall back to an older one.
 */
export type DeniedErrno = "EPERM" | "ENOSYS";

/** An argument test: the call is refused only when it holds. Only the low 32 bits are compared (see `loadArg`). */
export type ArgTest =
  /** Refused when the argument has any of these bits set. */
  | { arg: number; anyBitOf: number }
  /** Refused when the argument is one of these values. */
  | { arg: number; oneOf: readonly number[] }
  /** Refused unless the argument is one of these values. */
  | { arg: number; noneOf: readonly number[] };

export interface DeniedSyscall {
  name: SyscallName;
  /** When the call is refused, in words for the docs: "always" or a condition on its arguments. */
  when: string;
  errno: DeniedErrno;
  /** Why, in one line for the docs' table. */
  reason: string;
  /** Absent: every call is refused. */
  test?: ArgTest;
}

/** CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET (Docker's mask too). */
const cloneNamespaceFlags = 0x7e02_0000;
const mountApi = "The new mount API: the same power over the box's filesystem view as mount.";
const clockReason = "The clock is the host's: time namespaces only offset the monotonic and boot clocks.";

/**
 * Every call the filter refuses, in the order the program tests them. The calls with an
 * argument test come first: their answer depends on the arguments, so the kernel's action
 * cache cannot skip the filter for them, and busy calls like ioctl and clone then find their
 * block after a few comparisons instead of after the whole table.
 */
export const deniedSyscalls: readonly DeniedSyscall[] = [
  {
    name: "ioctl",
    when: "request is TIOCSTI or TIOCLINUX",
    errno: "EPERM",
    reason: "Both push input into a terminal, which may be shared with whoever started the box.",
    test: { arg: 1, oneOf: [0x5412, 0x541c] },
  },
  {
    name: "clone",
    when: "flags ask for a new namespace (CLONE_NEW*)",
    errno: "EPERM",
    reason: "The same door as unshare, opened while forking.",
    test: { arg: 0, anyBitOf: cloneNamespaceFlags },
  },
  {
    name: "socket",
    when: "family is AF_VSOCK",
    errno: "EPERM",
    reason:
      "vsock is not network-namespaced: it reaches the VM's host around the box's network namespace (Docker denies it too).",
    test: { arg: 0, oneOf: [40] },
  },
  {
    name: "personality",
    when: "persona other than 0, PER_LINUX32, UNAME26, both, or the 0xffffffff query",
    errno: "EPERM",
    reason: "Other flags switch off address randomisation or make data executable; Docker allows the same five values.",
    test: { arg: 0, noneOf: [0x0, 0x8, 0x2_0000, 0x2_0008, 0xffff_ffff] },
  },
  {
    name: "mount",
    when: "always",
    errno: "EPERM",
    reason: "Would reshape the box's filesystem view, which bwrap fixed before the command started.",
  },
  {
    name: "umount2",
    when: "always",
    errno: "EPERM",
    reason: "Would peel off the box's mounts (/tmp, /workspace) and show what lies under them.",
  },
  { name: "pivot_root", when: "always", errno: "EPERM", reason: "Would swap the box's root filesystem for another." },
  { name: "move_mount", when: "always", errno: "EPERM", reason: mountApi },
  { name: "open_tree", when: "always", errno: "EPERM", reason: mountApi },
  { name: "open_tree_attr", when: "always", errno: "EPERM", reason: mountApi },
  { name: "fsopen", when: "always", errno: "EPERM", reason: mountApi },
  { name: "fsconfig", when: "always", errno: "EPERM", reason: mountApi },
  { name: "fsmount", when: "always", errno: "EPERM", reason: mountApi },
  { name: "fspick", when: "always", errno: "EPERM", reason: mountApi },
  { name: "mount_setattr", when: "always", errno: "EPERM", reason: mountApi },
  {
    name: "unshare",
    when: "always",
    errno: "EPERM",
    reason: "A nested user namespace hands out capabilities and with them kernel code that is otherwise root-only.",
  },
  {
    name: "setns",
    when: "always",
    errno: "EPERM",
    reason: "Joining another namespace is never part of a command's work.",
  },
  {
    name: "clone3",
    when: "always",
    errno: "ENOSYS",
    reason: "Its flags sit in a struct seccomp cannot read; ENOSYS makes glibc fall back to clone, whose flags it can.",
  },
  {
    name: "bpf",
    when: "always",
    errno: "EPERM",
    reason: "eBPF programs and maps are a large kernel attack surface, and no command needs them.",
  },
  {
    name: "perf_event_open",
    when: "always",
    errno: "EPERM",
    reason: "Performance counters are kernel attack surface and a side channel on a shared host.",
  },
  {
    name: "userfaultfd",
    when: "always",
    errno: "EPERM",
    reason: "Stalling the kernel mid-copy on a page fault is a standard step in kernel exploits.",
  },
  {
    name: "io_uring_setup",
    when: "always",
    errno: "EPERM",
    reason:
      "The source of many recent kernel exploits, and its operations bypass seccomp; libuv and others fall back to plain calls (Docker denies it too).",
  },
  { name: "io_uring_enter", when: "always", errno: "EPERM", reason: "Only useful with a ring from io_uring_setup." },
  { name: "io_uring_register", when: "always", errno: "EPERM", reason: "Only useful with a ring from io_uring_setup." },
  {
    name: "keyctl",
    when: "always",
    errno: "EPERM",
    reason: "Kernel keyrings have a history of kernel bugs, and no command needs them.",
  },
  { name: "add_key", when: "always", errno: "EPERM", reason: "Kernel keyrings, as keyctl." },
  { name: "request_key", when: "always", errno: "EPERM", reason: "Kernel keyrings, as keyctl." },
  { name: "init_module", when: "always", errno: "EPERM", reason: "Loads code into the host's kernel." },
  { name: "finit_module", when: "always", errno: "EPERM", reason: "Loads code into the host's kernel." },
  { name: "delete_module", when: "always", errno: "EPERM", reason: "Unloads parts of the host's kernel." },
  { name: "kexec_load", when: "always", errno: "EPERM", reason: "Replaces the host's running kernel." },
  { name: "kexec_file_load", when: "always", errno: "EPERM", reason: "Replaces the host's running kernel." },
  {
    name: "open_by_handle_at",
    when: "always",
    errno: "EPERM",
    reason: "Opens files by handle, around the mounts that bound what the box sees (the 'shocker' container escape).",
  },
  { name: "name_to_handle_at", when: "always", errno: "EPERM", reason: "Makes the handles open_by_handle_at takes." },
  { name: "swapon", when: "always", errno: "EPERM", reason: "The host's swap configuration." },
  { name: "swapoff", when: "always", errno: "EPERM", reason: "The host's swap configuration." },
  {
    name: "reboot",
    when: "always",
    errno: "EPERM",
    reason: "Ends the host or, in a pid namespace, the box; the daemon owns the box's life.",
  },
  {
    name: "syslog",
    when: "always",
    errno: "EPERM",
    reason: "The kernel log leaks kernel addresses and other tenants' activity.",
  },
  { name: "acct", when: "always", errno: "EPERM", reason: "Process accounting writes host-wide records." },
  { name: "settimeofday", when: "always", errno: "EPERM", reason: clockReason },
  { name: "clock_settime", when: "always", errno: "EPERM", reason: clockReason },
  { name: "clock_adjtime", when: "always", errno: "EPERM", reason: clockReason },
  { name: "adjtimex", when: "always", errno: "EPERM", reason: clockReason },
  { name: "quotactl", when: "always", errno: "EPERM", reason: "Quota administration of the host's filesystems." },
  { name: "quotactl_fd", when: "always", errno: "EPERM", reason: "Quota administration, as quotactl." },
  { name: "iopl", when: "always", errno: "EPERM", reason: "Raw hardware I/O port access (x86 only)." },
  { name: "ioperm", when: "always", errno: "EPERM", reason: "Raw hardware I/O port access (x86 only)." },
  {
    name: "lookup_dcookie",
    when: "always",
    errno: "EPERM",
    reason: "An obsolete profiling interface into kernel dentries.",
  },
  {
    name: "vhangup",
    when: "always",
    errno: "EPERM",
    reason: "Hangs up the terminal, which may be shared with whoever started the box.",
  },
  {
    name: "chroot",
    when: "always",
    errno: "EPERM",
    reason: "Changing root is where chroot escapes begin, and the box's root is fixed.",
  },
];

/** Calls a reader might expect here, allowed on purpose; the docs quote these beside the denied ones. */
export const allowedOnPurpose: readonly { name: SyscallName; reason: string }[] = [
  {
    name: "ptrace",
    reason:
      "The box has its own pid namespace, so only its own processes are traceable (gdb, strace work); since Linux 4.8 seccomp re-checks a call a tracer changed.",
  },
  {
    name: "process_vm_readv",
    reason: "The same access check as ptrace attach, so the same reach: the box's own processes.",
  },
  {
    name: "process_vm_writev",
    reason: "The same access check as ptrace attach, so the same reach: the box's own processes.",
  },
];

/**
 * The native architecture's audit token (AUDIT_ARCH_* in linux/audit.h) and its column in
 * `syscallNumbers`. Any other token kills the process: on x86_64 that is i386 (`int 0x80`),
 * on aarch64 32-bit ARM. Their call numbers differ from the native ones, so a denylist keyed
 * on native numbers would let them straight past it; no 64-bit program uses them, a 32-bit
 * program cannot run without them, and a kill ("Bad system call") says so at once where
 * ENOSYS would leave a 32-bit loader crashing in odd places. x32 calls (x86_64 numbers with
 * bit 30 set) reach the same kernel functions under other numbers and are killed alike.
 */
const arches: Record<SeccompArch, { auditArch: number; column: 0 | 1; x32Bit: boolean }> = {
  x64: { auditArch: 0xc000_003e, column: 0, x32Bit: true },
  arm64: { auditArch: 0xc000_00b7, column: 1, x32Bit: false },
};

// Classic BPF as seccomp uses it (linux/filter.h, linux/seccomp.h).
const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const JSET_K = 0x45;
const RET_K = 0x06;
const RET_KILL_PROCESS = 0x8000_0000;
const RET_ALLOW = 0x7fff_0000;
const RET_ERRNO = 0x0005_0000;
const errnoValues: Record<DeniedErrno, number> = { EPERM: 1, ENOSYS: 38 };
/** Offsets in `struct seccomp_data`: int nr; u32 arch; u64 instruction_pointer; u64 args[6]. */
const NR_OFFSET = 0;
const ARCH_OFFSET = 4;
const ARGS_OFFSET = 16;
/** The kernel refuses longer programs (BPF_MAXINSNS). */
const INSTRUCTIONS_MAX = 4096;
const X32_SYSCALL_BIT = 0x4000_0000;

type Insn = [code: number, jt: number, jf: number, k: number];
const ret = (k: number): Insn => [RET_K, 0, 0, k];
const deny = (errno: DeniedErrno): Insn => ret(RET_ERRNO | errnoValues[errno]);

/**
 * Loads the low 32 bits of an argument (little-endian hosts keep them first). Every argument
 * tested here is 32 bits wide to the kernel: ioctl's request and personality's persona are
 * `unsigned int`, socket's family an `int`, and clone reads only `lower_32_bits(flags)`.
 * Comparing all 64 bits would be wrong: a caller could set high bits the kernel ignores and
 * slip past (Flatpak's TIOCSTI filter, CVE-2019-10063).
 */
const loadArg = (arg: number): Insn => [LD_W_ABS, 0, 0, ARGS_OFFSET + 8 * arg];

/** Tests the loaded value against each of `values`: a match ends in `onMatch`, none in `onMiss`. */
function matchAny(values: readonly number[], onMatch: Insn, onMiss: Insn): Insn[] {
  const n = values.length;
  // From the i-th test, `onMatch` sits n - i instructions ahead (after the rest and onMiss).
  return [...values.map((v, i): Insn => [JEQ_K, n - i, 0, v]), onMiss, onMatch];
}

/** One denied call's block: after the number check, every path returns. */
function ruleBody(rule: DeniedSyscall): Insn[] {
  const t = rule.test;
  if (!t) return [deny(rule.errno)];
  if ("anyBitOf" in t) return [loadArg(t.arg), [JSET_K, 0, 1, t.anyBitOf], deny(rule.errno), ret(RET_ALLOW)];
  if ("oneOf" in t) return [loadArg(t.arg), ...matchAny(t.oneOf, deny(rule.errno), ret(RET_ALLOW))];
  return [loadArg(t.arg), ...matchAny(t.noneOf, ret(RET_ALLOW), deny(rule.errno))];
}

/** The filter as bwrap's `--seccomp FD` wants it: `struct sock_filter[]`, 8 bytes each, little-endian. */
export function seccompProgram(arch: string = process.arch): Buffer {
  if (!(arch === "x64" || arch === "arm64")) throw new Error(`seccomp: no system call table for architecture ${arch}`);
  const { auditArch, column, x32Bit } = arches[arch];
  const insns: Insn[] = [[LD_W_ABS, 0, 0, ARCH_OFFSET], [JEQ_K, 1, 0, auditArch], ret(RET_KILL_PROCESS)];
  insns.push([LD_W_ABS, 0, 0, NR_OFFSET]);
  if (x32Bit) {
    // nr -1 is no call at all (the kernel answers ENOSYS; a tracer uses it to skip a call), not x32.
    insns.push([JEQ_K, 2, 0, 0xffff_ffff], [JGE_K, 0, 1, X32_SYSCALL_BIT], ret(RET_KILL_PROCESS));
  }
  for (const rule of deniedSyscalls) {
    const nr = syscallNumbers[rule.name][column];
    if (nr === null) continue;
    const body = ruleBody(rule);
    insns.push([JEQ_K, 0, body.length, nr], ...body);
  }
  insns.push(ret(RET_ALLOW));
  return encode(insns);
}

function encode(insns: readonly Insn[]): Buffer {
  if (insns.length > INSTRUCTIONS_MAX)
    throw new Error(`seccomp: ${insns.length} instructions, the kernel takes ${INSTRUCTIONS_MAX}`);
  const out = Buffer.alloc(insns.length * 8);
  insns.forEach(([code, jt, jf, k], i) => {
    if (jt > 255 || jf > 255) throw new Error(`seccomp: jump too long at instruction ${i}`);
    out.writeUInt16LE(code, i * 8);
    out.writeUInt8(jt, i * 8 + 2);
    out.writeUInt8(jf, i * 8 + 3);
    out.writeUInt32LE(k >>> 0, i * 8 + 4);
  });
  return out;
}
