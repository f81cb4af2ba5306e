/*
 * Filling a placeholder: the work a fill thread does once computerd has sent the content
 * (hydrate.c decides when, and answers the waiting readers after). The content is written
 * over the placeholder in place, from a file on another filesystem (copy_file_range, or
 * pread/pwrite where the kernel cannot copy between the two) or from bytes sent inline; the
 * placeholder keeps its mtime, and loses its xattr only once the content is all in.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "native.h"

/*
 * Copies the content over the placeholder in place: the waiting readers hold this very
 * inode open, so it cannot be swapped for a new file. The placeholder's size is left as it
 * is until the copy is done, so a helper killed midway leaves a placeholder (xattr still
 * there, size not zero) that the next one fills again from the start.
 */
static int copy_content(int source, int target, off_t *copied) {
  static __thread char *bounce;
  off_t offset = 0;
  for (;;) {
    ssize_t n = copy_file_range(source, NULL, target, &offset, COPY_CHUNK_BYTES, 0);
    if (n > 0) continue;
    if (n == 0) break;
    if (errno == EINTR) continue;
    if (errno != EXDEV && errno != EINVAL && errno != ENOSYS && errno != EOPNOTSUPP) return errno;
    /* No in-kernel copy between these two filesystems (tmpfs, say): read and write. */
    if (!bounce && !(bounce = malloc(COPY_BOUNCE_BYTES))) return ENOMEM;
    ssize_t got = pread(source, bounce, COPY_BOUNCE_BYTES, offset);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return errno;
    if (got == 0) break;
    for (ssize_t done = 0; done < got;) {
      ssize_t put = pwrite(target, bounce + done, (size_t)(got - done), offset + done);
      if (put < 0 && errno == EINTR) continue;
      if (put < 0) return errno;
      done += put;
    }
    offset += got;
  }
  *copied = offset;
  return 0;
}

static int write_all(int target, const unsigned char *bytes, size_t len, off_t *written) {
  size_t done = 0;
  while (done < len) {
    ssize_t put = pwrite(target, bytes + done, len - done, (off_t)done);
    if (put < 0 && errno == EINTR) continue;
    if (put < 0) return errno;
    done += (size_t)put;
  }
  *written = (off_t)len;
  return 0;
}

/*
 * A fill thread's job: writes a placeholder's content into `target` (its event fd), from
 * `data` when given, else from `source`. `requested_size` is the placeholder's size when
 * its first reader came. 0 when the placeholder now holds the content, else an errno.
 */
int fill_placeholder(int target, off_t requested_size, const unsigned char *data, size_t data_len, int source) {
  struct stat st;
  if (fstat(target, &st) < 0) return errno;
  /* Emptied by an O_TRUNC open since the request (no event for that): its writer wins. */
  if (st.st_size != requested_size) return fremovexattr(target, PLACEHOLDER_XATTR) < 0 && errno != ENODATA ? errno : 0;
  struct timespec times[2] = {{.tv_nsec = UTIME_OMIT}, st.st_mtim};
  off_t copied = 0;
  int err = data ? write_all(target, data, data_len, &copied) : copy_content(source, target, &copied);
  /* Shrinking raises a pre-content event of our own pid, which the main thread allows. */
  if (!err && copied < st.st_size && ftruncate(target, copied) < 0) err = errno;
  /* Writing moved the mtime; the file's mtime is the placeholder's, which is the object's. */
  if (futimens(target, times) < 0 && !err) err = errno;
  if (err) return err;
  if (fremovexattr(target, PLACEHOLDER_XATTR) < 0 && errno != ENODATA) return errno;
  return 0;
}
