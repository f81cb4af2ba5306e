/** Limits computerd holds itself to, each with the reason it exists. Wire-level limits live in container/wire. */
export const daemonLimits = {
  /** How long the kernel trusts a path's attributes and lookups; a change made through the API shows on the mount within this. */
  fuseAttrTimeoutSeconds: 1,
  fuseEntryTimeoutSeconds: 1,
  /** How long the kernel trusts "no such file"; same bound, so a file created through the API shows within it too. */
  fuseNegativeTimeoutSeconds: 1,
  /** How long one FUSE callback may take before the kernel is answered ETIMEDOUT; hydrating a large file can take a while. */
  fuseOpTimeoutMs: 10 * 60_000,
  /** How far the FUSE mount reads ahead, as large as one request may be (fs/mount.ts, `readAheadWide`). */
  fuseReadAheadKb: 1024,
  /** How long an open of a not-yet-downloaded file waits for a session before failing with EIO. */
  hydrateSessionWaitMs: 30_000,
  /** How many times a download restarts because the file changed on the object while it was read. */
  hydrateRestartsMax: 5,
  /**
   * Quiet time after a local change before pushing, so a burst of writes costs one push. A push
   * runs on the same event loop as every FUSE op, so pushing in the short gaps of a busy command
   * (a shell loop, npm extracting) slowed the command itself; exec's flush pushes at its end anyway.
   */
  pushDebounceMs: 200,
  /** A command that writes without pause still gets its changes pushed this often. */
  pushDelayMsMax: 2_000,
  /** Largest file a push reads synchronously (sync/pushRead.ts): a millisecond of the event loop at most; larger files go through the thread pool. */
  pushSyncReadBytesMax: 256 * 1024,
  /** Own revisions remembered so that they are skipped when they come back down; older ones are compared by ETag instead. */
  ownRevsKeptMax: 100_000,
  /** After SIGTERM on timeout, how long the process group has before SIGKILL. */
  killGraceMs: 2_000,
  /** After a command exits, how long its output pipes may stay open (a background child holding them) before they are cut. */
  stdioDrainAfterExitMs: 2_000,
  /** Largest stdin accepted; it travels inside one RPC message. */
  stdinBytesMax: 4 * 1024 * 1024,
  /**
   * Largest incoming WebSocket message: an `apply` batch holds up to 8 MiB of content, raw in a
   * binary frame (container/wire/socket.ts), or a third more as base64 in JSON text from an
   * object that did not ask for the binary framing.
   */
  wsPayloadBytesMax: 32 * 1024 * 1024,
  /** Commands running at once; each is a process group the daemon must track and kill. */
  runningExecsMax: 64,
  /** Kills remembered for commands not started yet; only the newest matter (a kill races its own start). */
  earlyKillsKept: 1_024,
  /**
   * Conflicts kept for the next command's outcome (each is also in the log): one message must
   * carry them, and a thousand say "a whole directory" as well as more would.
   */
  conflictsKeptMax: 1_000,
} as const;

/** The box launched ahead of the next command (exec/spare.ts). */
export const spareLimits = {
  /**
   * Longest working directory, command and environment a spare box takes. Its bash reads the
   * message a byte per system call (a pipe cannot be read ahead and given back): 1.4 ms per
   * KiB here (800 KiB in 1.1 s), so a usual message (a command and the default environment,
   * under 1 KiB) costs about a millisecond, and 8 KiB a third of a fresh launch. Longer ones
   * are launched fresh.
   */
  messageBytesMax: 8 * 1024,
  /**
   * How long a discarded spare has to end on its own (its bash reads end of file where its
   * message would be, and exits) before it is killed. Killed, the launcher dies with it and
   * the box's pid 1 is left to computerd, which cannot reap it (docs/container-sandbox.md).
   */
  discardGraceMs: 2_000,
} as const;

/** Exit codes computerd ends with on its own, so a supervisor's log says why. */
export const daemonExitCodes = {
  /** The native mode's fanotify helper died: placeholders were unguarded, so the daemon stopped its commands and itself. */
  helperLost: 70,
} as const;

/** The environment a command starts from, before the request's own variables. */
export const execEnvDefaults = {
  PATH: "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
  LANG: "C.UTF-8",
  TERM: "dumb",
  TZ: "UTC",
} as const;

/**
 * Node keeps its own CA list and reads the system's only when told: point it at the box's
 * bundle, which is the host's (boxLimits.trustStore), so npm trusts what curl and git trust.
 */
export const execEnvTrust = { NODE_EXTRA_CA_CERTS: "/etc/ssl/certs/ca-certificates.crt" } as const;

/** The box commands run in (sandbox/box.ts), each value with the reason it is what it is. */
export const boxLimits = {
  /** The uid and gid a command has inside its box by default: an ordinary user, as on a developer's machine. */
  uid: 1000,
  /**
   * Box uids (and gids) 0 to this minus one are mapped onto the computer's host range
   * (sandbox/userns.ts): every id a Debian system hands out, nobody (65534) included, so
   * root in the box can own a file as any of them, as pjdfstest and `tar -p` expect.
   */
  uidsMapped: 65_536,
  /**
   * The first host uid of a computer's range when the supervisor assigns none (one computer
   * per Cloudflare Container): box root is this uid on the host and the box user 1000 is
   * this plus 1000. Far above any system or login user, so a process that escaped would own
   * nothing outside its computer's range.
   */
  hostUidDefault: 100_000,
  /**
   * What root in the box may do: Docker's default set for a container's root. Each holds only
   * inside the computer's user namespace, over files whose owner is mapped there. Left out on
   * purpose: CAP_SYS_ADMIN (mounts, namespaces), CAP_NET_ADMIN (the box's own network setup),
   * CAP_SYS_PTRACE, CAP_SYS_RESOURCE (it would let root raise the namespace's user-namespace
   * cap) and the rest, which no command needs and which widen the kernel's reach.
   */
  rootCaps: [
    "CAP_CHOWN",
    "CAP_DAC_OVERRIDE",
    "CAP_FOWNER",
    "CAP_FSETID",
    "CAP_KILL",
    "CAP_SETGID",
    "CAP_SETUID",
    "CAP_SETPCAP",
    "CAP_SETFCAP",
    "CAP_NET_BIND_SERVICE",
    "CAP_NET_RAW",
    "CAP_SYS_CHROOT",
    "CAP_MKNOD",
    "CAP_AUDIT_WRITE",
  ],
  /** Where the workspace appears inside the box, whatever computerd's own mount point is. */
  workspace: "/workspace",
  /** HOME inside the box; the image names it in /etc/passwd for uid 1000. */
  home: "/home/user",
  hostname: "cubicle",
  /** Debian's CA bundle, in the image and on a Debian host; the box sees the host's (sandbox/box.ts says why). */
  trustStore: "/etc/ssl/certs/ca-certificates.crt",
  /** Root-owned, 0755 on the host: the box user reaches its /tmp, home and sockets through it. */
  stagingRoot: "/run/cubicle-box",
  /** PATH of the host-side launcher (bash, setpriv, bwrap). */
  hostPath: "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
  /**
   * Times the device-node supervisor (sandbox/mknod.ts) is restarted after dying unasked;
   * past it device nodes are refused (EPERM) until the daemon restarts, rather than a broken
   * program being started in a loop.
   */
  mknodRestartsMax: 5,
  /** The box's /dev/shm: POSIX shared memory for semaphores and small queues, not a second /tmp. */
  devShmBytesMax: 64 * 1024 * 1024,
  /** The box's /run holds one socket; a tiny tmpfs is enough and is made read-only before the command starts. */
  runBytesMax: 64 * 1024,
  /**
   * Where a benchmark's scratch disk appears (COMPUTERD_BOX_SCRATCH, never set in production):
   * a directory every Debian image has, empty, and meant for mounted filesystems.
   */
  scratch: "/mnt",
} as const;

/** A computer's cgroups (sandbox/cgroup.ts), each value with the reason it is what it is. */
export const cgroupLimits = {
  /** How often a running command's pids and OOM counters are read: a fork bomb is stopped within this, for two small reads. */
  pollIntervalMs: 100,
  /** How long kill() waits for the freezer to stop every process before it signals them anyway (a task blocked on FUSE may not freeze). */
  freezeWaitMs: 500,
  /** How long kill() and remove() wait for a cgroup to empty: SIGKILLed processes exit within milliseconds unless stuck in the kernel. */
  emptyWaitMs: 3_000,
  /** Pause between two looks at a cgroup that is freezing or emptying. */
  retryMs: 10,
  /** The CFS period, the kernel's default: a quota of `cpuMillicores × 100 µs` per period is that many thousandths of a core. */
  cpuPeriodUs: 100_000,
  /** cpu.shares for one full core, the kernel's default weight; computers under contention share CPU by their plans' cores. */
  cpuSharesPerCore: 1_024,
  /** Smallest memory limit accepted: below it not even a shell starts, so a smaller value is a bug upstream. */
  memoryBytesMin: 4 * 1024 * 1024,
  /** Smallest CPU share accepted: the kernel's smallest CFS quota is 1 ms per 100 ms period. */
  cpuMillicoresMin: 10,
  /**
   * What a computer gets before its first request names its limits, or for a request from an
   * object older than `resources`: the free plan's (tenants/account/plans.ts), the smallest.
   */
  resourcesDefault: {
    memoryBytesMax: 512 * 1024 * 1024,
    pidsMax: 128,
    cpuMillicores: 1_000,
    tmpBytesMax: 256 * 1024 * 1024,
  },
} as const;
