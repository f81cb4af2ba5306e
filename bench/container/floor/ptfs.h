/*
 * ptfs.h - what the parts of the benchmark's passthrough FUSE daemon share (ptfs.c says what
 * the daemon is; build.sh compiles every ptfs*.c into one binary).
 */
#pragma once
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
extern uint64_t *cnt;
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
extern struct opts o;

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
/* The mirrored source directory's root; every other inode is a pointer from the table. */
extern struct inode root;
extern struct fuse_session *gse;

static inline struct inode *IN(fuse_ino_t ino)
{
	return ino == FUSE_ROOT_ID ? &root : (struct inode *)(uintptr_t)ino;
}
static inline int FD(fuse_ino_t ino) { return IN(ino)->fd; }

/* ptfs_inodes.c: the inode table */
struct inode *get_inode(int pfd, const char *name, const struct stat *st);
void forget_one(fuse_ino_t ino, uint64_t nl);
int do_lookup(fuse_ino_t parent, const char *name, struct fuse_entry_param *e);

/* ptfs_passthrough.c: kernel FUSE passthrough on libfuse 3.14 */
extern __thread int tl_in_init;
extern __thread int tl_backing_id;
int backing_get(struct inode *n);
void backing_put(struct inode *n);

/* Each ptfs_*.c that answers requests fills its part of the operations table. */
void ptfs_entry_ops(struct fuse_lowlevel_ops *ops);
void ptfs_dir_ops(struct fuse_lowlevel_ops *ops);
void ptfs_file_ops(struct fuse_lowlevel_ops *ops);
