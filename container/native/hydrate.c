/*
 * Lazy hydration: the FAN_CLASS_PRE_CONTENT group. A read, write, truncate or mmap of a
 * file on the workspace filesystem blocks in the kernel until we answer its event. A file
 * without the placeholder xattr is answered at once and gets an ignore mark, so its later
 * accesses cost nothing. A placeholder becomes one request to computerd, however many
 * processes wait on it; computerd answers with a file holding the content (a fill thread
 * copies it in) or an errno (every waiter is denied with it). What a fill thread does to the
 * file is fill.c.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "native.h"

enum pending_state { WAITING, FILLING };

/* One placeholder being fetched, and every event fd waiting on it. */
struct pending {
  struct job job; /* first, so a job is its pending entry */
  uint64_t id;
  ino_t ino;
  off_t size; /* st_size when the first reader came: a later change means an O_TRUNC open */
  enum pending_state state;
  int *fds;
  int fd_count, fd_cap;
  /* Owned by a fill thread while FILLING; the main thread reads them only once it is done. */
  int target_fd, source_fd, result;
  unsigned char *data; /* inline content (`data`), instead of source_fd */
  size_t data_len;
};

static struct pending *pending[PENDING_INODES_MAX];
static int pending_count, waiting_count;
static uint64_t next_id = 1;
static bool closing;


/*
 * Answers one event. The kernel takes only some errnos with FAN_DENY_ERRNO (those that
 * open, read and write can return for a regular file); deny_errno() maps the rest to
 * EIO. A kernel without FAN_DENY_ERRNO refuses the response, so plain FAN_DENY (EPERM)
 * is sent instead.
 */
static void respond(int fd, uint32_t response) {
  struct fanotify_response answer = {.fd = fd, .response = response};
  if (write(H.pre_fd, &answer, sizeof answer) == sizeof answer) return;
  if (errno == EINVAL && response != FAN_ALLOW && response != FAN_DENY) {
    answer.response = FAN_DENY;
    if (write(H.pre_fd, &answer, sizeof answer) == sizeof answer) return;
  }
  warnx_("answering event fd %d: %s", fd, strerror(errno));
}

static uint32_t deny_errno(int err) {
  switch (err) {
    case EIO: case EPERM: case EBUSY: case ETXTBSY: case EAGAIN: case ENOSPC: case EDQUOT:
      return NATIVE_DENY_ERRNO(err);
    default:
      return NATIVE_DENY_ERRNO(EIO);
  }
}

static void answer_and_close(int fd, uint32_t response) {
  respond(fd, response);
  close(fd);
}

/*
 * Takes the placeholder's mark off its inode (place.c puts it on), so its pre-content events
 * stop: a file opened after this is not watched at all. Only placeholders carry a mark, so a
 * file the box makes never raises an event and never pins its inode in memory.
 */
static void stop_watching(int fd) {
  if (fanotify_mark(H.pre_fd, FAN_MARK_REMOVE, FAN_PRE_ACCESS, fd, NULL) < 0 && errno != ENOENT)
    warnx_("removing a placeholder's mark: %s", strerror(errno));
}

static struct pending *find_by_ino(ino_t ino) {
  for (int i = 0; i < pending_count; i++)
    if (pending[i]->ino == ino) return pending[i];
  return NULL;
}

static int find_by_id(uint64_t id) {
  for (int i = 0; i < pending_count; i++)
    if (pending[i]->id == id) return i;
  return -1;
}

static bool add_waiter(struct pending *p, int fd) {
  if (p->fd_count == p->fd_cap) {
    int cap = p->fd_cap ? p->fd_cap * 2 : 4;
    int *grown = realloc(p->fds, (size_t)cap * sizeof *grown);
    if (!grown) return false;
    p->fds = grown;
    p->fd_cap = cap;
  }
  p->fds[p->fd_count++] = fd;
  waiting_count++;
  return true;
}

/* Answers every waiter of the entry at `index`, closes their fds and forgets the entry. */
static void finish(int index, uint32_t response) {
  struct pending *p = pending[index];
  if (response == FAN_ALLOW) stop_watching(p->fds[0]);
  for (int i = 0; i < p->fd_count; i++) answer_and_close(p->fds[i], response);
  waiting_count -= p->fd_count;
  if (p->source_fd >= 0) close(p->source_fd);
  free(p->data);
  free(p->fds);
  free(p);
  pending[index] = pending[--pending_count];
}

static void request(struct pending *p, const unsigned char *key, size_t key_len) {
  out_text("{\"t\":\"hydrate\",\"id\":");
  out_uint(p->id);
  out_text(",\"ino\":");
  out_uint(p->ino);
  out_text(",\"size\":");
  out_uint((uint64_t)p->size);
  out_text(",\"key\":");
  out_json_bytes(key, key_len);
  out_text("}\n");
}

/* A placeholder's first reader: a new entry and one request, or EIO past the limits. */
static void start_request(int fd, const struct stat *st, const unsigned char *key, size_t key_len) {
  struct pending *p = calloc(1, sizeof *p);
  if (!p || pending_count >= PENDING_INODES_MAX || waiting_count >= WAITING_EVENTS_MAX || !add_waiter(p, fd)) {
    warnx_("too many placeholders being fetched at once (%d); inode %llu gets EIO", pending_count,
           (unsigned long long)st->st_ino);
    free(p);
    answer_and_close(fd, deny_errno(EIO));
    return;
  }
  p->id = next_id++;
  p->ino = st->st_ino;
  p->size = st->st_size;
  p->state = WAITING;
  p->source_fd = -1;
  pending[pending_count++] = p;
  request(p, key, key_len);
}

static void on_event(const struct fanotify_event_metadata *m) {
  static unsigned char key[KEY_BYTES_MAX];
  if (m->fd < 0) return; /* the kernel could not open the file and has denied the access itself */
  if (!(m->mask & FAN_PRE_ACCESS) || m->pid == H.self_pid || m->pid == H.allow_pid)
    return answer_and_close(m->fd, FAN_ALLOW);
  /*
   * Only placeholders carry a mark, so a file without the xattr is one whose content just
   * went in (a reader that was already past the open) or whose mark outlived it: the xattr
   * alone decides, first. A placeholder being filled keeps its xattr until its content is
   * all in, so a reader that finds none reads the content.
   */
  ssize_t key_len = fgetxattr(m->fd, PLACEHOLDER_XATTR, key, sizeof key);
  if (key_len < 0 && errno == ENODATA) {
    /* The reader goes first; an access racing in before the mark is gone just repeats this. */
    respond(m->fd, FAN_ALLOW);
    stop_watching(m->fd);
    close(m->fd);
    return;
  }
  int key_errno = errno;
  struct stat st;
  if (fstat(m->fd, &st) < 0 || st.st_dev != H.dev || !S_ISREG(st.st_mode)) {
    /* A filesystem mark reports only our filesystem; anything else is never touched. */
    warnx_("event on a file outside the workspace filesystem; allowed untouched");
    return answer_and_close(m->fd, FAN_ALLOW);
  }
  struct pending *p = find_by_ino(st.st_ino);
  if (p) {
    if (closing || waiting_count >= WAITING_EVENTS_MAX || !add_waiter(p, m->fd))
      answer_and_close(m->fd, deny_errno(EIO));
    return;
  }
  if (key_len < 0) {
    warnx_("reading the placeholder xattr of inode %llu: %s", (unsigned long long)st.st_ino, strerror(key_errno));
    return answer_and_close(m->fd, deny_errno(EIO));
  }
  if (st.st_size == 0) {
    /*
     * An open with O_TRUNC raises no pre-content event (Linux 6.18), so a placeholder can
     * reach its first access already emptied by its writer. Its old content is unwanted:
     * it stops being a placeholder. Every other size change raises an event first, and
     * computerd never makes a placeholder for an empty file.
     */
    if (fremovexattr(m->fd, PLACEHOLDER_XATTR) < 0 && errno != ENODATA)
      warnx_("dropping an emptied placeholder: %s", strerror(errno));
    stop_watching(m->fd);
    answer_and_close(m->fd, FAN_ALLOW);
    out_text("{\"t\":\"dropped\",\"ino\":");
    out_uint(st.st_ino);
    out_text(",\"key\":");
    out_json_bytes(key, (size_t)key_len);
    out_text("}\n");
    return;
  }
  if (closing) return answer_and_close(m->fd, deny_errno(EIO));
  start_request(m->fd, &st, key, (size_t)key_len);
}

void hydrate_read_events(void) {
  static char buf[EVENT_BUFFER_BYTES] __attribute__((aligned(8)));
  for (;;) {
    ssize_t len = read(H.pre_fd, buf, sizeof buf);
    if (len < 0 && errno == EINTR) continue;
    if (len <= 0) {
      if (len < 0 && errno != EAGAIN) warnx_("reading pre-content events: %s", strerror(errno));
      return;
    }
    struct fanotify_event_metadata *m = (void *)buf;
    for (; FAN_EVENT_OK(m, len); m = FAN_EVENT_NEXT(m, len)) {
      if (m->vers != FANOTIFY_METADATA_VERSION) {
        warnx_("fanotify metadata version %u, expected %u", m->vers, FANOTIFY_METADATA_VERSION);
        exit(70);
      }
      on_event(m);
    }
  }
}


static void report_filled(uint64_t id, int err) {
  out_text("{\"t\":\"filled\",\"id\":");
  out_uint(id);
  if (err) {
    out_text(",\"errno\":");
    out_uint((uint64_t)err);
  }
  out_text("}\n");
}

static void fill_job(struct job *job) {
  struct pending *p = (struct pending *)job;
  p->result = fill_placeholder(p->target_fd, p->size, p->data, p->data_len, p->source_fd);
}

/* Main thread, once a fill is done: answers its waiters. */
static void fill_done(struct job *job) {
  struct pending *p = (struct pending *)job;
  int err = p->result;
  uint64_t id = p->id;
  int index = find_by_id(id);
  if (index < 0) {
    warnx_("fill %llu finished for an entry that is gone", (unsigned long long)id); /* a bug: entries wait for their fill */
    return;
  }
  if (err) warnx_("filling inode %llu: %s", (unsigned long long)p->ino, strerror(err));
  finish(index, err ? deny_errno(err) : FAN_ALLOW);
  report_filled(id, err);
}

/* stdin `fill <id> <path>`: the content is in `path`, a regular file on another filesystem. */
void hydrate_fill(uint64_t id, const char *path) {
  int index = find_by_id(id);
  if (index < 0 || pending[index]->state != WAITING) {
    warnx_("fill %llu: no such request waiting", (unsigned long long)id);
    return;
  }
  struct pending *p = pending[index];
  int source = open(path, O_RDONLY | O_CLOEXEC);
  struct stat st;
  int err = source < 0 ? errno : fstat(source, &st) < 0 ? errno : 0;
  /* Reading a file of our own filesystem would raise an event only this thread can answer. */
  if (!err && (!S_ISREG(st.st_mode) || st.st_dev == H.dev)) err = EINVAL;
  if (err) {
    warnx_("fill %llu: content file %s: %s", (unsigned long long)id, path,
           err == EINVAL ? "not a regular file outside the workspace filesystem" : strerror(err));
    if (source >= 0) close(source);
    finish(index, deny_errno(EIO));
    report_filled(id, EIO);
    return;
  }
  p->state = FILLING;
  p->source_fd = source;
  p->target_fd = p->fds[0];
  p->job.run = fill_job;
  p->job.done = fill_done;
  workers_submit(&p->job);
}

/* stdin `data <id> <content hex>`: small content inline, with no file to make and remove. */
void hydrate_data(uint64_t id, unsigned char *bytes, size_t len) {
  int index = find_by_id(id);
  if (index < 0 || pending[index]->state != WAITING) {
    warnx_("data %llu: no such request waiting", (unsigned long long)id);
    free(bytes);
    return;
  }
  struct pending *p = pending[index];
  p->state = FILLING;
  p->data = bytes;
  p->data_len = len;
  p->target_fd = p->fds[0];
  p->job.run = fill_job;
  p->job.done = fill_done;
  /*
   * Content at least as long as the placeholder needs no ftruncate, the one step that
   * raises an event this thread would have to answer: small, so written right here, which
   * spares the reader two thread hand-offs.
   */
  if ((off_t)len >= p->size) {
    fill_job(&p->job);
    fill_done(&p->job);
    return;
  }
  workers_submit(&p->job);
}

/* stdin `deny <id> <errno>`: every waiter gets the errno; the placeholder stays one. */
void hydrate_deny(uint64_t id, int err) {
  int index = find_by_id(id);
  if (index < 0 || pending[index]->state != WAITING) {
    warnx_("deny %llu: no such request waiting", (unsigned long long)id);
    return;
  }
  finish(index, deny_errno(err));
}

static bool any_filling(void) {
  for (int i = 0; i < pending_count; i++)
    if (pending[i]->state == FILLING) return true;
  return false;
}

/*
 * Before exit: the kernel allows every event still unanswered when the group closes, which
 * would show readers a placeholder's zeros. Deny what waits for computerd (EIO) and what is
 * queued, and let the fills already copying finish (they are local and short; a fill's own
 * ftruncate raises an event this loop must answer).
 */
void hydrate_shutdown(void) {
  closing = true;
  hydrate_read_events();
  for (int i = pending_count - 1; i >= 0; i--)
    if (pending[i]->state == WAITING) finish(i, deny_errno(EIO));
  struct timespec start, now;
  clock_gettime(CLOCK_MONOTONIC, &start);
  while (any_filling()) {
    clock_gettime(CLOCK_MONOTONIC, &now);
    long elapsed_ms = (now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000;
    if (elapsed_ms >= SHUTDOWN_FILL_WAIT_MS) {
      warnx_("exiting with fills still copying");
      return;
    }
    struct pollfd fds[2] = {{.fd = H.pre_fd, .events = POLLIN}, {.fd = workers_wake_fd(), .events = POLLIN}};
    if (poll(fds, 2, (int)(SHUTDOWN_FILL_WAIT_MS - elapsed_ms)) < 0 && errno != EINTR) return;
    hydrate_read_events();
    workers_collect();
  }
}
