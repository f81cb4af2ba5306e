/*
 * ptfs_inodes.c - the inode table: one entry per (st_dev, st_ino) seen, holding an O_PATH fd
 * and the kernel's lookup count; the FUSE inode number is the entry's address.
 */
#include "ptfs.h"

#define NBUCKETS (1 << 16)
static struct inode *buckets[NBUCKETS];
static pthread_mutex_t tbl_lock = PTHREAD_MUTEX_INITIALIZER;
struct inode root;
struct fuse_session *gse;

static inline unsigned hsh(dev_t d, ino_t i)
{
	uint64_t x = (uint64_t)i * 0x9E3779B97F4A7C15ull ^ (uint64_t)d;
	return (unsigned)(x >> 48) & (NBUCKETS - 1);
}

/* find (and take a lookup ref) or insert; fd may be -1 meaning "open it" */
struct inode *get_inode(int pfd, const char *name, const struct stat *st)
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

void forget_one(fuse_ino_t ino, uint64_t nl)
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

int do_lookup(fuse_ino_t parent, const char *name, struct fuse_entry_param *e)
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
