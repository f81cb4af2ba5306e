"""Asks the kernel directly, from inside a box, how it answers the calls seccomp.ts filters.

Used by seccomp.test.ts. Each probe runs in a forked child, so a probe that changes the
process (a new user namespace) cannot colour the next one, and one killed by the filter
(SIGSYS) is reported as such. Prints one JSON object: probe name -> "ok", an errno name, or
the signal that ended it. Numbers are raw system call numbers, [x86_64, aarch64], so the
probes reach the kernel exactly as written, past anything libc or a tool would check first.
"""

import ctypes
import errno
import json
import os
import platform
import signal
import socket

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
X64 = platform.machine() == "x86_64"
NUMBERS = {
    "mount": (165, 40),
    "keyctl": (250, 219),
    "bpf": (321, 280),
    "userfaultfd": (323, 282),
    "init_module": (175, 105),
    "io_uring_setup": (425, 425),
    "unshare": (272, 97),
    "clone": (56, 220),
    "clone3": (435, 435),
    "ioctl": (16, 29),
    "personality": (135, 92),
    "ptrace": (101, 117),
}
CLONE_NEWUSER = 0x10000000
CLONE_NEWNET = 0x40000000
TIOCSTI = 0x5412
PTRACE_ATTACH = 16


def raw(nr, *args):
    result = libc.syscall(ctypes.c_long(nr), *args)
    if result < 0:
        raise OSError(ctypes.get_errno(), f"syscall {nr}")
    return result


def call(name, *args):
    return raw(NUMBERS[name][0 if X64 else 1], *args)


def clone_and_reap(flags):
    pid = call("clone", ctypes.c_ulong(flags | signal.SIGCHLD), 0, 0, 0, 0)
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)


def ptrace_own_child():
    pid = os.fork()
    if pid == 0:
        signal.pause()
        os._exit(0)
    call("ptrace", PTRACE_ATTACH, pid, 0, 0)
    os.waitpid(pid, 0)
    os.kill(pid, signal.SIGKILL)


key = ctypes.c_char(b"x")
probes = {
    # A bad pointer for the filesystem type: the kernel answers EFAULT before it checks privilege.
    "mount": lambda: call("mount", b"x", b"/tmp", ctypes.c_void_p(1), 0, None),
    # KEYCTL_GET_KEYRING_ID of the session keyring, creating it: works for any user.
    "keyctl": lambda: call("keyctl", 0, -3, 1),
    "bpf": lambda: call("bpf", 0, None, 0),
    # UFFD_USER_MODE_ONLY: allowed to unprivileged users since Linux 5.11.
    "userfaultfd": lambda: call("userfaultfd", 1),
    "init_module": lambda: call("init_module", None, 0, b""),
    "io_uring_setup": lambda: call("io_uring_setup", 1, ctypes.create_string_buffer(120)),
    "unshare_newuser": lambda: call("unshare", CLONE_NEWUSER),
    "clone_newuser": lambda: clone_and_reap(CLONE_NEWUSER),
    "clone_newnet": lambda: clone_and_reap(CLONE_NEWNET),
    "clone_plain": lambda: clone_and_reap(0),
    # A zero-sized struct: EINVAL from the kernel, ENOSYS from the filter.
    "clone3": lambda: call("clone3", None, 0),
    # stdin is not a terminal: ENOTTY from the kernel, EPERM from the filter.
    "tiocsti": lambda: call("ioctl", 0, TIOCSTI, ctypes.byref(key)),
    # The kernel reads only the low 32 bits of the request; so must the filter.
    "tiocsti_high_bits": lambda: call("ioctl", 0, ctypes.c_ulong((1 << 32) | TIOCSTI), ctypes.byref(key)),
    "personality_query": lambda: call("personality", ctypes.c_ulong(0xFFFFFFFF)),
    # ADDR_NO_RANDOMIZE.
    "personality_no_aslr": lambda: call("personality", 0x0040000),
    "vsock": lambda: socket.socket(socket.AF_VSOCK, socket.SOCK_STREAM).close(),
    "ptrace_own_child": ptrace_own_child,
    # No call at all: the kernel's ENOSYS, not a kill.
    "nr_minus_one": lambda: raw(-1),
}
if X64:
    # getpid (39) with the x32 bit: ENOSYS on kernels without x32, a kill under the filter.
    probes["x32_getpid"] = lambda: raw(0x40000000 | 39)

answers = {}
for name, probe in probes.items():
    pid = os.fork()
    if pid == 0:
        try:
            probe()
            os._exit(0)
        except OSError as e:
            os._exit(e.errno or 255)
        except BaseException:
            os._exit(255)
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        answers[name] = signal.Signals(os.WTERMSIG(status)).name
    else:
        code = os.WEXITSTATUS(status)
        answers[name] = "ok" if code == 0 else errno.errorcode.get(code, str(code))
print(json.dumps(answers))
