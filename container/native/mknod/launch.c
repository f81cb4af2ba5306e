/*
 * cubicle-mknod launch <socket-path> <program> [args...]
 *
 * Runs in a command's launch chain after setpriv (the box user's host uid, no capabilities,
 * no_new_privs) and before bwrap, so everything the box runs inherits the filter. It installs
 * a seccomp filter that hands mknod and mknodat of a character or block device to a listener
 * (SECCOMP_RET_USER_NOTIF) and lets every other call through, sends the listener over the
 * socket `fd` (a connection computerd opened to this computer's `cubicle-mknod serve`), waits
 * for the supervisor to say it keeps it, closes both, and runs the program as its reaping
 * parent (reap.c: what bwrap leaves behind must not fall to computerd). A listener
 * nobody serves would turn every device mknod into ENOSYS, so any failure here ends the
 * command (exit 125) instead of starting it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

#include "mknod.h"

#if defined(__x86_64__)
#define NATIVE_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define NATIVE_AUDIT_ARCH AUDIT_ARCH_AARCH64
#else
#error "cubicle-mknod: no audit architecture for this machine"
#endif

#define ARG_LOW(n) (offsetof(struct seccomp_data, args) + 8 * (n)) /* little-endian: the low word first */

/*
 * Another architecture's calls (i386, x32) pass: the box's main filter kills them. The mode
 * is read as the kernel reads it, the low bits of the register (umode_t); S_IFMT lies in them.
 */
static struct sock_filter program[] = {
    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NATIVE_AUDIT_ARCH, 0, 3),
    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
#ifdef SYS_mknod
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_mknod, 2, 0),
#else
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0xffffffff, 2, 0), /* no mknod here: never taken */
#endif
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_mknodat, 3, 0),
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG_LOW(1)), /* mknod(path, mode, dev) */
    BPF_JUMP(BPF_JMP | BPF_JA, 1, 0, 0),
    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG_LOW(2)), /* mknodat(dirfd, path, mode, dev) */
    BPF_STMT(BPF_ALU | BPF_AND | BPF_K, S_IFMT),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, S_IFCHR, 2, 0),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, S_IFBLK, 1, 0),
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
};

static void fail(const char *what) {
  warnx_("cannot hand device mknod to the supervisor: %s: %s", what, strerror(errno));
  exit(125);
}

static int install(void) {
  struct sock_fprog prog = {.len = sizeof program / sizeof program[0], .filter = program};
  // WAIT_KILLABLE_RECV: once the supervisor has the request, only death takes the caller out
  // of the call (request.c relies on it); kernels before 5.19 lack it and get the plain flag.
  long fd = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
                    SECCOMP_FILTER_FLAG_NEW_LISTENER | SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV, &prog);
  if (fd < 0 && errno == EINVAL) fd = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
  return (int)fd;
}

int launch_main(int argc, char **argv) {
  if (argc < 4) {
    warnx_("usage: cubicle-mknod launch <socket-path> <program> [args...]");
    return 64;
  }
  struct sockaddr_un addr = {.sun_family = AF_UNIX};
  if (strlen(argv[2]) >= sizeof addr.sun_path) {
    errno = ENAMETOOLONG;
    fail(argv[2]);
  }
  strcpy(addr.sun_path, argv[2]);
  int sock = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (sock < 0 || connect(sock, (struct sockaddr *)&addr, sizeof addr) < 0) fail("connect");
  if (prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) != 1) {
    errno = EPERM;
    fail("no_new_privs is not set");
  }
  int listener = install();
  if (listener < 0) fail("seccomp");
  char byte = 'L';
  char control[CMSG_SPACE(sizeof(int))] = {0};
  struct iovec iov = {.iov_base = &byte, .iov_len = 1};
  struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = control, .msg_controllen = sizeof control};
  struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
  c->cmsg_level = SOL_SOCKET;
  c->cmsg_type = SCM_RIGHTS;
  c->cmsg_len = CMSG_LEN(sizeof(int));
  memcpy(CMSG_DATA(c), &listener, sizeof listener);
  if (sendmsg(sock, &msg, MSG_NOSIGNAL) < 0) fail("sendmsg");
  ssize_t n;
  do n = read(sock, &byte, 1);
  while (n < 0 && errno == EINTR);
  if (n != 1 || byte != 'y') {
    errno = n < 0 ? errno : EBUSY;
    fail("the supervisor did not keep the listener");
  }
  close(listener);
  close(sock);
  exec_reaping(argv + 3);
  fail(argv[3]);
  return 125;
}
