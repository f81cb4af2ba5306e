/*
 * cubicle-mknod start <uid> <socket-path | -> <program> [args...]
 *
 * The head of a command's launch chain, as computerd spawns it (root, the box's descriptors
 * 0-6 in place, CUBICLE_CGROUP_PROCS in the environment). It does in one process what a host
 * bash and setpriv did in two, each an exec that cost this machine about 3 ms of CPU
 * (docs/container-sandbox.md, "What a launch costs"):
 *
 *   1. closes every descriptor above 6 (libfuse opens /dev/fuse without close-on-exec, and a
 *      command that inherited it kept a dead daemon's mount waiting forever);
 *   2. joins the command's cgroups, writing its pid into each `cgroup.procs` path the
 *      variable lists (space-separated), while still root;
 *   3. gives root up for good, as `setpriv --reuid=<uid> --regid=<uid> --clear-groups
 *      --inh-caps=-all --bounding-set=-all --no-new-privs` did: the bounding set emptied and
 *      the ambient set cleared while it still may, no supplementary groups, the uid and gid
 *      set real, effective and saved, no capability in any set, and no_new_privs;
 *   4. then goes on as `launch` (launch.c) with the socket and the program (bwrap); with `-`
 *      for the socket (the computer's supervisor is down, so nobody would serve the filter's
 *      listener) it runs the program as its reaping parent without the filter, and a device
 *      mknod in the box gets the kernel's EPERM.
 *
 * Any failure before the program runs ends the command with 125, as the bash did when a
 * cgroup refused it: a command never runs outside its limits or as root by accident.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "mknod.h"

static void fail(const char *what) {
  warnx_("cannot start the command: %s: %s", what, strerror(errno));
  exit(125);
}

static void join_cgroups(void) {
  const char *list = getenv("CUBICLE_CGROUP_PROCS");
  if (list == NULL || *list == '\0') return;
  char pid[24];
  int len = snprintf(pid, sizeof pid, "%d\n", (int)getpid());
  char *paths = strdup(list);
  if (paths == NULL) fail("CUBICLE_CGROUP_PROCS");
  char *save = NULL;
  for (char *path = strtok_r(paths, " ", &save); path != NULL; path = strtok_r(NULL, " ", &save)) {
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0 || write(fd, pid, (size_t)len) != len) fail(path);
    close(fd);
  }
  free(paths);
}

/* The highest capability this kernel knows, as setpriv reads it. */
static int last_cap(void) {
  int fd = open("/proc/sys/kernel/cap_last_cap", O_RDONLY | O_CLOEXEC);
  char text[16] = {0};
  ssize_t n = fd < 0 ? -1 : read(fd, text, sizeof text - 1);
  if (fd >= 0) close(fd);
  return n > 0 ? atoi(text) : 63;
}

static void drop_root(uid_t uid) {
  int last = last_cap();
  for (int cap = 0; cap <= last; cap++) {
    if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) < 0 && errno != EINVAL) fail("the bounding set");
  }
  if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0) fail("the ambient set");
  if (setgroups(0, NULL) < 0) fail("setgroups");
  if (setresgid(uid, uid, uid) < 0) fail("setresgid");
  if (setresuid(uid, uid, uid) < 0) fail("setresuid");
  if (caps_set(0, 0) < 0) fail("capset");
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) fail("no_new_privs");
  uid_t r, e, s;
  gid_t gr, ge, gs;
  if (getresuid(&r, &e, &s) < 0 || getresgid(&gr, &ge, &gs) < 0 || r != uid || e != uid || s != uid || gr != uid ||
      ge != uid || gs != uid || getgroups(0, NULL) != 0) {
    errno = EPERM;
    fail("root was not given up");
  }
}

int start_main(int argc, char **argv) {
  if (argc < 5) {
    warnx_("usage: cubicle-mknod start <uid> <socket-path | -> <program> [args...]");
    return 64;
  }
  char *end = NULL;
  errno = 0;
  unsigned long uid = strtoul(argv[2], &end, 10);
  if (errno != 0 || end == argv[2] || *end != '\0' || uid == 0 || uid > 0xfffffffeUL) {
    errno = EINVAL;
    fail("the uid must be a number above 0");
  }
  if (syscall(SYS_close_range, 7U, ~0U, 0U) < 0) fail("close_range");
  join_cgroups();
  drop_root((uid_t)uid);
  if (strcmp(argv[3], "-") == 0) {
    exec_reaping(argv + 4);
    fail(argv[4]);
  }
  // launch.c reads its socket path and the program from argv[2] on: the same shape, one word less.
  return launch_main(argc - 1, argv + 1);
}
