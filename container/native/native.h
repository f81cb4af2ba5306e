/*
 * cubicle-fanotify: shared declarations. README.md explains what the helper is for and
 * the protocol it speaks with computerd on stdin and stdout.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/fanotify.h>
#include <sys/types.h>

/*
 * Kernel ABI newer than the headers of the machine that builds us: Debian 12 ships Linux
 * 6.1's uapi headers, and pre-content events arrived in 6.14. The values are the kernel's.
 */
#ifndef FAN_PRE_ACCESS
#define FAN_PRE_ACCESS 0x00100000
#endif
#ifndef FAN_EVENT_INFO_TYPE_RANGE
#define FAN_EVENT_INFO_TYPE_RANGE 6
#endif
/* FAN_DENY_ERRNO(e) of 6.14's header: the errno rides in the response's top byte. */
#define NATIVE_DENY_ERRNO(e) (FAN_DENY | (((uint32_t)(e) & 0xffu) << 24))

/* The extended attribute that marks a placeholder; its value is computerd's opaque key. */
#define PLACEHOLDER_XATTR "trusted.cubicle.placeholder"
/*
 * Zeros written at the start of every placeholder, one filesystem block (nativeLimits.
 * placeholderDataBytes in container/src/native/limits.ts says why: an all-hole placeholder
 * is copied by GNU cp as zeros, without the read that would fill it).
 */
#define PLACEHOLDER_DATA_BYTES 4096

/* Every limit the helper holds itself to, each with the reason it exists. */
enum {
  /* Placeholders being fetched at once. A reader past it gets EIO instead of the helper growing without bound. */
  PENDING_INODES_MAX = 4096,
  /* Readers blocked at once; each holds an event fd, so this stays far below RLIMIT_NOFILE. */
  WAITING_EVENTS_MAX = 16384,
  /* Largest placeholder key: the kernel's largest xattr value (XATTR_SIZE_MAX). */
  KEY_BYTES_MAX = 65536,
  /* Output buffered for computerd past which the journal is left in the kernel's queue (which overflows into a rescan). */
  OUTPUT_BYTES_HIGH = 16 << 20,
  /* Largest content sent inline (`data`); larger files come as a file. Keeps one stdin line at 512 KiB. */
  INLINE_BYTES_MAX = 256 * 1024,
  /* Longest command line on stdin: `data` with the largest inline content, hex-encoded. */
  INPUT_LINE_BYTES_MAX = 2 * INLINE_BYTES_MAX + 64,
  /* How often the journal is read while events keep coming: one wake-up per tick, not per event. */
  JOURNAL_TICK_MS = 5,
  /* Batches read per tick at most, so a flood of changes cannot delay a waiting reader's answer. */
  JOURNAL_BATCHES_PER_TICK = 16,
  /* Bytes asked of each fanotify read(): a few hundred events, one coalescing batch. */
  EVENT_BUFFER_BYTES = 64 * 1024,
  /* Threads that write into the filesystem (fills, placements), so one large file does not hold up the small ones. */
  WORKER_THREADS = 4,
  /* On exit, how long fills already copying may take to finish (local copies), so their readers get the content, not zeros. */
  SHUTDOWN_FILL_WAIT_MS = 5000,
  /* Bytes per copy_file_range step; the copy loops until the whole file is in. */
  COPY_CHUNK_BYTES = 8 << 20,
  /* Per fill thread: the read/write buffer where copy_file_range cannot cross filesystems (ext4 to ext4 cannot). */
  COPY_BOUNCE_BYTES = 1 << 20,
  /* Directory handles resolved per batch before the cache starts over (each costs open_by_handle_at + readlink). */
  HANDLE_CACHE_SLOTS = 512,
  /* Directories deep the start-up walk for existing placeholders goes (one fd each); a workspace path is at most 4,096 bytes, so 2,048 deep. */
  WATCH_DEPTH_MAX = 2048,
};

/* What the whole process shares. Set once in main() before any event is read. */
struct helper {
  const char *root;   /* the mount root, canonical, without a trailing slash */
  size_t root_len;
  int mount_fd;       /* O_RDONLY fd of the root: open_by_handle_at's anchor */
  dev_t dev;          /* st_dev of the mounted filesystem */
  pid_t self_pid;
  pid_t allow_pid;    /* computerd: its own accesses never wait and are never journaled */
  int pre_fd;         /* FAN_CLASS_PRE_CONTENT group */
  int journal_fd;     /* FAN_CLASS_NOTIF group */
  int place_fd;       /* where placements resolve their paths: the private mount, else mount_fd (place.c) */
  int control_in;     /* --control: fd 3, computerd's synchronous `watch` requests; else -1 */
  int control_out;    /* --control: fd 4, one answer line per request */
};
extern struct helper H;

/* fanotify.c: puts the pre-content mark on a placeholder's inode. */
int watch_placeholder(int fd);
/* place.c: the same for the regular file `name` in `dir` (with only_placeholder, only if it has the
 * placeholder xattr: else ENODATA), or at `path` (relative to the mount root, no symlinks); 0 or an errno. */
int watch_file_at(int dir, const char *name, bool only_placeholder);
int watch_path(const char *path);

/* pipes.c: buffered, non-blocking stdout (computerd must never be able to stall us). */
void out_text(const char *text);
void out_uint(uint64_t value);
void out_json_bytes(const unsigned char *bytes, size_t len);
size_t out_pending(void);
int out_flush(void);
/* pipes.c: stdin, split into lines; returns 0 at end of input, -1 on error. */
int in_read(void (*on_line)(char *line));
/* pipes.c: the same for any fd, with the caller's buffer (cap bytes, lines up to cap / 2). */
int lines_read(int fd, char *buf, size_t cap, size_t *len, void (*on_line)(char *line));
bool parse_uint(const char *s, uint64_t *value);
unsigned char *hex_decode(const char *hex, size_t *len);
unsigned char *pct_decode(const char *text, size_t *len);
void warnx_(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* workers.c: jobs that write into the workspace filesystem, off the main thread. */
struct job {
  void (*run)(struct job *job);  /* on a worker thread */
  void (*done)(struct job *job); /* back on the main thread */
  struct job *next;
};
int workers_start(void);
int workers_wake_fd(void);
void workers_submit(struct job *job);
void workers_collect(void);

/* hydrate.c: the pre-content group. */
void hydrate_read_events(void);
void hydrate_fill(uint64_t id, const char *path);
void hydrate_data(uint64_t id, unsigned char *bytes, size_t len);
void hydrate_deny(uint64_t id, int err);
void hydrate_shutdown(void);

/* fill.c: a placeholder's content written in, on a worker thread. */
int fill_placeholder(int target, off_t requested_size, const unsigned char *data, size_t data_len, int source);

/* place.c: placeholders made on computerd's behalf (Node cannot set xattrs). */
void place_command(char **words, int count);

/* journal.c: the notification group. */
void journal_read_batch(bool *empty);
void journal_sync(uint64_t n);
