/*
 * The launch chain's last process outside the box, kept as the parent of bwrap: it reaps
 * what bwrap leaves behind.
 *
 * bwrap with --unshare-pid forks the box's pid 1 (its own init) and exits as soon as that
 * init reports the command's exit status, before the init itself has exited. The init is then
 * reparented to the nearest subreaper or, with none, to the computer's pid 1: computerd, a
 * Node process, which reaps only the children it spawned. Every command left one zombie
 * behind, until the computer's processes ran out (bwrap: "Can't fork for pid 1", after about
 * three hundred commands). This process marks itself a child subreaper, forks, lets the
 * child exec bwrap, and waits for every descendant handed to it; it then exits as bwrap did
 * (the same code, or the same signal), so computerd sees what it saw before.
 *
 * The process group's signals (computerd's SIGTERM on a timeout) reach bwrap and the box as
 * before; this process ignores the catchable ones, so it never ends before the box does.
 * SIGKILL ends it with the rest, and an init orphaned then is left to the computer's pid 1.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mknod.h"

/* The signals a process group is sent that could end this process before its child. */
static const int forwarded[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGPIPE, SIGALRM};

void exec_reaping(char **argv) {
  sigset_t all, old;
  sigfillset(&all);
  // Blocked across the fork, so no signal lands between it and the parent ignoring them.
  sigprocmask(SIG_BLOCK, &all, &old);
  if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0) {
    // Without it the command still runs, as it did before this existed.
    sigprocmask(SIG_SETMASK, &old, NULL);
    execvp(argv[0], argv);
    return;
  }
  pid_t child = fork();
  if (child < 0) {
    sigprocmask(SIG_SETMASK, &old, NULL);
    return;
  }
  if (child == 0) {
    prctl(PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0);
    sigprocmask(SIG_SETMASK, &old, NULL);
    execvp(argv[0], argv);
    _exit(125);
  }
  // Only the child needs the launch's descriptors (bwrap's, the command's message).
  syscall(SYS_close_range, 3, ~0U, 0);
  for (size_t i = 0; i < sizeof forwarded / sizeof forwarded[0]; i++) signal(forwarded[i], SIG_IGN);
  sigprocmask(SIG_SETMASK, &old, NULL);
  int status = 0;
  bool seen = false;
  for (;;) {
    int st;
    pid_t pid = waitpid(-1, &st, 0);
    if (pid < 0) {
      if (errno == EINTR) continue;
      break; /* ECHILD: nothing left below this process */
    }
    if (pid == child) {
      status = st;
      seen = true;
    }
  }
  if (!seen || WIFEXITED(status)) exit(seen ? WEXITSTATUS(status) : 125);
  int sig = WTERMSIG(status);
  signal(sig, SIG_DFL);
  sigset_t one;
  sigemptyset(&one);
  sigaddset(&one, sig);
  sigprocmask(SIG_UNBLOCK, &one, NULL);
  raise(sig);
  exit(128 + sig);
}
