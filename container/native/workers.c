/*
 * Worker threads for everything that writes into the workspace filesystem. They exist for
 * one reason beyond concurrency: setting a file's size there (ftruncate) raises a
 * pre-content event even through the kernel's event fd, and only the main thread answers
 * events. A job runs on a worker; its `done` runs on the main thread, woken through a pipe.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>

#include "native.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ready = PTHREAD_COND_INITIALIZER;
static struct job *queue_head, *queue_tail, *finished;
static int wake_pipe[2] = {-1, -1};

int workers_wake_fd(void) { return wake_pipe[0]; }

static void *worker(void *unused) {
  (void)unused;
  pthread_mutex_lock(&lock);
  for (;;) {
    while (!queue_head) pthread_cond_wait(&ready, &lock);
    struct job *job = queue_head;
    queue_head = job->next;
    if (!queue_head) queue_tail = NULL;
    pthread_mutex_unlock(&lock);
    job->run(job);
    pthread_mutex_lock(&lock);
    job->next = finished;
    finished = job;
    char one = 1;
    if (write(wake_pipe[1], &one, 1) < 0 && errno != EAGAIN) warnx_("waking the main thread: %s", strerror(errno));
  }
  return NULL;
}

int workers_start(void) {
  if (pipe2(wake_pipe, O_CLOEXEC | O_NONBLOCK) < 0) return -1;
  for (int i = 0; i < WORKER_THREADS; i++) {
    pthread_t thread;
    if ((errno = pthread_create(&thread, NULL, worker, NULL)) != 0) return -1;
    pthread_detach(thread);
  }
  return 0;
}

/* Jobs run in the order they were submitted (several at once). */
void workers_submit(struct job *job) {
  job->next = NULL;
  pthread_mutex_lock(&lock);
  if (queue_tail)
    queue_tail->next = job;
  else
    queue_head = job;
  queue_tail = job;
  pthread_cond_signal(&ready);
  pthread_mutex_unlock(&lock);
}

/* Main thread: runs `done` for every finished job. */
void workers_collect(void) {
  char drain[64];
  while (read(wake_pipe[0], drain, sizeof drain) > 0) {
  }
  pthread_mutex_lock(&lock);
  struct job *list = finished;
  finished = NULL;
  pthread_mutex_unlock(&lock);
  /* The list is newest first; reverse it so completions are reported in order. */
  struct job *ordered = NULL;
  while (list) {
    struct job *next = list->next;
    list->next = ordered;
    ordered = list;
    list = next;
  }
  while (ordered) {
    struct job *job = ordered;
    ordered = job->next;
    job->done(job);
  }
}
