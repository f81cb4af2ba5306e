/*
 * ptfs_dirs.c - directories: opendir (or none at all, noopendir=1), readdir and readdirplus
 * (each entry looked up), releasedir, fsyncdir.
 */
#include "ptfs.h"

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

void ptfs_dir_ops(struct fuse_lowlevel_ops *ops)
{
	ops->opendir = op_opendir; ops->readdir = op_readdir; ops->readdirplus = op_readdirplus;
	ops->releasedir = op_releasedir; ops->fsyncdir = op_fsyncdir;
}
