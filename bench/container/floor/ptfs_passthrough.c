/*
 * ptfs_passthrough.c - the kernel's FUSE passthrough on libfuse 3.14, which has no API for
 * it: writev() (what libfuse writes replies with) is interposed to patch the INIT reply and
 * OPEN/CREATE replies, and backing ids are opened and closed per inode (ptfs.c says more).
 */
#include "ptfs.h"

__thread int tl_in_init;
__thread int tl_backing_id;
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

int backing_get(struct inode *n)
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
void backing_put(struct inode *n)
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
