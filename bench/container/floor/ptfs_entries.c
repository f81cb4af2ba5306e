/*
 * ptfs_entries.c - requests on names and inodes: lookup (with negative entries), making and
 * removing names, rename, forget, attributes and readlink.
 */
#include "ptfs.h"

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

void ptfs_entry_ops(struct fuse_lowlevel_ops *ops)
{
	ops->lookup = op_lookup; ops->mkdir = op_mkdir; ops->mknod = op_mknod;
	ops->symlink = op_symlink; ops->link = op_link; ops->unlink = op_unlink;
	ops->rmdir = op_rmdir; ops->rename = op_rename; ops->forget = op_forget;
	ops->forget_multi = op_forget_multi; ops->getattr = op_getattr;
	ops->setattr = op_setattr; ops->readlink = op_readlink;
}
