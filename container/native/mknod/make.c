/*
 * Carrying out one mknod of a device on a box's behalf, in two processes.
 *
 * The caller-context child enters the caller's user namespace with the caller's own ids,
 * groups, capabilities and umask, chroots to the caller's root and makes the call exactly as
 * the caller did. The kernel therefore answers every case before the capability check as it
 * answers the caller (ENOENT, ENOTDIR, EEXIST, ENAMETOOLONG, ELOOP, EACCES, EROFS...), and
 * answers EPERM only where the single thing missing is CAP_MKNOD in the host's namespace.
 * Then, still as the caller, it opens the parent directory and asks again there, so the
 * directory that will hold the node is one the caller itself reached and may create in, with
 * no symlink left to follow (the last component is one name, never followed by mknod).
 *
 * The worker, host root, receives that directory, refuses (EPERM, what the kernel says) unless
 * its mount is nodev (a node there can never be opened: the safety rule), and makes the node
 * with the caller's filesystem ids and groups, the caller's umask, and no capability but
 * CAP_MKNOD, CAP_DAC_OVERRIDE (the caller's permission on that directory was just checked by
 * the kernel) and, where the caller's CAP_FSETID would apply to that directory, CAP_FSETID
 * (for the setgid rule of inode_init_owner).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mknod.h"

int caps_set(uint64_t effective, uint64_t permitted) {
  struct __user_cap_header_struct header = {.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0};
  struct __user_cap_data_struct data[2] = {
      {.effective = (uint32_t)effective, .permitted = (uint32_t)permitted, .inheritable = 0},
      {.effective = (uint32_t)(effective >> 32), .permitted = (uint32_t)(permitted >> 32), .inheritable = 0},
  };
  return (int)syscall(SYS_capset, &header, data);
}

/* Makes every permitted capability effective again (a uid change clears the effective set). */
static int caps_raise_permitted(void) {
  struct __user_cap_header_struct header = {.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0};
  struct __user_cap_data_struct data[2];
  if (syscall(SYS_capget, &header, data) < 0) return -1;
  uint64_t permitted = data[0].permitted | ((uint64_t)data[1].permitted << 32);
  return caps_set(permitted, permitted);
}

static bool is_device(uint64_t mode_raw) {
  // The kernel reads the mode as umode_t: the low 16 bits.
  mode_t type = (mode_t)(mode_raw & 0xffff) & S_IFMT;
  return type == S_IFCHR || type == S_IFBLK;
}

static bool mapped(uint32_t id, const uint32_t map[][3], int lines) {
  for (int i = 0; i < lines; i++) {
    if (id >= map[i][1] && (uint64_t)id < (uint64_t)map[i][1] + map[i][2]) return true;
  }
  return false;
}

static int send_fd(int sock, int fd, const char *name) {
  char control[CMSG_SPACE(sizeof(int))] = {0};
  struct iovec iov = {.iov_base = (void *)name, .iov_len = strlen(name) + 1};
  struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = control, .msg_controllen = sizeof control};
  struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
  c->cmsg_level = SOL_SOCKET;
  c->cmsg_type = SCM_RIGHTS;
  c->cmsg_len = CMSG_LEN(sizeof(int));
  memcpy(CMSG_DATA(c), &fd, sizeof fd);
  return sendmsg(sock, &msg, MSG_NOSIGNAL) < 0 ? -1 : 0;
}

static int recv_fd(int sock, char *name, size_t size) {
  char control[CMSG_SPACE(sizeof(int))] = {0};
  struct iovec iov = {.iov_base = name, .iov_len = size - 1};
  struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = control, .msg_controllen = sizeof control};
  ssize_t n = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
  if (n <= 0) return -1;
  name[n] = 0;
  struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
  if (!c || c->cmsg_type != SCM_RIGHTS || c->cmsg_len != CMSG_LEN(sizeof(int))) return -1;
  int fd;
  memcpy(&fd, CMSG_DATA(c), sizeof fd);
  return fd;
}

/* Becomes the caller: its ids and groups (kept capabilities to enter its namespace), its namespace, its root. */
static int become_caller(const struct request *rq) {
  if (prctl(PR_SET_KEEPCAPS, 1) < 0) return -1;
  if (setgroups((size_t)rq->groups_count, rq->groups) < 0) return -1;
  if (setresgid(rq->gid[0], rq->gid[1], rq->gid[2]) < 0 || setresuid(rq->uid[0], rq->uid[1], rq->uid[2]) < 0) return -1;
  setfsgid(rq->gid[3]);
  setfsuid(rq->uid[3]);
  if ((gid_t)setfsgid((gid_t)-1) != rq->gid[3] || (uid_t)setfsuid((uid_t)-1) != rq->uid[3]) return -1;
  // setns(CLONE_NEWUSER) asks CAP_SYS_ADMIN over the target namespace: still permitted (kept).
  if (caps_raise_permitted() < 0) return -1;
  if (setns(rq->userns_fd, CLONE_NEWUSER) < 0) return -1;
  if (fchdir(rq->root_fd) < 0 || chroot(".") < 0) return -1;
  umask(rq->umask);
  return caps_set(rq->cap_effective, rq->cap_effective);
}

/* The last component of `path` (which the kernel just took to be a name to create: no trailing slash). */
static void split(const char *path, char *parent, char *name) {
  const char *slash = strrchr(path, '/');
  if (!slash) {
    strcpy(parent, ".");
    strcpy(name, path);
    return;
  }
  size_t len = (size_t)(slash - path);
  if (len == 0) len = 1; // "/x": the parent is "/"
  memcpy(parent, path, len);
  parent[len] = 0;
  strcpy(name, slash + 1);
}

/* The caller-context child: exits with the errno to answer, or CHILD_MAKE_IT after sending the parent directory. */
static void caller_child(const struct request *rq, int sock) {
  alarm(REQUEST_SECONDS_MAX);
  if (become_caller(rq) < 0) _exit(EIO);
  int at = rq->base_fd >= 0 ? rq->base_fd : AT_FDCWD;
  if (syscall(SYS_mknodat, at, rq->path, rq->mode_raw, rq->dev_raw) == 0) _exit(0);
  if (errno != EPERM) _exit(errno);
  // EPERM from a caller without CAP_MKNOD in its own namespace is the kernel's last word.
  if (!is_device(rq->mode_raw) || !(rq->cap_effective & CAP_BIT(CAP_NUM_MKNOD))) _exit(EPERM);
  static char parent[PATH_MAX], name[PATH_MAX];
  split(rq->path, parent, name);
  int parent_fd = openat(at, parent, O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (parent_fd < 0) _exit(errno);
  if (syscall(SYS_mknodat, parent_fd, name, rq->mode_raw, rq->dev_raw) == 0) _exit(0);
  if (errno != EPERM) _exit(errno);
  _exit(send_fd(sock, parent_fd, name) < 0 ? EIO : CHILD_MAKE_IT);
}

static bool plain_name(const char *name) {
  return name[0] && !strchr(name, '/') && strcmp(name, ".") != 0 && strcmp(name, "..") != 0;
}

/* The worker's own part, host root: the safety rule, then the node with the caller's identity. */
static int make_node(const struct request *rq, int parent_fd, const char *name) {
  if (!plain_name(name) || !is_device(rq->mode_raw)) return EPERM;
  struct statvfs fs;
  if (fstatvfs(parent_fd, &fs) < 0) return errno;
  if (!(fs.f_flag & ST_NODEV)) return EPERM;
  struct stat dir;
  if (fstat(parent_fd, &dir) < 0) return errno;
  if (!S_ISDIR(dir.st_mode)) return ENOTDIR;
  uint64_t caps = CAP_BIT(CAP_NUM_MKNOD) | CAP_BIT(CAP_NUM_DAC_OVERRIDE);
  // capable_wrt_inode_uidgid: the caller's CAP_FSETID counts where both owner ids are mapped.
  if ((rq->cap_effective & CAP_BIT(CAP_NUM_FSETID)) && mapped(dir.st_uid, rq->uid_map, rq->uid_map_lines) &&
      mapped(dir.st_gid, rq->gid_map, rq->gid_map_lines)) {
    caps |= CAP_BIT(CAP_NUM_FSETID);
  }
  if (setgroups((size_t)rq->groups_count, rq->groups) < 0) return EIO;
  setfsgid(rq->gid[3]);
  setfsuid(rq->uid[3]);
  umask(rq->umask);
  if (caps_set(caps, caps) < 0) return EIO;
  if (syscall(SYS_mknodat, parent_fd, name, rq->mode_raw, rq->dev_raw) < 0) return errno;
  return 0;
}

static void worker(const struct request *rq) {
  alarm(REQUEST_SECONDS_MAX);
  int pair[2];
  if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair) < 0) _exit(EIO);
  pid_t child = fork();
  if (child < 0) _exit(EAGAIN);
  if (child == 0) {
    close(pair[0]);
    caller_child(rq, pair[1]);
  }
  close(pair[1]);
  int status;
  while (waitpid(child, &status, 0) < 0) {
    if (errno != EINTR) _exit(EIO);
  }
  if (!WIFEXITED(status)) _exit(EIO);
  int code = WEXITSTATUS(status);
  if (code != CHILD_MAKE_IT) _exit(code);
  static char name[PATH_MAX];
  int parent_fd = recv_fd(pair[0], name, sizeof name);
  if (parent_fd < 0) _exit(EIO);
  _exit(make_node(rq, parent_fd, name));
}

int request_make(const struct request *rq) {
  pid_t pid = fork();
  if (pid < 0) return EAGAIN;
  if (pid == 0) {
    signal(SIGALRM, SIG_DFL);
    worker(rq);
  }
  int status;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return EIO;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : EIO;
}
