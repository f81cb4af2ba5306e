/*
 * The change journal: the FAN_CLASS_NOTIF group, reporting each change as the directory's
 * file handle plus the entry's name. A handle becomes a path through open_by_handle_at and
 * /proc/self/fd, so the path is the directory's path when the event is read, not when it
 * happened: computerd treats every reported path as "look at this path now". Events of one
 * read() are one batch: the kernel already merges events on one name, and so do we, by path.
 *
 * A directory handle that no longer opens (ESTALE, or a directory already removed) is
 * counted, not reported: that directory's own removal or rename is in the queue too (it
 * was queued before the directory could be freed), and it covers every path inside it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "native.h"

enum kind_bit { K_CREATE = 1, K_DELETE = 2, K_WRITE = 4, K_ATTRIB = 8, K_MOVE = 16 };
enum entry_type { CHANGE, MOVE, RESCAN };
enum resolved { RESOLVED, STALE, UNRESOLVABLE };

struct entry {
  enum entry_type type;
  unsigned kinds;
  bool dir, has_ino;
  uint64_t ino;
  size_t path, path_len, from, from_len; /* offsets into the arena */
  const char *reason;
};

/* One batch's memory, reset at the start of each batch. */
static char *arena;
static size_t arena_len, arena_cap;
static struct entry *entries;
static size_t entry_count, entry_cap;
static unsigned stale_count;
static unsigned generation;

/* Entries by path, for merging: open addressing, slots valid for the current generation. */
enum { MERGE_SLOTS = 4096 };
static struct { unsigned generation; size_t entry; } merge_slots[MERGE_SLOTS];

/* Resolved directory handles of this batch. */
struct cached_dir {
  unsigned generation;
  enum resolved result;
  size_t key, key_len, path, path_len; /* arena offsets: the handle's bytes, the path */
};
static struct cached_dir handle_cache[HANDLE_CACHE_SLOTS];

static size_t arena_put(const void *bytes, size_t len) {
  if (arena_len + len > arena_cap) {
    size_t cap = arena_cap ? arena_cap : 1 << 16;
    while (cap < arena_len + len) cap *= 2;
    char *grown = realloc(arena, cap);
    if (!grown) {
      warnx_("out of memory for the journal batch");
      exit(70);
    }
    arena = grown;
    arena_cap = cap;
  }
  memcpy(arena + arena_len, bytes, len);
  arena_len += len;
  return arena_len - len;
}

static uint64_t hash_bytes(const void *bytes, size_t len, uint64_t seed) {
  const unsigned char *b = bytes;
  uint64_t h = 1469598103934665603ull ^ seed;
  for (size_t i = 0; i < len; i++) h = (h ^ b[i]) * 1099511628211ull;
  return h;
}

/*
 * The workspace path of a directory handle ("" for the mount root, else "/a/b"), via
 * open_by_handle_at and the /proc/self/fd link. A removed directory shows as "… (deleted)"
 * with no links left, or does not open at all (ESTALE): both are STALE.
 */
static enum resolved open_dir(struct file_handle *fh, char *out, size_t *out_len) {
  int fd = open_by_handle_at(H.mount_fd, fh, O_PATH | O_CLOEXEC);
  if (fd < 0) return errno == ESTALE || errno == ENOENT ? STALE : UNRESOLVABLE;
  char link[32];
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  ssize_t len = readlink(link, out, PATH_MAX);
  enum resolved result = RESOLVED;
  static const char deleted[] = " (deleted)";
  struct stat st;
  if (len < 0 || len >= PATH_MAX) {
    result = UNRESOLVABLE; /* longer than a page: the kernel cannot name it (README.md) */
  } else if ((size_t)len >= sizeof deleted - 1 && !memcmp(out + len - (sizeof deleted - 1), deleted, sizeof deleted - 1) &&
             fstat(fd, &st) == 0 && st.st_nlink == 0) {
    result = STALE;
  } else if ((size_t)len < H.root_len || memcmp(out, H.root, H.root_len) || (len > (ssize_t)H.root_len && out[H.root_len] != '/')) {
    result = UNRESOLVABLE; /* not under our mount root: never reported */
  } else {
    memmove(out, out + H.root_len, (size_t)len - H.root_len);
    *out_len = (size_t)len - H.root_len;
  }
  close(fd);
  return result;
}

static enum resolved resolve_dir(struct file_handle *fh, size_t *path, size_t *path_len) {
  size_t key_len = sizeof *fh + fh->handle_bytes;
  size_t slot = hash_bytes(fh, key_len, 0) % HANDLE_CACHE_SLOTS;
  struct cached_dir *c = &handle_cache[slot];
  if (c->generation == generation && c->key_len == key_len && !memcmp(arena + c->key, fh, key_len)) {
    *path = c->path;
    *path_len = c->path_len;
    return c->result;
  }
  static char resolved[PATH_MAX + 1];
  size_t len = 0;
  enum resolved result = open_dir(fh, resolved, &len);
  c->generation = generation;
  c->result = result;
  c->key = arena_put(fh, key_len);
  c->key_len = key_len;
  c->path = arena_put(resolved, len);
  c->path_len = len;
  *path = c->path;
  *path_len = len;
  return result;
}

/* dir path + "/" + name, or the directory itself when the name is "." (an event on it). */
static enum resolved entry_path(struct file_handle *fh, const char *name, size_t *path, size_t *path_len) {
  size_t dir, dir_len;
  enum resolved result = resolve_dir(fh, &dir, &dir_len);
  if (result != RESOLVED) return result;
  if (!name || !strcmp(name, ".")) {
    *path = dir_len ? dir : arena_put("/", 1);
    *path_len = dir_len ? dir_len : 1;
    return RESOLVED;
  }
  /* Copy the directory first: arena_put may move the arena, so no pointer into it is kept. */
  size_t name_len = strlen(name);
  char *joined = malloc(dir_len + 1 + name_len);
  if (!joined) return UNRESOLVABLE;
  memcpy(joined, arena + dir, dir_len);
  joined[dir_len] = '/';
  memcpy(joined + dir_len + 1, name, name_len);
  *path = arena_put(joined, dir_len + 1 + name_len);
  *path_len = dir_len + 1 + name_len;
  free(joined);
  return RESOLVED;
}

static struct entry *new_entry(enum entry_type type) {
  if (entry_count == entry_cap) {
    size_t cap = entry_cap ? entry_cap * 2 : 256;
    struct entry *grown = realloc(entries, cap * sizeof *grown);
    if (!grown) {
      warnx_("out of memory for the journal batch");
      exit(70);
    }
    entries = grown;
    entry_cap = cap;
  }
  struct entry *e = &entries[entry_count++];
  memset(e, 0, sizeof *e);
  e->type = type;
  return e;
}

/* Adds kinds to the batch's entry for (path, dir), creating it at this point of the order. */
static void merge_change(size_t path, size_t path_len, bool dir, unsigned kinds, bool has_ino, uint64_t ino) {
  size_t slot = hash_bytes(arena + path, path_len, dir) % MERGE_SLOTS;
  for (size_t probe = 0; probe < MERGE_SLOTS; probe++, slot = (slot + 1) % MERGE_SLOTS) {
    if (merge_slots[slot].generation != generation) break;
    struct entry *e = &entries[merge_slots[slot].entry];
    if (e->dir == dir && e->path_len == path_len && !memcmp(arena + e->path, arena + path, path_len)) {
      e->kinds |= kinds;
      if (has_ino && !e->has_ino) e->has_ino = true, e->ino = ino;
      return;
    }
  }
  struct entry *e = new_entry(CHANGE);
  *e = (struct entry){.type = CHANGE, .kinds = kinds, .dir = dir, .has_ino = has_ino, .ino = ino, .path = path, .path_len = path_len};
  if (merge_slots[slot].generation != generation) {
    merge_slots[slot].generation = generation;
    merge_slots[slot].entry = entry_count - 1;
  }
}

static void rescan(const char *reason) { new_entry(RESCAN)->reason = reason; }

static unsigned kinds_of(uint64_t mask) {
  unsigned kinds = 0;
  if (mask & FAN_CREATE) kinds |= K_CREATE;
  if (mask & FAN_DELETE) kinds |= K_DELETE;
  if (mask & (FAN_MODIFY | FAN_CLOSE_WRITE)) kinds |= K_WRITE;
  if (mask & FAN_ATTRIB) kinds |= K_ATTRIB;
  return kinds;
}

/* FAN_RENAME: one event with both places. A side whose directory is gone cannot be named. */
static void on_rename(struct fanotify_event_info_fid *from, struct fanotify_event_info_fid *to, bool dir, bool has_ino,
                      uint64_t ino) {
  if (!from || !to) return rescan("rename event without both directories");
  struct file_handle *from_fh = (void *)from->handle, *to_fh = (void *)to->handle;
  size_t from_path = 0, from_len = 0, to_path = 0, to_len = 0;
  enum resolved a = entry_path(from_fh, (char *)from_fh->f_handle + from_fh->handle_bytes, &from_path, &from_len);
  enum resolved b = entry_path(to_fh, (char *)to_fh->f_handle + to_fh->handle_bytes, &to_path, &to_len);
  if (a == UNRESOLVABLE || b == UNRESOLVABLE) return rescan("a renamed entry's directory could not be resolved");
  if (a == STALE && b == STALE) {
    stale_count++;
  } else if (a == STALE) {
    merge_change(to_path, to_len, dir, K_CREATE, has_ino, ino); /* came from a directory since removed */
  } else if (b == STALE) {
    merge_change(from_path, from_len, dir, K_DELETE, has_ino, ino); /* went into a directory since removed */
  } else {
    struct entry *e = new_entry(MOVE);
    *e = (struct entry){.type = MOVE, .kinds = K_MOVE, .dir = dir, .has_ino = has_ino, .ino = ino,
                        .path = to_path, .path_len = to_len, .from = from_path, .from_len = from_len};
  }
}

static void on_event(const struct fanotify_event_metadata *m) {
  if (m->mask & FAN_Q_OVERFLOW) return rescan("overflow");
  /* computerd's own writes and our hydration are not changes made in the container. */
  if (m->pid == H.self_pid || m->pid == H.allow_pid) return;
  struct fanotify_event_info_fid *dfid = NULL, *old_dfid = NULL, *new_dfid = NULL;
  bool has_ino = false;
  uint64_t ino = 0;
  for (const char *p = (const char *)(m + 1); p + sizeof(struct fanotify_event_info_header) <= (const char *)m + m->event_len;) {
    struct fanotify_event_info_header *hdr = (void *)p;
    if (hdr->len == 0) break;
    struct fanotify_event_info_fid *fid = (void *)p;
    struct file_handle *fh = (void *)fid->handle;
    switch (hdr->info_type) {
      case FAN_EVENT_INFO_TYPE_DFID_NAME: case FAN_EVENT_INFO_TYPE_DFID: dfid = fid; break;
      case FAN_EVENT_INFO_TYPE_OLD_DFID_NAME: old_dfid = fid; break;
      case FAN_EVENT_INFO_TYPE_NEW_DFID_NAME: new_dfid = fid; break;
      case FAN_EVENT_INFO_TYPE_FID:
        /* ext4's handle (FILEID_INO32_GEN, type 1) starts with the inode number. */
        if (fh->handle_type == 1 && fh->handle_bytes >= 8) {
          uint32_t ino32;
          memcpy(&ino32, fh->f_handle, sizeof ino32);
          ino = ino32;
          has_ino = true;
        }
        break;
    }
    p += hdr->len;
  }
  bool dir = m->mask & FAN_ONDIR;
  if (m->mask & FAN_RENAME) return on_rename(old_dfid, new_dfid, dir, has_ino, ino);
  unsigned kinds = kinds_of(m->mask);
  if (!kinds) return;
  /*
   * Without a directory: a link count change, reported on the inode alone (unlink, link).
   * The same syscall's name event says what changed; anything else is a surprise.
   */
  if (!dfid) return kinds == K_ATTRIB && has_ino ? (void)0 : rescan("event without a directory handle");
  struct file_handle *fh = (void *)dfid->handle;
  const char *name = dfid->hdr.info_type == FAN_EVENT_INFO_TYPE_DFID_NAME ? (char *)fh->f_handle + fh->handle_bytes : NULL;
  size_t path, path_len;
  enum resolved result = entry_path(fh, name, &path, &path_len);
  if (result == STALE) stale_count++;
  else if (result == UNRESOLVABLE) rescan("a directory handle could not be resolved");
  else merge_change(path, path_len, dir, kinds, has_ino, ino);
}

static void emit_kinds(unsigned kinds) {
  static const char *names[] = {"create", "delete", "write", "attrib", "move"};
  out_text("[");
  bool first = true;
  for (unsigned i = 0; i < 5; i++) {
    if (!(kinds & (1u << i))) continue;
    out_text(first ? "\"" : ",\"");
    out_text(names[i]);
    out_text("\"");
    first = false;
  }
  out_text("]");
}

static void emit_batch(void) {
  for (size_t i = 0; i < entry_count; i++) {
    struct entry *e = &entries[i];
    if (e->type == RESCAN) {
      out_text("{\"t\":\"rescan\",\"reason\":\"");
      out_text(e->reason);
      out_text("\"}\n");
      continue;
    }
    out_text("{\"t\":\"change\",\"k\":");
    emit_kinds(e->kinds);
    out_text(e->dir ? ",\"dir\":true" : ",\"dir\":false");
    if (e->type == MOVE) {
      out_text(",\"from\":");
      out_json_bytes((unsigned char *)arena + e->from, e->from_len);
    }
    out_text(",\"path\":");
    out_json_bytes((unsigned char *)arena + e->path, e->path_len);
    if (e->has_ino) {
      out_text(",\"ino\":");
      out_uint(e->ino);
    }
    out_text("}\n");
  }
  if (stale_count) {
    out_text("{\"t\":\"stale\",\"count\":");
    out_uint(stale_count);
    out_text("}\n");
  }
}

/* Reads and reports one batch; *empty when the queue had nothing. */
void journal_read_batch(bool *empty) {
  static char buf[EVENT_BUFFER_BYTES] __attribute__((aligned(8)));
  ssize_t len;
  do len = read(H.journal_fd, buf, sizeof buf);
  while (len < 0 && errno == EINTR);
  *empty = len <= 0;
  if (len < 0 && errno != EAGAIN) warnx_("reading the journal: %s", strerror(errno));
  if (len <= 0) return;
  generation++;
  arena_len = 0;
  entry_count = 0;
  stale_count = 0;
  struct fanotify_event_metadata *m = (void *)buf;
  for (; FAN_EVENT_OK(m, len); m = FAN_EVENT_NEXT(m, len)) {
    if (m->vers != FANOTIFY_METADATA_VERSION) {
      warnx_("fanotify metadata version %u, expected %u", m->vers, FANOTIFY_METADATA_VERSION);
      exit(70);
    }
    if (m->fd >= 0) close(m->fd); /* never for a FID group; closed in case */
    on_event(m);
  }
  emit_batch();
}

/*
 * stdin `sync <n>`: everything queued before the command was read is reported before
 * `synced <n>`. A command's processes queue their events synchronously in their syscalls
 * (close-write on their last close, at exit), so once they have exited this covers them.
 */
void journal_sync(uint64_t n) {
  for (bool empty = false; !empty;) journal_read_batch(&empty);
  out_text("{\"t\":\"synced\",\"n\":");
  out_uint(n);
  out_text("}\n");
}
