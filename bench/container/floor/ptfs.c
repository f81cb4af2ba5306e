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
 *
 * Parts: this file (options, counters, INIT, statfs, main), ptfs_inodes.c (the inode
 * table), ptfs_passthrough.c (the writev patching and backing ids), ptfs_entries.c (names
 * and attributes), ptfs_dirs.c (directories), ptfs_files.c (open files); ptfs.h declares
 * what they share. build.sh compiles them together.
 */
#include "ptfs.h"

/* ---- counters (counters=FILE maps them; FILE.names lists them) ---- */
static const char *cnames[C_NUM] = { "lookup", "forget", "getattr", "setattr",
	"readlink", "mknod", "mkdir", "unlink", "rmdir", "symlink", "rename",
	"link", "open", "read", "write", "statfs", "release", "fsync", "flush",
	"opendir", "readdir", "readdirplus", "releasedir", "fsyncdir", "create",
	"xattr", "fallocate", "copy_file_range", "lseek", "ioctl", "other" };
static uint64_t dummy_cnt[C_NUM];
uint64_t *cnt = dummy_cnt;

/* ---- options ---- */
struct opts o = { .timeout = 86400.0, .writeback = 1, .readdirplus = 1,
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
static void op_statfs(fuse_req_t req, fuse_ino_t ino)
{
	CNT(C_STATFS);
	struct statvfs s;
	if (fstatvfs(FD(ino), &s) < 0) fuse_reply_err(req, errno); else fuse_reply_statfs(req, &s);
}

static struct fuse_lowlevel_ops ops = { .init = op_init, .statfs = op_statfs };

int main(int argc, char *argv[])
{
	struct fuse_args args = FUSE_ARGS_INIT(argc, argv);
	struct fuse_cmdline_opts co;
	int ret = 1;
	ptfs_entry_ops(&ops);
	ptfs_dir_ops(&ops);
	ptfs_file_ops(&ops);
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
