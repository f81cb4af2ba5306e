/*
 * ptfs_files.c - open files: create and open (handing the kernel a backing file under
 * passthrough=1), read and write by fd (splice when asked), fsync, fallocate, copy_file_range,
 * lseek; flush, xattrs and ioctl answered ENOSYS/ENOTTY so the kernel stops asking.
 */
#include "ptfs.h"

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

void ptfs_file_ops(struct fuse_lowlevel_ops *ops)
{
	ops->create = op_create; ops->open = op_open; ops->release = op_release;
	ops->flush = op_flush; ops->fsync = op_fsync; ops->read = op_read;
	ops->write_buf = op_write_buf; ops->fallocate = op_fallocate;
	ops->copy_file_range = op_copy_file_range; ops->lseek = op_lseek;
	ops->getxattr = op_xattr_get; ops->listxattr = op_xattr_list;
	ops->setxattr = op_xattr_set; ops->removexattr = op_xattr_rm; ops->ioctl = op_ioctl;
}
