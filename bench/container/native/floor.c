/*
 * The kernel's floor for making placeholders: one thread doing only the system calls a
 * placement needs, nothing else (no parsing, no queue, no answers), so place.bench.ts can
 * show the helper's cost beside what the syscalls alone cost. Usage:
 * `floor <mount> <files> <tmpfile: 0|1>`. Each file gets its size with a first block of data,
 * the placeholder xattr, an owner, times and a pre-content inode mark; with tmpfile=1 it is
 * built unnamed (O_TMPFILE) and linked in, as the helper does (container/native/place.c),
 * else created by name. Prints `wall=<s> cpu=<s>`. A development aid, not part of the build.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fanotify.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#ifndef FAN_PRE_ACCESS
#define FAN_PRE_ACCESS 0x00100000
#endif

static double seconds(struct timeval t) { return (double)t.tv_sec + (double)t.tv_usec / 1e6; }

static double cpu(void) {
  struct rusage r;
  getrusage(RUSAGE_SELF, &r);
  return seconds(r.ru_utime) + seconds(r.ru_stime);
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: floor <mount> <files> <tmpfile: 0|1>\n");
    return 2;
  }
  int files = atoi(argv[2]), tmpfile = atoi(argv[3]);
  int group = fanotify_init(FAN_CLASS_PRE_CONTENT | FAN_CLOEXEC | FAN_NONBLOCK, O_RDWR);
  int root = open(argv[1], O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (group < 0 || root < 0) {
    perror("floor");
    return 1;
  }
  /* The tree of place.bench.ts: /tree/a<i/1000>/b<i/100%10>/f<i>.txt. */
  char path[256], key[256];
  mkdirat(root, "tree", 0755);
  for (int i = 0; i < files; i += 100) {
    snprintf(path, sizeof path, "tree/a%d", i / 1000);
    mkdirat(root, path, 0755);
    snprintf(path, sizeof path, "tree/a%d/b%d", i / 1000, (i / 100) % 10);
    mkdirat(root, path, 0755);
  }
  static const char zeros[4096];
  double wall0 = now(), cpu0 = cpu();
  for (int i = 0; i < files; i++) {
    snprintf(path, sizeof path, "tree/a%d/b%d", i / 1000, (i / 100) % 10);
    char name[32];
    snprintf(name, sizeof name, "f%d.txt", i);
    int dir = openat(root, path, O_PATH | O_DIRECTORY | O_CLOEXEC);
    int fd = tmpfile ? openat(dir, ".", O_TMPFILE | O_RDWR | O_CLOEXEC, 0644)
                     : openat(dir, name, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0644);
    if (dir < 0 || fd < 0) {
      perror("floor: open");
      return 1;
    }
    size_t size = 8 + (size_t)snprintf(key, sizeof key, "%d", i);
    snprintf(key, sizeof key, "%064x /%s/%s", i, path, name);
    struct timespec times[2] = {{1700000000, i}, {1700000000, i}};
    if (fchown(fd, 1000, 1000) < 0 || ftruncate(fd, (off_t)size) < 0 || pwrite(fd, zeros, size, 0) != (ssize_t)size ||
        fsetxattr(fd, "trusted.cubicle.placeholder", key, strlen(key), 0) < 0 || futimens(fd, times) < 0 ||
        fanotify_mark(group, FAN_MARK_ADD | FAN_MARK_INODE, FAN_PRE_ACCESS, fd, NULL) < 0 ||
        (tmpfile && linkat(fd, "", dir, name, AT_EMPTY_PATH) < 0)) {
      perror("floor: place");
      return 1;
    }
    struct stat st;
    if (tmpfile) fstat(fd, &st);
    close(fd);
    close(dir);
  }
  printf("wall=%.3f cpu=%.3f\n", now() - wall0, cpu() - cpu0);
  return 0;
}
