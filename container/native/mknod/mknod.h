/*
 * cubicle-mknod: shared declarations. README.md says what the program is for, how a box's
 * mknod of a device reaches it, and why each step is safe.
 */
#pragma once

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/* Every limit the program holds itself to, each with the reason it exists. */
enum {
  /* Boxes served at once: computerd runs at most 64 commands (daemonLimits.runningExecsMax); the rest is headroom. */
  LISTENERS_MAX = 256,
  /* Hand-over connections whose listener has not arrived yet; computerd opens one per command it starts. */
  HANDOFFS_MAX = 64,
  /* Supplementary groups kept from a caller: the kernel's NGROUPS_MAX, so no caller is ever cut short. */
  GROUPS_MAX = 65536,
  /* /proc/<tid>/status read whole: 65,536 groups of up to 10 digits and a space, plus the other lines. */
  STATUS_BYTES_MAX = GROUPS_MAX * 11 + 8192,
  /* uid_map and gid_map lines kept: the kernel allows 340. */
  MAP_LINES_MAX = 340,
  /*
   * Seconds one request may take before its workers are killed and the caller gets EIO. A
   * lookup in the box never blocks that long (no network filesystem is reachable there);
   * the bound keeps one stuck request from holding every later one of the computer.
   */
  REQUEST_SECONDS_MAX = 10,
};

/* Exit statuses of the caller-context child (make.c): an errno to answer, or "make it". */
enum { CHILD_MAKE_IT = 255 };

/* One intercepted mknod, as read from the kernel's notification and /proc. */
struct request {
  uint64_t id;
  pid_t tid;
  /* The raw system call arguments, passed on unchanged so the kernel decodes them as it would have. */
  uint64_t mode_raw;
  uint64_t dev_raw;
  char path[PATH_MAX];
  /* The caller's credentials as host ids (read from the host, /proc shows host ids). */
  uid_t uid[4]; /* real, effective, saved, filesystem */
  gid_t gid[4];
  gid_t *groups;
  int groups_count;
  uint64_t cap_effective;
  mode_t umask;
  /* The caller's user namespace's uid and gid maps (host view: first, lower, count). */
  uint32_t uid_map[MAP_LINES_MAX][3];
  int uid_map_lines;
  uint32_t gid_map[MAP_LINES_MAX][3];
  int gid_map_lines;
  /* Descriptors opened from /proc before the request was checked still valid. */
  int root_fd; /* the caller's root: the box's / */
  int base_fd; /* the directory a relative path starts from, or -1 for an absolute path */
  int userns_fd;
};

/* request.c: fills `rq` for one notification; answers 0, or the errno the caller gets. */
int request_read(struct request *rq, int listener, const void *notif, uint64_t userns_ino, uint64_t userns_dev);
void request_close(struct request *rq);

/* make.c: carries the request out; returns 0 or the errno the caller gets. */
int request_make(const struct request *rq);

/* Capabilities (linux/capability.h numbers). */
#define CAP_BIT(n) (1ULL << (n))
#define CAP_NUM_DAC_OVERRIDE 1
#define CAP_NUM_FSETID 4
#define CAP_NUM_MKNOD 27
int caps_set(uint64_t effective, uint64_t permitted);

void warnx_(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Runs argv (bwrap) as this process's child and reaps every descendant handed over; returns only if it could not start it (reap.c). */
void exec_reaping(char **argv);
