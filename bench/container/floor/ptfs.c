/*
 * ptfs.c - tuned low-level libfuse3 (3.14) passthrough daemon for benchmarking.
 *
 * Mirrors a source directory (the "replica") at a mountpoint.
 * Inode table keyed by (st_dev, st_ino) holding O_PATH fds; FUSE ino = pointer.
 *
 * Options (-o): source=DIR, timeout=SEC (entry+attr+negative), writeback=0|1,
 *   readdirplus=0|1, splice=0|1, cachedir=0|1 (FOPEN_CACHE_DIR+KEEP_CACHE on
 *   opendir), noopendir=0|1 (answer OPENDIR with ENOSYS -> zero-message opendir),
 *   keepcache=0|1, passthrough=0|1 (kernel FUSE passthrough, see below),
 *   maxwrite=BYTES, counters=FILE (mmapped uint64 per-opcode counters).
 *   Standard: -f -s -o clone_fd,max_threads=N,max_idle_threads=N, fsname etc.
 *
 * FUSE passthrough on libfuse 3.14: 3.14 has no FUSE_CAP_PASSTHROUGH, so this
 * daemon interposes writev() (the call libfuse uses to write replies to
 * /dev/fuse) and patches (a) the INIT reply: FUSE_INIT_EXT + flags2 bit 37
 * (FUSE_PASSTHROUGH) + max_stack_depth=1, and (b) OPEN/CREATE replies made
 * while a thread-local backing id is pending: FOPEN_PASSTHROUGH + backing_id.
 * Backing ids come from ioctl(FUSE_DEV_IOC_BACKING_OPEN) on the session fd.
 */
#define _GNU_SOURCE
#define FUSE_USE_VERSION 34
#include <fuse_lowlevel.h>
#include <fuse_opt.h>
#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

/* ---- kernel passthrough ABI (not in bookworm's linux/fuse.h 7.38) ---- */
struct pt_backing_map { int32_t fd; uint32_t flags; uint64_t padding; };
#define PT_DEV_IOC_MAGIC 229
#define PT_DEV_IOC_BACKING_OPEN _IOW(PT_DEV_IOC_MAGIC, 1, struct pt_backing_map)
#define PT_DEV_IOC_BACKING_CLOSE _IOW(PT_DEV_IOC_MAGIC, 2, uint32_t)
#define PT_FOPEN_PASSTHROUGH (1u << 7)
#define PT_INIT_EXT (1u << 30)
#define PT_FLAGS2_PASSTHROUGH (1u << (37 - 32))

/* ---- counters ---- */
enum { C_LOOKUP, C_FORGET, C_GETATTR, C_SETATTR, C_READLINK, C_MKNOD, C_MKDIR,
	C_UNLINK, C_RMDIR, C_SYMLINK, C_RENAME, C_LINK, C_OPEN, C_READ, C_WRITE,
	C_STATFS, C_RELEASE, C_FSYNC, C_FLUSH, C_OPENDIR, C_READDIR, C_READDIRPLUS,
	C_RELEASEDIR, C_FSYNCDIR, C_CREATE, C_XATTR, C_FALLOCATE, C_COPY, C_LSEEK,
	C_IOCTL, C_OTHER, C_NUM };
static const char *cnames[C_NUM] = { "lookup", "forget", "getattr", "setattr",
	"readlink", "mknod", "mkdir", "unlink", "rmdir", "symlink", "rename",
	"link", "open", "read", "write", "statfs", "release", "fsync", "flush",
	"opendir", "readdir", "readdirplus", "releasedir", "fsyncdir", "create",
	"xattr", "fallocate", "copy_file_range", "lseek", "ioctl", "other" };
static uint64_t dummy_cnt[C_NUM];
static uint64_t *cnt = dummy_cnt;
#define CNT(c) __atomic_fetch_add(&cnt[c], 1, __ATOMIC_RELAXED)

/* ---- options ---- */
struct opts {
	char *source;
	double timeout;
	int writeback, readdirplus, splice, cachedir, noopendir, keepcache;
	int passthrough;
	unsigned maxwrite;
	char *counters;
};
static struct opts o = { .timeout = 86400.0, .writeback = 1, .readdirplus = 1,
	.splice = 0, .cachedir = 1, .noopendir = 0, .keepcache = 1,
	.passthrough = 0, .maxwrite = 1 << 20 };
#define OPT(t, p) { t, offsetof(struct opts, p), 1 }
static const struct fuse_opt opt_spec[] = {
	OPT("source=%s", source), OPT("timeout=%lf", timeout),
	OPT("writeback=%d", writeback), OPT("readdirplus=%d", readdirplus),
	OPT("splice=%d", splice), OPT("cachedir=%d", cachedir),
	OPT("noopendir=%d", noopendir), OPT("keepcache=%d", keepcache),
	OPT("passthrough=%d", passthrough), OPT("maxwrite=%u", maxwrite),
	OPT("counters=%s", counters), FUSE_OPT_END
};

/* ---- inode table ---- */
struct inode {
	struct inode *next;
	int fd;			/* O_PATH */
	dev_t dev;
	ino_t ino;
	uint64_t nlookup;	/* under tbl_lock */
	pthread_mutex_t m;	/* backing state */
	int backing_id, backing_ref, backing_fd;
};
#define NBUCKETS (1 << 16)
static struct inode *buckets[NBUCKETS];
static pthread_mutex_t tbl_lock = PTHREAD_MUTEX_INITIALIZER;
static struct inode root;
static struct fuse_session *gse;

static inline unsigned hsh(dev_t d, ino_t i)
{
	uint64_t x = (uint64_t)i * 0x9E3779B97F4A7C15ull ^ (uint64_t)d;
	return (unsigned)(x >> 48) & (NBUCKETS - 1);
}
static inline struct inode *IN(fuse_ino_t ino)
{
	return ino == FUSE_ROOT_ID ? &root : (struct inode *)(uintptr_t)ino;
}
static inline int FD(fuse_ino_t ino) { return IN(ino)->fd; }

/* find (and take a lookup ref) or insert; fd may be -1 meaning "open it" */
static struct inode *get_inode(int pfd, const char *name, const struct stat *st)
{
	unsigned h = hsh(st->st_dev, st->st_ino);
	struct inode *n;
	pthread_mutex_lock(&tbl_lock);
	for (n = buckets[h]; n; n = n->next)
		if (n->ino == st->st_ino && n->dev == st->st_dev) {
			n->nlookup++;
			pthread_mutex_unlock(&tbl_lock);
			return n;
		}
	pthread_mutex_unlock(&tbl_lock);
	int fd = openat(pfd, name, O_PATH | O_NOFOLLOW);
	if (fd < 0)
		return NULL;
	n = calloc(1, sizeof(*n));
	n->fd = fd; n->dev = st->st_dev; n->ino = st->st_ino; n->nlookup = 1;
	n->backing_id = 0; n->backing_fd = -1;
	pthread_mutex_init(&n->m, NULL);
	pthread_mutex_lock(&tbl_lock);
	struct inode *m;
	for (m = buckets[h]; m; m = m->next)	/* raced? */
		if (m->ino == st->st_ino && m->dev == st->st_dev) {
			m->nlookup++;
			pthread_mutex_unlock(&tbl_lock);
			close(fd); free(n);
			return m;
		}
	n->next = buckets[h];
	buckets[h] = n;
	pthread_mutex_unlock(&tbl_lock);
	return n;
}

static void forget_one(fuse_ino_t ino, uint64_t nl)
{
	struct inode *n = IN(ino);
	if (n == &root)
		return;
	pthread_mutex_lock(&tbl_lock);
	assert(n->nlookup >= nl);
	n->nlookup -= nl;
	if (n->nlookup == 0) {
		struct inode **pp = &buckets[hsh(n->dev, n->ino)];
		while (*pp != n) pp = &(*pp)->next;
		*pp = n->next;
		pthread_mutex_unlock(&tbl_lock);
		close(n->fd);
		pthread_mutex_destroy(&n->m);
		free(n);
		return;
	}
	pthread_mutex_unlock(&tbl_lock);
}

static int do_lookup(fuse_ino_t parent, const char *name, struct fuse_entry_param *e)
{
	int pfd = FD(parent);
	memset(e, 0, sizeof(*e));
	e->attr_timeout = o.timeout;
	e->entry_timeout = o.timeout;
	if (fstatat(pfd, name, &e->attr, AT_SYMLINK_NOFOLLOW) < 0)
		return errno;
	struct inode *n = get_inode(pfd, name, &e->attr);
	if (!n)
		return errno;
	e->ino = (uintptr_t)n;
	return 0;
}

/* ---- passthrough plumbing: writev interposition ---- */
static __thread int tl_in_init;
static __thread int tl_backing_id;
ssize_t writev(int fd, const struct iovec *iov, int cnt_)
{
	if (tl_in_init && cnt_ >= 2 && iov[1].iov_len >= 40) {
		char *b = iov[1].iov_base;
		uint32_t *flags = (uint32_t *)(b + 12), *flags2 = (uint32_t *)(b + 32);
		uint32_t *depth = (uint32_t *)(b + 36);
		*flags |= PT_INIT_EXT;
		*flags2 |= PT_FLAGS2_PASSTHROUGH;
		*depth = 1;
		tl_in_init = 0;
	} else if (tl_backing_id && cnt_ >= 2 && iov[cnt_ - 1].iov_len >= 16) {
		char *b = (char *)iov[cnt_ - 1].iov_base + iov[cnt_ - 1].iov_len - 16;
		*(uint32_t *)(b + 8) |= PT_FOPEN_PASSTHROUGH;
		*(uint32_t *)(b + 8) &= ~(1u << 1); /* no FOPEN_KEEP_CACHE */
		*(int32_t *)(b + 12) = tl_backing_id;
		tl_backing_id = 0;
	}
	return syscall(SYS_writev, fd, iov, cnt_);
}

static int backing_get(struct inode *n)
{
	int id;
	pthread_mutex_lock(&n->m);
	if (n->backing_ref == 0) {
		char p[64];
		snprintf(p, sizeof(p), "/proc/self/fd/%d", n->fd);
		int bfd = open(p, O_RDWR);
		if (bfd < 0) bfd = open(p, O_RDONLY);
		if (bfd < 0) { pthread_mutex_unlock(&n->m); return -errno; }
		struct pt_backing_map map = { .fd = bfd };
		id = ioctl(fuse_session_fd(gse), PT_DEV_IOC_BACKING_OPEN, &map);
		if (id <= 0) {
			int e = errno;
			close(bfd);
			pthread_mutex_unlock(&n->m);
			fprintf(stderr, "BACKING_OPEN failed: %s\n", strerror(e));
			return -e;
		}
		n->backing_id = id; n->backing_fd = bfd;
	}
	n->backing_ref++;
	id = n->backing_id;
	pthread_mutex_unlock(&n->m);
	return id;
}
static void backing_put(struct inode *n)
{
	pthread_mutex_lock(&n->m);
	if (n->backing_ref > 0 && --n->backing_ref == 0) {
		uint32_t id = n->backing_id;
		ioctl(fuse_session_fd(gse), PT_DEV_IOC_BACKING_CLOSE, &id);
		close(n->backing_fd);
		n->backing_id = 0; n->backing_fd = -1;
	}
	pthread_mutex_unlock(&n->m);
}

/* ---- ops ---- */
static void op_init(void *ud, struct fuse_conn_info *c)
{
	(void)ud;
	if (o.writeback && !o.passthrough && (c->capable & FUSE_CAP_WRITEBACK_CACHE))
		c->want |= FUSE_CAP_WRITEBACK_CACHE;
	else
		c->want &= ~FUSE_CAP_WRITEBACK_CACHE;
	if (o.readdirplus) {
		c->want |= FUSE_CAP_READDIRPLUS;
		c->want &= ~FUSE_CAP_READDIRPLUS_AUTO; /* always plus */
	} else
		c->want &= ~(FUSE_CAP_READDIRPLUS | FUSE_CAP_READDIRPLUS_AUTO);
	if (o.splice)
		c->want |= FUSE_CAP_SPLICE_WRITE | FUSE_CAP_SPLICE_MOVE | FUSE_CAP_SPLICE_READ;
	else
		c->want &= ~(FUSE_CAP_SPLICE_WRITE | FUSE_CAP_SPLICE_MOVE | FUSE_CAP_SPLICE_READ);
	c->want |= FUSE_CAP_PARALLEL_DIROPS | FUSE_CAP_ASYNC_READ | FUSE_CAP_ASYNC_DIO;
	if (c->capable & FUSE_CAP_CACHE_SYMLINKS)
		c->want |= FUSE_CAP_CACHE_SYMLINKS;
	/* we never need the kernel to auto-invalidate data on mtime change */
	c->want &= ~FUSE_CAP_AUTO_INVAL_DATA;
	if (c->capable & FUSE_CAP_EXPLICIT_INVAL_DATA)
		c->want |= FUSE_CAP_EXPLICIT_INVAL_DATA;
	c->max_write = o.maxwrite;
	c->max_readahead = 1 << 20;
	c->max_background = 64;
	c->congestion_threshold = 48;
	if (o.passthrough)
		tl_in_init = 1; /* the INIT reply is written by this thread next */
}

static void op_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	CNT(C_LOOKUP);
	struct fuse_entry_param e;
	int err = do_lookup(parent, name, &e);
	if (err == ENOENT) {	/* negative entry, cached for timeout */
		e.ino = 0;
		e.entry_timeout = o.timeout;
		fuse_reply_entry(req, &e);
	} else if (err)
		fuse_reply_err(req, err);
	else
		fuse_reply_entry(req, &e);
}

static void mk_common(fuse_req_t req, fuse_ino_t parent, const char *name, int res)
{
	if (res < 0) { fuse_reply_err(req, errno); return; }
	struct fuse_entry_param e;
	int err = do_lookup(parent, name, &e);
	if (err) fuse_reply_err(req, err); else fuse_reply_entry(req, &e);
}
static void op_mkdir(fuse_req_t req, fuse_ino_t parent, const char *name, mode_t mode)
{
	CNT(C_MKDIR);
	mk_common(req, parent, name, mkdirat(FD(parent), name, mode));
}
static void op_mknod(fuse_req_t req, fuse_ino_t parent, const char *name, mode_t mode, dev_t rdev)
{
	CNT(C_MKNOD);
	mk_common(req, parent, name, mknodat(FD(parent), name, mode, rdev));
}
static void op_symlink(fuse_req_t req, const char *link, fuse_ino_t parent, const char *name)
{
	CNT(C_SYMLINK);
	mk_common(req, parent, name, symlinkat(link, FD(parent), name));
}
static void op_link(fuse_req_t req, fuse_ino_t ino, fuse_ino_t parent, const char *name)
{
	CNT(C_LINK);
	char p[64];
	snprintf(p, sizeof(p), "/proc/self/fd/%d", FD(ino));
	if (linkat(AT_FDCWD, p, FD(parent), name, AT_SYMLINK_FOLLOW) < 0) {
		fuse_reply_err(req, errno); return;
	}
	struct fuse_entry_param e;
	int err = do_lookup(parent, name, &e);
	if (err) fuse_reply_err(req, err); else fuse_reply_entry(req, &e);
}
static void op_unlink(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	CNT(C_UNLINK);
	fuse_reply_err(req, unlinkat(FD(parent), name, 0) < 0 ? errno : 0);
}
static void op_rmdir(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	CNT(C_RMDIR);
	fuse_reply_err(req, unlinkat(FD(parent), name, AT_REMOVEDIR) < 0 ? errno : 0);
}
static void op_rename(fuse_req_t req, fuse_ino_t p1, const char *n1, fuse_ino_t p2,
		      const char *n2, unsigned int flags)
{
	CNT(C_RENAME);
	int r = renameat2(FD(p1), n1, FD(p2), n2, flags);
	fuse_reply_err(req, r < 0 ? errno : 0);
}
static void op_forget(fuse_req_t req, fuse_ino_t ino, uint64_t nl)
{
	CNT(C_FORGET);
	forget_one(ino, nl);
	fuse_reply_none(req);
}
static void op_forget_multi(fuse_req_t req, size_t count, struct fuse_forget_data *f)
{
	CNT(C_FORGET);
	for (size_t i = 0; i < count; i++)
		forget_one(f[i].ino, f[i].nlookup);
	fuse_reply_none(req);
}
static void op_getattr(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	CNT(C_GETATTR);
	(void)fi;
	struct stat st;
	if (fstatat(FD(ino), "", &st, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW) < 0)
		fuse_reply_err(req, errno);
	else
		fuse_reply_attr(req, &st, o.timeout);
}
static void op_setattr(fuse_req_t req, fuse_ino_t ino, struct stat *a, int valid,
		       struct fuse_file_info *fi)
{
	CNT(C_SETATTR);
	int fd = FD(ino), r = 0;
	char p[64];
	snprintf(p, sizeof(p), "/proc/self/fd/%d", fd);
	if (valid & FUSE_SET_ATTR_MODE)
		r = fi ? fchmod(fi->fh, a->st_mode) : chmod(p, a->st_mode);
	if (!r && (valid & (FUSE_SET_ATTR_UID | FUSE_SET_ATTR_GID)))
		r = fchownat(fd, "", (valid & FUSE_SET_ATTR_UID) ? a->st_uid : (uid_t)-1,
			     (valid & FUSE_SET_ATTR_GID) ? a->st_gid : (gid_t)-1,
			     AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW);
	if (!r && (valid & FUSE_SET_ATTR_SIZE))
		r = fi ? ftruncate(fi->fh, a->st_size) : truncate(p, a->st_size);
	if (!r && (valid & (FUSE_SET_ATTR_ATIME | FUSE_SET_ATTR_MTIME))) {
		struct timespec tv[2] = { { 0, UTIME_OMIT }, { 0, UTIME_OMIT } };
		if (valid & FUSE_SET_ATTR_ATIME_NOW) tv[0].tv_nsec = UTIME_NOW;
		else if (valid & FUSE_SET_ATTR_ATIME) tv[0] = a->st_atim;
		if (valid & FUSE_SET_ATTR_MTIME_NOW) tv[1].tv_nsec = UTIME_NOW;
		else if (valid & FUSE_SET_ATTR_MTIME) tv[1] = a->st_mtim;
		r = fi ? futimens(fi->fh, tv) : utimensat(AT_FDCWD, p, tv, 0);
	}
	if (r < 0) { fuse_reply_err(req, errno); return; }
	op_getattr(req, ino, fi);
}
static void op_readlink(fuse_req_t req, fuse_ino_t ino)
{
	CNT(C_READLINK);
	char buf[PATH_MAX + 1];
	ssize_t r = readlinkat(FD(ino), "", buf, sizeof(buf) - 1);
	if (r < 0) { fuse_reply_err(req, errno); return; }
	buf[r] = 0;
	fuse_reply_readlink(req, buf);
}

/* directories */
struct dirp { DIR *dp; struct dirent *entry; off_t offset; };
static struct dirp *dir_open(fuse_ino_t ino)
{
	int fd = openat(FD(ino), ".", O_RDONLY | O_DIRECTORY);
	if (fd < 0) return NULL;
	struct dirp *d = calloc(1, sizeof(*d));
	d->dp = fdopendir(fd);
	if (!d->dp) { close(fd); free(d); return NULL; }
	return d;
}
static void dir_close(struct dirp *d) { closedir(d->dp); free(d); }

static void op_opendir(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	CNT(C_OPENDIR);
	if (o.noopendir) { fuse_reply_err(req, ENOSYS); return; }
	struct dirp *d = dir_open(ino);
	if (!d) { fuse_reply_err(req, errno); return; }
	fi->fh = (uintptr_t)d;
	if (o.cachedir) { fi->cache_readdir = 1; fi->keep_cache = 1; }
	fuse_reply_open(req, fi);
}
static int is_dot(const char *n) { return n[0] == '.' && (!n[1] || (n[1] == '.' && !n[2])); }

static void do_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		       struct fuse_file_info *fi, int plus)
{
	struct dirp *d = (struct dirp *)(uintptr_t)fi->fh;
	int tmp = 0;
	if (!d) { d = dir_open(ino); if (!d) { fuse_reply_err(req, errno); return; } tmp = 1; }
	char *buf = malloc(size), *p = buf;
	size_t rem = size;
	int err = 0;
	if (off != d->offset) { seekdir(d->dp, off); d->entry = NULL; d->offset = off; }
	for (;;) {
		if (!d->entry) {
			errno = 0;
			d->entry = readdir(d->dp);
			if (!d->entry) { err = errno; break; }
		}
		off_t next = d->entry->d_off;
		const char *name = d->entry->d_name;
		size_t es;
		if (plus) {
			struct fuse_entry_param e;
			if (is_dot(name)) {
				memset(&e, 0, sizeof(e));
				e.attr.st_ino = d->entry->d_ino;
				e.attr.st_mode = d->entry->d_type << 12;
			} else {
				err = do_lookup(ino, name, &e);
				if (err) break;
			}
			es = fuse_add_direntry_plus(req, p, rem, name, &e, next);
			if (es > rem) {
				if (e.ino) forget_one(e.ino, 1);
				break;
			}
		} else {
			struct stat st = { .st_ino = d->entry->d_ino, .st_mode = d->entry->d_type << 12 };
			es = fuse_add_direntry(req, p, rem, name, &st, next);
			if (es > rem) break;
		}
		p += es; rem -= es;
		d->entry = NULL;
		d->offset = next;
	}
	if (err && rem == size) fuse_reply_err(req, err);
	else fuse_reply_buf(req, buf, size - rem);
	free(buf);
	if (tmp) dir_close(d);
}
static void op_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off, struct fuse_file_info *fi)
{
	CNT(C_READDIR);
	do_readdir(req, ino, size, off, fi, 0);
}
static void op_readdirplus(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off, struct fuse_file_info *fi)
{
	CNT(C_READDIRPLUS);
	do_readdir(req, ino, size, off, fi, 1);
}
static void op_releasedir(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	CNT(C_RELEASEDIR);
	(void)ino;
	if (fi->fh) dir_close((struct dirp *)(uintptr_t)fi->fh);
	fuse_reply_err(req, 0);
}
static void op_fsyncdir(fuse_req_t req, fuse_ino_t ino, int ds, struct fuse_file_info *fi)
{
	CNT(C_FSYNCDIR);
	(void)ino;
	int fd = fi->fh ? dirfd(((struct dirp *)(uintptr_t)fi->fh)->dp) : -1;
	int r = fd < 0 ? 0 : (ds ? fdatasync(fd) : fsync(fd));
	fuse_reply_err(req, r < 0 ? errno : 0);
}

/* files */
static int fix_flags(int f)
{
	f &= ~O_NOFOLLOW;
	if (o.writeback && !o.passthrough) {
		/* kernel may read-modify-write pages; it handles O_APPEND itself */
		if ((f & O_ACCMODE) == O_WRONLY) f = (f & ~O_ACCMODE) | O_RDWR;
		f &= ~O_APPEND;
	}
	return f;
}
static void set_open_fi(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	(void)req;
	fi->noflush = 1;
	if (o.passthrough) {
		int id = backing_get(IN(ino));
		if (id > 0) { tl_backing_id = id; return; }
	}
	if (o.keepcache) fi->keep_cache = 1;
}
static void op_create(fuse_req_t req, fuse_ino_t parent, const char *name, mode_t mode,
		      struct fuse_file_info *fi)
{
	CNT(C_CREATE);
	int fd = openat(FD(parent), name, fix_flags(fi->flags) | O_CREAT, mode);
	if (fd < 0) { fuse_reply_err(req, errno); return; }
	struct fuse_entry_param e;
	int err = do_lookup(parent, name, &e);
	if (err) { close(fd); fuse_reply_err(req, err); return; }
	fi->fh = fd;
	set_open_fi(req, e.ino, fi);
	fuse_reply_create(req, &e, fi);
	tl_backing_id = 0;
}
static void op_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	CNT(C_OPEN);
	char p[64];
	snprintf(p, sizeof(p), "/proc/self/fd/%d", FD(ino));
	int fd = open(p, fix_flags(fi->flags) & ~O_CREAT);
	if (fd < 0) { fuse_reply_err(req, errno); return; }
	fi->fh = fd;
	set_open_fi(req, ino, fi);
	fuse_reply_open(req, fi);
	tl_backing_id = 0;
}
static void op_release(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	CNT(C_RELEASE);
	if (o.passthrough) backing_put(IN(ino));
	close(fi->fh);
	fuse_reply_err(req, 0);
}
static void op_flush(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	CNT(C_FLUSH);
	(void)ino; (void)fi;
	fuse_reply_err(req, ENOSYS); /* kernel sets no_flush and stops sending */
}
static void op_fsync(fuse_req_t req, fuse_ino_t ino, int ds, struct fuse_file_info *fi)
{
	CNT(C_FSYNC);
	(void)ino;
	int r = ds ? fdatasync(fi->fh) : fsync(fi->fh);
	fuse_reply_err(req, r < 0 ? errno : 0);
}
static void op_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off, struct fuse_file_info *fi)
{
	CNT(C_READ);
	(void)ino;
	struct fuse_bufvec b = FUSE_BUFVEC_INIT(size);
	b.buf[0].flags = FUSE_BUF_IS_FD | FUSE_BUF_FD_SEEK;
	b.buf[0].fd = fi->fh;
	b.buf[0].pos = off;
	fuse_reply_data(req, &b, o.splice ? FUSE_BUF_SPLICE_MOVE : 0);
}
static void op_write_buf(fuse_req_t req, fuse_ino_t ino, struct fuse_bufvec *in, off_t off,
			 struct fuse_file_info *fi)
{
	CNT(C_WRITE);
	(void)ino;
	struct fuse_bufvec out = FUSE_BUFVEC_INIT(fuse_buf_size(in));
	out.buf[0].flags = FUSE_BUF_IS_FD | FUSE_BUF_FD_SEEK;
	out.buf[0].fd = fi->fh;
	out.buf[0].pos = off;
	ssize_t r = fuse_buf_copy(&out, in, o.splice ? FUSE_BUF_SPLICE_NONBLOCK : 0);
	if (r < 0) fuse_reply_err(req, -r); else fuse_reply_write(req, r);
}
static void op_statfs(fuse_req_t req, fuse_ino_t ino)
{
	CNT(C_STATFS);
	struct statvfs s;
	if (fstatvfs(FD(ino), &s) < 0) fuse_reply_err(req, errno); else fuse_reply_statfs(req, &s);
}
static void op_fallocate(fuse_req_t req, fuse_ino_t ino, int mode, off_t off, off_t len,
			 struct fuse_file_info *fi)
{
	CNT(C_FALLOCATE);
	(void)ino;
	fuse_reply_err(req, fallocate(fi->fh, mode, off, len) < 0 ? errno : 0);
}
static void op_copy_file_range(fuse_req_t req, fuse_ino_t i1, off_t o1, struct fuse_file_info *f1,
			       fuse_ino_t i2, off_t o2, struct fuse_file_info *f2, size_t len, int flags)
{
	CNT(C_COPY);
	(void)i1; (void)i2;
	loff_t a = o1, b = o2;
	ssize_t r = copy_file_range(f1->fh, &a, f2->fh, &b, len, flags);
	if (r < 0) fuse_reply_err(req, errno); else fuse_reply_write(req, r);
}
static void op_lseek(fuse_req_t req, fuse_ino_t ino, off_t off, int whence, struct fuse_file_info *fi)
{
	CNT(C_LSEEK);
	(void)ino;
	off_t r = lseek(fi->fh, off, whence);
	if (r < 0) fuse_reply_err(req, errno); else fuse_reply_lseek(req, r);
}
static void op_xattr_get(fuse_req_t req, fuse_ino_t ino, const char *name, size_t size)
{ CNT(C_XATTR); (void)ino; (void)name; (void)size; fuse_reply_err(req, ENOSYS); }
static void op_xattr_list(fuse_req_t req, fuse_ino_t ino, size_t size)
{ CNT(C_XATTR); (void)ino; (void)size; fuse_reply_err(req, ENOSYS); }
static void op_xattr_set(fuse_req_t req, fuse_ino_t ino, const char *name, const char *value,
			 size_t size, int flags)
{ CNT(C_XATTR); (void)ino; (void)name; (void)value; (void)size; (void)flags; fuse_reply_err(req, ENOSYS); }
static void op_xattr_rm(fuse_req_t req, fuse_ino_t ino, const char *name)
{ CNT(C_XATTR); (void)ino; (void)name; fuse_reply_err(req, ENOSYS); }
static void op_ioctl(fuse_req_t req, fuse_ino_t ino, int cmd, void *arg,
		     struct fuse_file_info *fi, unsigned flags, const void *in_buf,
		     size_t in_bufsz, size_t out_bufsz)
{ CNT(C_IOCTL); (void)ino; (void)cmd; (void)arg; (void)fi; (void)flags; (void)in_buf;
  (void)in_bufsz; (void)out_bufsz; fuse_reply_err(req, ENOTTY); }

static const struct fuse_lowlevel_ops ops = {
	.init = op_init, .lookup = op_lookup, .mkdir = op_mkdir, .mknod = op_mknod,
	.symlink = op_symlink, .link = op_link, .unlink = op_unlink, .rmdir = op_rmdir,
	.rename = op_rename, .forget = op_forget, .forget_multi = op_forget_multi,
	.getattr = op_getattr, .setattr = op_setattr, .readlink = op_readlink,
	.opendir = op_opendir, .readdir = op_readdir, .readdirplus = op_readdirplus,
	.releasedir = op_releasedir, .fsyncdir = op_fsyncdir, .create = op_create,
	.open = op_open, .release = op_release, .flush = op_flush, .fsync = op_fsync,
	.read = op_read, .write_buf = op_write_buf, .statfs = op_statfs,
	.fallocate = op_fallocate, .copy_file_range = op_copy_file_range,
	.lseek = op_lseek, .getxattr = op_xattr_get, .listxattr = op_xattr_list,
	.setxattr = op_xattr_set, .removexattr = op_xattr_rm, .ioctl = op_ioctl,
};

int main(int argc, char *argv[])
{
	struct fuse_args args = FUSE_ARGS_INIT(argc, argv);
	struct fuse_cmdline_opts co;
	int ret = 1;
	if (fuse_opt_parse(&args, &o, opt_spec, NULL) == -1) return 1;
	if (fuse_parse_cmdline(&args, &co) != 0) return 1;
	if (co.show_help || !co.mountpoint || !o.source) {
		fprintf(stderr, "usage: %s MOUNTPOINT -o source=DIR[,timeout=S,writeback=0|1,...] [-f] [-s]\n", argv[0]);
		return 1;
	}
	if (o.counters) {
		int cfd = open(o.counters, O_RDWR | O_CREAT | O_TRUNC, 0644);
		if (cfd < 0 || ftruncate(cfd, sizeof(uint64_t) * C_NUM) < 0) { perror("counters"); return 1; }
		cnt = mmap(NULL, sizeof(uint64_t) * C_NUM, PROT_READ | PROT_WRITE, MAP_SHARED, cfd, 0);
		if (cnt == MAP_FAILED) { perror("mmap"); return 1; }
		char nf[PATH_MAX];
		snprintf(nf, sizeof(nf), "%s.names", o.counters);
		FILE *f = fopen(nf, "w");
		for (int i = 0; i < C_NUM; i++) fprintf(f, "%s\n", cnames[i]);
		fclose(f);
	}
	root.fd = open(o.source, O_PATH);
	if (root.fd < 0) { perror(o.source); return 1; }
	root.nlookup = 2;
	pthread_mutex_init(&root.m, NULL);
	/* default_permissions-free: running as root for the benchmark */
	fuse_opt_add_arg(&args, "-oallow_other");
	struct fuse_session *se = fuse_session_new(&args, &ops, sizeof(ops), NULL);
	if (!se) goto out;
	gse = se;
	if (fuse_set_signal_handlers(se) != 0) goto out;
	if (fuse_session_mount(se, co.mountpoint) != 0) goto out;
	fuse_daemonize(co.foreground);
	if (co.singlethread)
		ret = fuse_session_loop(se);
	else {
		struct fuse_loop_config *cfg = fuse_loop_cfg_create();
		fuse_loop_cfg_set_clone_fd(cfg, co.clone_fd);
		fuse_loop_cfg_set_max_threads(cfg, (co.max_threads && co.max_threads != UINT_MAX) ? co.max_threads : 10);
		fuse_loop_cfg_set_idle_threads(cfg, (co.max_idle_threads && co.max_idle_threads != UINT_MAX) ? co.max_idle_threads : 10);
		ret = fuse_session_loop_mt(se, cfg);
		fuse_loop_cfg_destroy(cfg);
	}
	fuse_session_unmount(se);
out:
	if (se) fuse_session_destroy(se);
	fuse_opt_free_args(&args);
	return ret ? 1 : 0;
}
