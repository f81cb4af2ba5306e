/*
 * cubicle-mknod serve <socket-path> <launcher-uid>   (fd 3: the computer's user namespace)
 * cubicle-mknod launch <socket-path> <program> [args...]
 * cubicle-mknod start <uid> <socket-path | -> <program> [args...]
 *
 * Device nodes for a computer's boxes (README.md). `serve` is the supervisor computerd starts
 * once per computer: it listens on a unix socket only `launcher-uid` (the box user's host
 * uid, which the launch chain runs as before it enters the box) may connect to, in the box's
 * staging directory that no box sees, for the seccomp listeners that `launch` (launch.c)
 * sends from each command's launch chain, and answers every intercepted
 * mknod of a device (request.c reads it, make.c carries it out). Requests are served one at a
 * time: a box that floods them only queues its own calls (and the computer's other boxes'),
 * never more than one request's two short-lived processes at once. It prints `ready` once
 * listening and exits when stdin closes or on SIGTERM. `start` (start.c) is the head of that
 * launch chain: it joins the command's cgroups, gives root up and goes on as `launch`.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "mknod.h"

#if defined(__x86_64__)
#define NATIVE_AUDIT_ARCH 0xc000003eu /* AUDIT_ARCH_X86_64 */
#elif defined(__aarch64__)
#define NATIVE_AUDIT_ARCH 0xc00000b7u /* AUDIT_ARCH_AARCH64 */
#endif

int launch_main(int argc, char **argv);
int start_main(int argc, char **argv);

void warnx_(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("cubicle-mknod: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

/* poll slots: 0 stdin, 1 the listening socket, then hand-overs, then listeners. */
enum { SLOT_STDIN, SLOT_SOCKET, SLOT_FIRST };
static struct pollfd slots[SLOT_FIRST + HANDOFFS_MAX + LISTENERS_MAX];
static int handoffs, listeners;
static uid_t launcher_uid;
static uint64_t userns_ino, userns_dev;
static struct request request;

static struct pollfd *handoff_slot(int i) { return &slots[SLOT_FIRST + i]; }
static struct pollfd *listener_slot(int i) { return &slots[SLOT_FIRST + HANDOFFS_MAX + i]; }

static int listen_on(const char *path, uid_t owner) {
  struct sockaddr_un addr = {.sun_family = AF_UNIX};
  if (strlen(path) >= sizeof addr.sun_path) return -1;
  strcpy(addr.sun_path, path);
  unlink(path);
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  // Only the launcher's uid (and root) may connect.
  mode_t old = umask(0077);
  int bound = fd < 0 ? -1 : bind(fd, (struct sockaddr *)&addr, sizeof addr);
  umask(old);
  if (bound < 0 || chown(path, owner, owner) < 0 || chmod(path, 0600) < 0 || listen(fd, HANDOFFS_MAX) < 0) return -1;
  return fd;
}

/* A listener from a launcher: kept if it really is one and there is room; the launcher hears which. */
static void take_listener(int i) {
  int conn = handoff_slot(i)->fd;
  char byte;
  char control[CMSG_SPACE(sizeof(int))] = {0};
  struct iovec iov = {.iov_base = &byte, .iov_len = 1};
  struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = control, .msg_controllen = sizeof control};
  ssize_t n = recvmsg(conn, &msg, MSG_CMSG_CLOEXEC | MSG_DONTWAIT);
  if (n < 0 && (errno == EAGAIN || errno == EINTR)) return;
  int fd = -1;
  struct cmsghdr *c = n > 0 ? CMSG_FIRSTHDR(&msg) : NULL;
  if (c && c->cmsg_type == SCM_RIGHTS && c->cmsg_len == CMSG_LEN(sizeof(int))) memcpy(&fd, CMSG_DATA(c), sizeof fd);
  // A seccomp listener answers ENOENT for an id it never issued; anything else is not one.
  __u64 none = 0;
  bool valid = fd >= 0 && ioctl(fd, SECCOMP_IOCTL_NOTIF_ID_VALID, &none) < 0 && errno == ENOENT;
  bool kept = valid && listeners < LISTENERS_MAX;
  if (kept) {
    *listener_slot(listeners++) = (struct pollfd){.fd = fd, .events = POLLIN};
  } else if (fd >= 0) {
    close(fd);
  }
  if (n > 0) (void)!write(conn, kept ? "y" : "n", 1);
  close(conn);
  *handoff_slot(i) = *handoff_slot(--handoffs);
}

static void accept_handoff(void) {
  int conn = accept4(slots[SLOT_SOCKET].fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
  if (conn < 0) return;
  struct ucred peer;
  socklen_t len = sizeof peer;
  bool trusted = getsockopt(conn, SOL_SOCKET, SO_PEERCRED, &peer, &len) == 0 && (peer.uid == launcher_uid || peer.uid == 0);
  if (!trusted || handoffs >= HANDOFFS_MAX) {
    close(conn);
    return;
  }
  *handoff_slot(handoffs++) = (struct pollfd){.fd = conn, .events = POLLIN};
}

/* One notification: read, checked, carried out, answered. Every path answers unless the caller is gone. */
static void serve_one(int listener) {
  struct seccomp_notif notif;
  memset(&notif, 0, sizeof notif);
  if (ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, &notif) < 0) return; // the caller died meanwhile
  struct seccomp_notif_resp resp = {.id = notif.id};
  int result = notif.data.arch == NATIVE_AUDIT_ARCH
                   ? request_read(&request, listener, &notif, userns_ino, userns_dev)
                   : EPERM;
  if (result == 0) result = request_make(&request);
  request_close(&request);
  resp.error = result ? -result : 0;
  // ENOENT here means the caller died while we worked: nothing is waiting for the answer.
  (void)ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &resp);
}

static void loop(void) {
  for (;;) {
    nfds_t count = SLOT_FIRST + HANDOFFS_MAX + (nfds_t)listeners;
    for (int i = handoffs; i < HANDOFFS_MAX; i++) handoff_slot(i)->fd = -1;
    if (poll(slots, count, -1) < 0) {
      if (errno == EINTR) continue;
      return;
    }
    if (slots[SLOT_STDIN].revents) {
      char buffer[64];
      if (read(0, buffer, sizeof buffer) <= 0) return;
    }
    if (slots[SLOT_SOCKET].revents & POLLIN) accept_handoff();
    for (int i = handoffs - 1; i >= 0; i--) {
      if (handoff_slot(i)->revents) take_listener(i);
    }
    for (int i = listeners - 1; i >= 0; i--) {
      short revents = listener_slot(i)->revents;
      if (revents & POLLIN) serve_one(listener_slot(i)->fd);
      else if (revents & (POLLHUP | POLLERR | POLLNVAL)) {
        // Every process of that box has exited: nothing can send on this listener again.
        close(listener_slot(i)->fd);
        *listener_slot(i) = *listener_slot(--listeners);
      }
    }
  }
}

static int serve_main(int argc, char **argv) {
  if (argc != 4) {
    warnx_("usage: cubicle-mknod serve <socket-path> <launcher-uid>   (fd 3: the computer's user namespace)");
    return 64;
  }
  launcher_uid = (uid_t)strtoul(argv[3], NULL, 10);
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  signal(SIGPIPE, SIG_IGN);
  struct stat ns;
  if (fstat(3, &ns) < 0) {
    warnx_("fd 3 must be the computer's user namespace: %s", strerror(errno));
    return 2;
  }
  userns_ino = (uint64_t)ns.st_ino;
  userns_dev = (uint64_t)ns.st_dev;
  request.groups = calloc(GROUPS_MAX, sizeof(gid_t));
  int sock = listen_on(argv[2], launcher_uid);
  if (sock < 0 || !request.groups) {
    warnx_("cannot listen on %s: %s", argv[2], strerror(errno));
    return 2;
  }
  slots[SLOT_STDIN] = (struct pollfd){.fd = 0, .events = POLLIN};
  slots[SLOT_SOCKET] = (struct pollfd){.fd = sock, .events = POLLIN};
  printf("ready\n");
  fflush(stdout);
  loop();
  unlink(argv[2]);
  return 0;
}

int main(int argc, char **argv) {
  if (argc >= 2 && strcmp(argv[1], "serve") == 0) return serve_main(argc, argv);
  if (argc >= 2 && strcmp(argv[1], "launch") == 0) return launch_main(argc, argv);
  if (argc >= 2 && strcmp(argv[1], "start") == 0) return start_main(argc, argv);
  warnx_(
      "usage: cubicle-mknod (serve <socket-path> <launcher-uid> | launch <socket-path> <program> [args...] | start "
      "<uid> <socket-path | -> <program> [args...])");
  return 64;
}
