/*
 * Placeholders made on computerd's behalf: Node has no xattr call, and the helper already
 * owns the placeholder's format. `place` builds the file unnamed (O_TMPFILE) with its size,
 * owner, mode, mtime and key, then links it into place, so no process ever sees a
 * placeholder without its key (which would get the inode ignored for good), and a pull
 * replacing a file swaps the inode atomically. Paths resolve beneath the mount root with
 * no symlinks and no other mounts: a container cannot redirect a placement elsewhere.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "native.h"

struct placement {
  struct job job; /* first, so a job is its placement */
  uint64_t seq, size;
  mode_t mode;
  uid_t uid;
  gid_t gid;
  struct timespec mtime;
  char *path; /* relative to the mount root */
  unsigned char *key;
  size_t key_len;
  bool only_new; /* `new`: a name already taken stays as it is (EEXIST) */
  int result;
  ino_t ino;
};

static int open_beneath(const char *dir) {
  struct open_how how = {
      .flags = O_PATH | O_DIRECTORY | O_CLOEXEC,
      .resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_XDEV | RESOLVE_NO_MAGICLINKS,
  };
  return (int)syscall(SYS_openat2, H.place_fd, *dir ? dir : ".", &how, sizeof how);
}

/*
 * Sets the unnamed file's size and writes its first block. No pre-content event is raised:
 * the file has no mark until `build` is done (only placeholders carry one, and only once
 * complete), so the helper never has to answer itself.
 */
static int set_size(int fd, uint64_t size) {
  if (size == 0) return 0;
  if (ftruncate(fd, (off_t)size) < 0) return -1;
  // Its first block is data, not hole (PLACEHOLDER_DATA_BYTES).
  static const char zeros[PLACEHOLDER_DATA_BYTES];
  size_t head = size < sizeof zeros ? (size_t)size : sizeof zeros;
  return pwrite(fd, zeros, head, 0) == (ssize_t)head ? 0 : -1;
}

/*
 * The unnamed file, complete: owner, size, key, mode, times, and last the mark that holds
 * its first reader (an inode mark, before the file has a name, so no process can reach it
 * unwatched). It is made with its mode (the umask is 0, main() sets it), and fchown keeps
 * every bit but set-uid and set-gid, so only those need a second chmod.
 */
static int build(struct placement *p, int dir) {
  int fd = openat(dir, ".", O_TMPFILE | O_RDWR | O_CLOEXEC, p->mode & 0777);
  if (fd < 0) return -1;
  struct timespec times[2] = {p->mtime, p->mtime};
  if (fchown(fd, p->uid, p->gid) < 0 || set_size(fd, p->size) < 0 ||
      fsetxattr(fd, PLACEHOLDER_XATTR, p->key, p->key_len, 0) < 0 ||
      ((p->mode & ~0777u) && fchmod(fd, p->mode) < 0) || futimens(fd, times) < 0 || watch_placeholder(fd) < 0) {
    int err = errno;
    close(fd);
    errno = err;
    return -1;
  }
  return fd;
}

/*
 * Links the file at its name: directly when the name is free, else (unless only_new)
 * beside it and renamed over it.
 */
static int link_into_place(struct placement *p, int fd, int dir, const char *name) {
  if (linkat(fd, "", dir, name, AT_EMPTY_PATH) == 0) return 0;
  if (errno != EEXIST || p->only_new) return errno;
  char temp[64];
  snprintf(temp, sizeof temp, ".cubicle-place-%d-%llu", (int)H.self_pid, (unsigned long long)p->seq);
  if (linkat(fd, "", dir, temp, AT_EMPTY_PATH) < 0) return errno;
  if (renameat(dir, temp, dir, name) == 0) return 0;
  int err = errno;
  unlinkat(dir, temp, 0);
  return err;
}

static void place_job(struct job *job) {
  struct placement *p = (struct placement *)job;
  char *slash = strrchr(p->path, '/');
  char *name = slash ? slash + 1 : p->path;
  if (slash) *slash = '\0';
  if (!*name || !strcmp(name, ".") || !strcmp(name, "..")) {
    p->result = EINVAL;
    return;
  }
  int dir = open_beneath(slash ? p->path : "");
  if (dir < 0) {
    p->result = errno;
    return;
  }
  int fd = build(p, dir);
  if (fd < 0) {
    p->result = errno;
  } else {
    struct stat st;
    p->result = link_into_place(p, fd, dir, name);
    if (!p->result && fstat(fd, &st) == 0) p->ino = st.st_ino;
    close(fd);
  }
  close(dir);
}

int watch_file_at(int dir, const char *name, bool only_placeholder) {
  /* Opening reads nothing, so raises no event; fanotify_mark refuses an O_PATH fd. */
  int fd = openat(dir, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) return errno;
  struct stat st;
  int result = 0;
  if (fstat(fd, &st) < 0) result = errno;
  else if (!S_ISREG(st.st_mode)) result = EINVAL;
  else if (only_placeholder && fgetxattr(fd, PLACEHOLDER_XATTR, NULL, 0) < 0) result = errno;
  else if (watch_placeholder(fd) < 0) result = errno;
  close(fd);
  return result;
}

int watch_path(const char *path) {
  char *copy = strdup(path);
  if (!copy) return ENOMEM;
  char *slash = strrchr(copy, '/');
  const char *name = slash ? slash + 1 : copy;
  if (slash) *slash = '\0';
  int dir = *name ? open_beneath(slash ? copy : "") : -1;
  int result = !*name ? EINVAL : dir < 0 ? errno : watch_file_at(dir, name, false);
  if (dir >= 0) close(dir);
  free(copy);
  return result;
}

static void place_done(struct job *job) {
  struct placement *p = (struct placement *)job;
  out_text("{\"t\":\"placed\",\"seq\":");
  out_uint(p->seq);
  if (p->result) {
    out_text(",\"errno\":");
    out_uint((uint64_t)p->result);
  } else {
    out_text(",\"ino\":");
    out_uint(p->ino);
  }
  out_text("}\n");
  free(p->path);
  free(p->key);
  free(p);
}

/* `place <seq> <path> <size> <mode> <uid> <gid> <mtime ns> <key> [new]`, path and key %-escaped; words[0] is "place". */
void place_command(char **words, int count) {
  uint64_t seq, size, mode, uid, gid, mtime_ns;
  size_t path_len = 0, key_len = 0;
  struct placement *p = calloc(1, sizeof *p);
  bool only_new = count == 10 && !strcmp(words[9], "new");
  if ((count != 9 && !only_new) || !p || !parse_uint(words[1], &seq) || !parse_uint(words[3], &size) || !parse_uint(words[4], &mode) ||
      !parse_uint(words[5], &uid) || !parse_uint(words[6], &gid) || !parse_uint(words[7], &mtime_ns) || mode > 07777 ||
      size > INT64_MAX || !(p->path = (char *)pct_decode(words[2], &path_len)) ||
      !(p->key = pct_decode(words[8], &key_len)) || path_len < 2 || p->path[0] != '/' ||
      memchr(p->path, 0, path_len) || key_len == 0 || key_len > KEY_BYTES_MAX) {
    warnx_("ignoring a malformed place command");
    if (p) free(p->path), free(p->key);
    free(p);
    return;
  }
  memmove(p->path, p->path + 1, path_len); /* relative to the mount root */
  p->seq = seq;
  p->size = size;
  p->mode = (mode_t)mode;
  p->uid = (uid_t)uid;
  p->gid = (gid_t)gid;
  p->mtime.tv_sec = (time_t)(mtime_ns / 1000000000u);
  p->mtime.tv_nsec = (long)(mtime_ns % 1000000000u);
  p->key_len = key_len;
  p->only_new = only_new;
  p->job.run = place_job;
  p->job.done = place_done;
  workers_submit(&p->job);
}
