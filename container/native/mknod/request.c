/*
 * Reading one intercepted mknod: its arguments from the notification, its path from the
 * caller's memory, its credentials, umask and user namespace from /proc, and descriptors of
 * the caller's root and starting directory.
 *
 * The order is what makes it safe against a caller that dies and a pid the kernel reuses:
 * everything is opened and read first, then SECCOMP_IOCTL_NOTIF_ID_VALID confirms the
 * notification still stands. The listener is installed with WAIT_KILLABLE_RECV, so a caller
 * whose notification was received cannot leave the call except by dying, and a dead caller's
 * notification is gone: a valid id therefore means the caller was alive, blocked in this very
 * call, through every read, and no other process could have held its pid meanwhile.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "mknod.h"

static char status_buffer[STATUS_BYTES_MAX];

/* Reads a whole small file into `buffer`; answers its length, or -1 with errno. */
static ssize_t read_all(int dir_fd, const char *name, char *buffer, size_t size) {
  int fd = openat(dir_fd, name, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  size_t used = 0;
  while (used < size - 1) {
    ssize_t n = read(fd, buffer + used, size - 1 - used);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int e = errno;
      close(fd);
      errno = e;
      return -1;
    }
    if (n == 0) break;
    used += (size_t)n;
  }
  close(fd);
  buffer[used] = 0;
  return (ssize_t)used;
}

/* The value after `key` at the start of a line of /proc/<tid>/status, or NULL. */
static const char *status_field(const char *status, const char *key) {
  size_t len = strlen(key);
  for (const char *line = status; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
    if (strncmp(line, key, len) == 0) return line + len;
  }
  return NULL;
}

static bool parse_ids(const char *field, unsigned ids[4]) {
  if (!field) return false;
  return sscanf(field, "%u %u %u %u", &ids[0], &ids[1], &ids[2], &ids[3]) == 4;
}

static bool parse_status(struct request *rq, const char *status) {
  unsigned ids[4];
  if (!parse_ids(status_field(status, "Uid:"), ids)) return false;
  for (int i = 0; i < 4; i++) rq->uid[i] = ids[i];
  if (!parse_ids(status_field(status, "Gid:"), ids)) return false;
  for (int i = 0; i < 4; i++) rq->gid[i] = ids[i];
  const char *umask_field = status_field(status, "Umask:");
  const char *caps = status_field(status, "CapEff:");
  const char *groups = status_field(status, "Groups:");
  unsigned umask_value;
  unsigned long long cap_value;
  if (!umask_field || sscanf(umask_field, "%o", &umask_value) != 1) return false;
  if (!caps || sscanf(caps, "%llx", &cap_value) != 1) return false;
  if (!groups) return false;
  rq->umask = (mode_t)umask_value;
  rq->cap_effective = cap_value;
  rq->groups_count = 0;
  for (const char *p = groups; *p && *p != '\n';) {
    char *end;
    unsigned long gid = strtoul(p, &end, 10);
    if (end == p) {
      p++;
      continue;
    }
    if (rq->groups_count >= GROUPS_MAX) return false;
    rq->groups[rq->groups_count++] = (gid_t)gid;
    p = end;
  }
  return true;
}

static int parse_map(const char *text, uint32_t map[][3]) {
  int lines = 0;
  for (const char *p = text; p && *p && lines < MAP_LINES_MAX; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
    if (sscanf(p, "%u %u %u", &map[lines][0], &map[lines][1], &map[lines][2]) == 3) lines++;
  }
  return lines;
}

/*
 * The path argument, read from the caller's memory page by page (a string that ends just
 * before an unmapped page must not fail), with the kernel's own answers: EFAULT when the
 * first byte cannot be read, ENAMETOOLONG when no NUL comes within PATH_MAX bytes, ENOENT
 * for the empty path.
 */
static int read_path(struct request *rq, int mem_fd, uint64_t address) {
  size_t used = 0;
  const size_t page = (size_t)sysconf(_SC_PAGESIZE);
  while (used < PATH_MAX) {
    uint64_t at = address + used;
    size_t chunk = page - (size_t)(at % page);
    if (chunk > PATH_MAX - used) chunk = PATH_MAX - used;
    ssize_t n = pread(mem_fd, rq->path + used, chunk, (off_t)at);
    if (n <= 0) return EFAULT;
    void *nul = memchr(rq->path + used, 0, (size_t)n);
    if (nul) return rq->path[0] ? 0 : ENOENT;
    used += (size_t)n;
  }
  return ENAMETOOLONG;
}

/*
 * Where a relative path starts: the caller's working directory, or its descriptor `dir_fd`.
 * O_PATH reopens whatever the descriptor names without opening it (a FIFO does not block, a
 * device is not touched); a name that is not a directory gives the kernel's ENOTDIR at the
 * mknodat that uses it.
 */
static int open_base(struct request *rq, int proc_fd, int dir_fd) {
  if (rq->path[0] == '/') return 0;
  if (dir_fd == AT_FDCWD) {
    rq->base_fd = openat(proc_fd, "cwd", O_PATH | O_CLOEXEC);
    return rq->base_fd < 0 ? EIO : 0;
  }
  if (dir_fd < 0) return EBADF;
  char name[32];
  snprintf(name, sizeof name, "fd/%d", dir_fd);
  rq->base_fd = openat(proc_fd, name, O_PATH | O_CLOEXEC);
  if (rq->base_fd < 0) return errno == ENOENT ? EBADF : ENOTDIR;
  return 0;
}

static int read_caller(struct request *rq, const struct seccomp_notif *n, int proc_fd) {
  uint64_t path_address;
  int dir_fd = AT_FDCWD;
  switch (n->data.nr) {
#ifdef SYS_mknod
  case SYS_mknod:
    path_address = n->data.args[0];
    rq->mode_raw = n->data.args[1];
    rq->dev_raw = n->data.args[2];
    break;
#endif
  case SYS_mknodat:
    dir_fd = (int)n->data.args[0];
    path_address = n->data.args[1];
    rq->mode_raw = n->data.args[2];
    rq->dev_raw = n->data.args[3];
    break;
  default:
    return ENOSYS;
  }
  if (read_all(proc_fd, "status", status_buffer, sizeof status_buffer) < 0) return EIO;
  if (!parse_status(rq, status_buffer)) return EIO;
  static char map_text[MAP_LINES_MAX * 36 + 1];
  if (read_all(proc_fd, "uid_map", map_text, sizeof map_text) < 0) return EIO;
  rq->uid_map_lines = parse_map(map_text, rq->uid_map);
  if (read_all(proc_fd, "gid_map", map_text, sizeof map_text) < 0) return EIO;
  rq->gid_map_lines = parse_map(map_text, rq->gid_map);
  int mem_fd = openat(proc_fd, "mem", O_RDONLY | O_CLOEXEC);
  if (mem_fd < 0) return EIO;
  int result = read_path(rq, mem_fd, path_address);
  close(mem_fd);
  if (result) return result;
  rq->root_fd = openat(proc_fd, "root", O_PATH | O_DIRECTORY | O_CLOEXEC);
  rq->userns_fd = openat(proc_fd, "ns/user", O_RDONLY | O_CLOEXEC);
  if (rq->root_fd < 0 || rq->userns_fd < 0) return EIO;
  return open_base(rq, proc_fd, dir_fd);
}

int request_read(struct request *rq, int listener, const void *notif, uint64_t userns_ino, uint64_t userns_dev) {
  const struct seccomp_notif *n = notif;
  rq->id = n->id;
  rq->tid = (pid_t)n->pid;
  rq->root_fd = rq->base_fd = rq->userns_fd = -1;
  char proc_path[32];
  snprintf(proc_path, sizeof proc_path, "/proc/%d", rq->tid);
  int proc_fd = open(proc_path, O_PATH | O_DIRECTORY | O_CLOEXEC);
  int result = proc_fd < 0 ? ESRCH : read_caller(rq, n, proc_fd);
  if (proc_fd >= 0) close(proc_fd);
  // Everything above may have read another process (a pid reused after the caller died):
  // only a notification still valid now proves it was the caller's.
  __u64 id = rq->id;
  if (ioctl(listener, SECCOMP_IOCTL_NOTIF_ID_VALID, &id) < 0) return ESRCH;
  if (result) return result;
  // Only the computer's own user namespace: another caller would be no box of this computer.
  struct stat ns;
  if (fstat(rq->userns_fd, &ns) < 0 || (uint64_t)ns.st_ino != userns_ino || (uint64_t)ns.st_dev != userns_dev) {
    return EPERM;
  }
  return 0;
}

void request_close(struct request *rq) {
  int *fds[] = {&rq->root_fd, &rq->base_fd, &rq->userns_fd};
  for (size_t i = 0; i < sizeof fds / sizeof fds[0]; i++) {
    if (*fds[i] >= 0) close(*fds[i]);
    *fds[i] = -1;
  }
}
