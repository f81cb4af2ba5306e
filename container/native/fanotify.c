/*
 * cubicle-fanotify <mount-root> --allow-pid <pid>
 * cubicle-fanotify <mount-root> --probe
 *
 * computerd's native-mode helper: lazy hydration of placeholders (hydrate.c) and the
 * change journal (journal.c) of one workspace filesystem, over stdin/stdout (README.md has
 * the protocol). It refuses any filesystem but a dedicated ext4 mounted at its own root:
 * its journal's filesystem mark sees every process that touches the filesystem, and this
 * helper writes into the placeholders whose readers it holds. With --probe it checks, marks, says ready and exits.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include "native.h"

#define EXT4_SUPER_MAGIC 0xEF53
#define EXT4_ROOT_INO 2

/* Every change a container can make to the tree; FAN_ONDIR so directories count too. */
#define JOURNAL_MASK (FAN_CREATE | FAN_DELETE | FAN_RENAME | FAN_MODIFY | FAN_CLOSE_WRITE | FAN_ATTRIB | FAN_ONDIR)

struct helper H = {.mount_fd = -1, .pre_fd = -1, .journal_fd = -1, .place_fd = -1, .control_in = -1, .control_out = -1};
static volatile sig_atomic_t stopping;

static void usage(void) {
  warnx_("usage: cubicle-fanotify <mount-root> (--allow-pid <pid> [--control] | --probe)");
  exit(64);
}

/* Exit code 3 says "this machine cannot": computerd then falls back to FUSE. */
static void refuse(const char *why, const char *detail) {
  warnx_("refusing %s: %s%s%s", H.root ? H.root : "?", why, detail ? ": " : "", detail ? detail : "");
  exit(3);
}

/*
 * The safety rules (TOOLCHAIN.md): the root of a mount, not of `/`'s filesystem, ext4,
 * and the filesystem's own root directory, so the filesystem mark covers exactly what is
 * mounted here (a bind mount of a subdirectory would expose the rest of its filesystem).
 */
static void check_mount(const char *arg) {
  static char root[PATH_MAX];
  if (!realpath(arg, root)) refuse("cannot resolve the path", strerror(errno));
  H.root = root;
  H.root_len = strlen(root);
  if (H.root_len == 1) refuse("it is /", NULL);
  struct statx stx;
  if (statx(AT_FDCWD, root, AT_STATX_DONT_SYNC, STATX_BASIC_STATS, &stx) < 0) refuse("statx", strerror(errno));
  if (!(stx.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT) || !(stx.stx_attributes & STATX_ATTR_MOUNT_ROOT))
    refuse("not the root of a mount", NULL);
  struct stat st, slash;
  if (stat(root, &st) < 0 || stat("/", &slash) < 0) refuse("stat", strerror(errno));
  if (st.st_dev == slash.st_dev) refuse("same filesystem as /", NULL);
  struct statfs fs;
  if (statfs(root, &fs) < 0) refuse("statfs", strerror(errno));
  if (fs.f_type != EXT4_SUPER_MAGIC) refuse("not ext4 (pre-content events need a filesystem that opts in)", NULL);
  if (st.st_ino != EXT4_ROOT_INO) refuse("not the root directory of its filesystem", NULL);
  H.dev = st.st_dev;
  H.mount_fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (H.mount_fd < 0) refuse("open", strerror(errno));
}

static void open_groups(void) {
  H.pre_fd = fanotify_init(FAN_CLASS_PRE_CONTENT | FAN_CLOEXEC | FAN_NONBLOCK | FAN_UNLIMITED_MARKS,
                           O_RDWR | O_LARGEFILE | O_CLOEXEC);
  if (H.pre_fd < 0) refuse("fanotify_init (pre-content)", strerror(errno));
  /*
   * Pre-content marks go on placeholders' inodes alone (place.c, watch_placeholder), never
   * on the filesystem: with a filesystem mark every file the box creates raised an event on
   * its first write, which the box waited on while this helper looked for the xattr (1,000
   * new files took 1.75 times as long as on the bare disk). The kernel gives a file opened
   * with no pre-content mark on its inode, mount or filesystem no hook at all. Here the
   * kernel's support is checked once, with a filesystem mark taken off at once.
   */
  if (fanotify_mark(H.pre_fd, FAN_MARK_ADD | FAN_MARK_FILESYSTEM, FAN_PRE_ACCESS, H.mount_fd, NULL) < 0)
    refuse("pre-content mark (needs Linux >= 6.14)", strerror(errno));
  if (fanotify_mark(H.pre_fd, FAN_MARK_REMOVE | FAN_MARK_FILESYSTEM, FAN_PRE_ACCESS, H.mount_fd, NULL) < 0)
    refuse("removing the probe's pre-content mark", strerror(errno));
  H.journal_fd = fanotify_init(FAN_CLASS_NOTIF | FAN_CLOEXEC | FAN_NONBLOCK | FAN_REPORT_DFID_NAME_TARGET,
                               O_RDONLY | O_CLOEXEC);
  if (H.journal_fd < 0) refuse("fanotify_init (journal)", strerror(errno));
  /* A filesystem mark: the box reaches this filesystem through its own bind mount in another
   * mount namespace, which a mount mark on our mount would not see. */
  if (fanotify_mark(H.journal_fd, FAN_MARK_ADD | FAN_MARK_FILESYSTEM, JOURNAL_MASK, H.mount_fd, NULL) < 0)
    refuse("journal mark (needs Linux >= 5.17)", strerror(errno));
}

/* The mark that holds a placeholder's first reader: on its inode, not evictable (place.c). */
int watch_placeholder(int fd) {
  return fanotify_mark(H.pre_fd, FAN_MARK_ADD, FAN_PRE_ACCESS, fd, NULL);
}

/*
 * Marks the placeholders already on the filesystem: a computer's image outlives its helper
 * (computerd restarts on the same replica), and marks do not. Walked by fd, so no path
 * length limits it; the directories' depth is bounded by the fds the helper may hold.
 */
static void watch_existing(int dir, int depth) {
  DIR *d = fdopendir(dir);
  if (!d) {
    close(dir);
    return;
  }
  for (struct dirent *e; (e = readdir(d));) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    if (e->d_type == DT_DIR) {
      int sub = openat(dirfd(d), e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (sub >= 0 && depth < WATCH_DEPTH_MAX) watch_existing(sub, depth + 1);
      else if (sub >= 0) close(sub), warnx_("placeholders deeper than %d directories are not watched", WATCH_DEPTH_MAX);
      continue;
    }
    if (e->d_type != DT_REG) continue;
    int err = watch_file_at(dirfd(d), e->d_name, true);
    if (err && err != ENODATA) warnx_("marking an existing placeholder: %s", strerror(err));
  }
  closedir(d);
}

/*
 * A private mount for placements (place.c): a detached clone of our mount (open_tree), which
 * no path leads to and which only this process holds, carrying an ignore mark in the
 * journal. A placement sets its file's size and writes its first block, for which the
 * journal queues a modify and a close-write event that the helper would then drop as its
 * own; made through this mount, neither is raised (the kernel skips an event whose mount's
 * mark ignores it). Dirent and attribute events (the link, chown, times, the key) cannot be
 * ignored by mount (the kernel does not know through which mount they came) and are still
 * dropped by pid. Where this fails (an older kernel), placements go through mount_fd.
 */
#ifndef OPEN_TREE_CLONE
#define OPEN_TREE_CLONE 1
#endif
#ifndef OPEN_TREE_CLOEXEC
#define OPEN_TREE_CLOEXEC O_CLOEXEC
#endif
static void open_place_mount(void) {
  H.place_fd = H.mount_fd;
  int fd = (int)syscall(SYS_open_tree, H.mount_fd, "", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_EMPTY_PATH);
  if (fd < 0) return;
  if (fanotify_mark(H.journal_fd, FAN_MARK_ADD | FAN_MARK_MOUNT | FAN_MARK_IGNORE_SURV, FAN_MODIFY | FAN_CLOSE_WRITE,
                    fd, ".") < 0) {
    close(fd);
    return;
  }
  H.place_fd = fd;
}

/* One line of stdin: `fill <id> <path hex>`, `data <id> <hex>`, `deny <id> <errno>`, `sync <n>`, `place …` (place.c). */
static void on_command(char *line) {
  char *words[10];
  int count = 0;
  for (char *word = strtok(line, " "); word && count < 10; word = strtok(NULL, " ")) words[count++] = word;
  if (count == 0) return;
  uint64_t n, m;
  size_t len = 0;
  if (!strcmp(words[0], "sync") && count == 2 && parse_uint(words[1], &n)) return journal_sync(n);
  if (!strcmp(words[0], "deny") && count == 3 && parse_uint(words[1], &n) && parse_uint(words[2], &m) && m > 0 &&
      m < 4096)
    return hydrate_deny(n, (int)m);
  if (!strcmp(words[0], "fill") && count == 3 && parse_uint(words[1], &n)) {
    char *path = (char *)hex_decode(words[2], &len);
    bool ok = path && len > 0 && strlen(path) == len; /* no NUL inside */
    if (ok) hydrate_fill(n, path);
    free(path);
    if (ok) return;
  }
  if (!strcmp(words[0], "data") && (count == 2 || count == 3) && parse_uint(words[1], &n)) {
    unsigned char *bytes = hex_decode(count == 3 ? words[2] : "", &len);
    if (bytes && len <= INLINE_BYTES_MAX) return hydrate_data(n, bytes, len); /* takes the buffer */
    free(bytes);
  }
  if (!strcmp(words[0], "place")) return place_command(words, count);
  warnx_("ignoring a malformed command");
}

static void on_signal(int sig) {
  (void)sig;
  stopping = 1;
}

/* Waiting readers each hold an event fd: lift the soft fd limit to the hard one. */
static void raise_fd_limit(void) {
  struct rlimit limit;
  if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
    limit.rlim_cur = limit.rlim_max;
    setrlimit(RLIMIT_NOFILE, &limit);
  }
}

static int64_t now_ms(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

/*
 * `watch <path hex>` on the control pipe: computerd made a placeholder itself (sync/apply.ts,
 * writePlaceholder, at a name no process can reach yet) and waits, blocked, for its mark
 * before moving it into place. Answered at once with `<errno>` (0: marked).
 */
static void on_control(char *line) {
  char reply[32];
  int result = EINVAL;
  if (!strncmp(line, "watch ", 6)) {
    size_t len;
    char *path = (char *)hex_decode(line + 6, &len);
    result = !path || len == 0 || memchr(path, 0, len) ? EINVAL : watch_path(path);
    free(path);
  }
  int n = snprintf(reply, sizeof reply, "%d\n", result);
  for (int at = 0; at < n;) {
    ssize_t w = write(H.control_out, reply + at, (size_t)(n - at));
    if (w < 0 && errno == EINTR) continue;
    if (w < 0) {
      warnx_("answering a watch request: %s", strerror(errno));
      return;
    }
    at += (int)w;
  }
}

static int run(void) {
  static char control_buf[2 * PATH_MAX + 64];
  static size_t control_len;
  bool input_open = true;
  int64_t journal_due = 0;
  for (;;) {
    if (stopping) input_open = false;
    if (!input_open) return 0;
    /*
     * The journal is read at most once per tick while events keep coming, and not at all
     * past the output high-water mark (it waits in the kernel until computerd reads).
     */
    bool journal_wanted = out_pending() < OUTPUT_BYTES_HIGH;
    int64_t wait_ms = journal_due - now_ms();
    bool journal_now = journal_wanted && wait_ms <= 0;
    struct pollfd fds[6] = {
        {.fd = STDIN_FILENO, .events = POLLIN},
        {.fd = H.pre_fd, .events = POLLIN},
        {.fd = workers_wake_fd(), .events = POLLIN},
        {.fd = journal_now ? H.journal_fd : -1, .events = POLLIN},
        {.fd = out_pending() ? STDOUT_FILENO : -1, .events = POLLOUT},
        {.fd = H.control_in, .events = POLLIN},
    };
    if (poll(fds, 6, journal_wanted && !journal_now ? (int)wait_ms : -1) < 0) {
      if (errno == EINTR) continue;
      warnx_("poll: %s", strerror(errno));
      return 70;
    }
    if (fds[1].revents) hydrate_read_events();
    if (fds[2].revents) workers_collect();
    if (fds[3].revents) {
      bool empty = false;
      /* Readers blocked on a pre-content event are answered between batches, not after all of them. */
      for (int batch = 0; batch < JOURNAL_BATCHES_PER_TICK && !empty; batch++) {
        journal_read_batch(&empty);
        hydrate_read_events();
      }
      journal_due = now_ms() + JOURNAL_TICK_MS;
    }
    if (fds[5].revents) {
      int r = lines_read(H.control_in, control_buf, sizeof control_buf, &control_len, on_control);
      /* computerd closed it (or broke it): no more requests; stdin says when to stop. */
      if (r <= 0) close(H.control_in), H.control_in = -1;
    }
    if (fds[0].revents) {
      int r = in_read(on_command);
      if (r < 0) return 70;
      if (r == 0) input_open = false;
    }
    if (out_flush() < 0) return 0; /* computerd is gone */
  }
}

int main(int argc, char **argv) {
  const char *root = NULL, *allow = NULL;
  bool probe = false;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--allow-pid") && i + 1 < argc) allow = argv[++i];
    else if (!strcmp(argv[i], "--probe")) probe = true;
    else if (!strcmp(argv[i], "--control")) H.control_in = 3, H.control_out = 4;
    else if (argv[i][0] != '-' && !root) root = argv[i];
    else usage();
  }
  uint64_t allow_pid = 0;
  if (!root || (!allow && !probe)) usage();
  if (allow && (!parse_uint(allow, &allow_pid) || allow_pid == 0 || allow_pid > INT_MAX)) usage();
  H.allow_pid = (pid_t)allow_pid;
  H.self_pid = getpid();
  /* Placements are made with their exact mode (place.c). */
  umask(0);
  check_mount(root);
  raise_fd_limit();
  open_groups();
  signal(SIGPIPE, SIG_IGN);
  struct sigaction stop = {.sa_handler = on_signal};
  sigaction(SIGTERM, &stop, NULL);
  sigaction(SIGINT, &stop, NULL);
  if (H.control_in >= 0 && (fcntl(H.control_in, F_GETFD) < 0 || fcntl(H.control_out, F_GETFD) < 0)) {
    warnx_("--control needs fds 3 (requests) and 4 (answers)");
    return 64;
  }
  if (H.control_in >= 0) {
    /* Requests are read in the poll loop; answers are a few bytes, each read before the next request. */
    fcntl(H.control_in, F_SETFL, fcntl(H.control_in, F_GETFL) | O_NONBLOCK);
    fcntl(H.control_out, F_SETFL, fcntl(H.control_out, F_GETFL) & ~O_NONBLOCK);
    fcntl(H.control_in, F_SETFD, FD_CLOEXEC);
    fcntl(H.control_out, F_SETFD, FD_CLOEXEC);
  }
  if (fcntl(STDOUT_FILENO, F_SETFL, fcntl(STDOUT_FILENO, F_GETFL) | O_NONBLOCK) < 0 ||
      fcntl(STDIN_FILENO, F_SETFL, fcntl(STDIN_FILENO, F_GETFL) | O_NONBLOCK) < 0) {
    warnx_("making stdin and stdout non-blocking: %s", strerror(errno));
    return 70;
  }
  if (!probe) open_place_mount();
  if (!probe) watch_existing(dup(H.mount_fd), 0);
  if (!probe && workers_start() < 0) {
    warnx_("starting worker threads: %s", strerror(errno));
    return 70;
  }
  out_text("{\"t\":\"ready\",\"pid\":");
  out_uint((uint64_t)H.self_pid);
  out_text(",\"root\":");
  out_json_bytes((const unsigned char *)H.root, H.root_len);
  out_text("}\n");
  int code = probe ? 0 : run();
  if (!probe) hydrate_shutdown();
  /* A last blocking flush: computerd may still be reading (it closed our stdin to stop us). */
  fcntl(STDOUT_FILENO, F_SETFL, fcntl(STDOUT_FILENO, F_GETFL) & ~O_NONBLOCK);
  out_flush();
  return code;
}
