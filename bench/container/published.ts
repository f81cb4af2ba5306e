/**
 * Figures the container benchmark is held against (issue 19), kept here so the report can
 * show them beside each run's own:
 * - `lastFuse`: the FUSE mount as docs/benchmarks.md published it on 2026-11-29 (commit
 *   109cabd, before the sandbox and the native mode), medians inside the box, with the tmpfs
 *   of the same run. The fallback must not be slower than these. Its "disk" was then the
 *   host's root ext4 seen through the box, so its ratios are not comparable with today's,
 *   which divide by a fresh loop ext4; the absolute times are, on an unchanged machine, and
 *   FUSE ÷ tmpfs is when the machine itself got faster or slower.
 * - `seed`: the seed project's own published ratios (mount ÷ disk) for the same scenarios,
 *   by family, as issue 19 quotes them.
 */
export const lastFuse = {
  date: "2026-11-29",
  /** Median timed ms per scenario id. */
  timedMs: {
    create: 754.5,
    stat: 76.7,
    rm: 267.2,
    mkdir: 936.3,
    find: 231.7,
    write64: 106.3,
    read64: 55.0,
    copy64: 175.0,
    overwrite64: 92.0,
    git: 435.9,
    "npm-small": 712.0,
    "npm-full": 16_640,
  } as Record<string, number>,
  /** The same run's tmpfs medians (/dev/shm in the box of then), per scenario id. */
  tmpfsMs: {
    create: 15.9,
    stat: 5.5,
    rm: 8.9,
    mkdir: 6.6,
    find: 12.7,
    write64: 32.0,
    read64: 15.6,
    copy64: 34.4,
    overwrite64: 23.4,
    git: 18.6,
    "npm-small": 698.6,
    "npm-full": 5_240,
  } as Record<string, number>,
  /** Client wall of the timed exec (FUSE / disk), for the end-to-end rows. */
  wallMs: {
    create: { mount: 1_780, disk: 478.6 },
    "npm-full": { mount: 25_770, disk: 8_360 },
  } as Record<string, { mount: number; disk: number }>,
  coldStartP50Ms: 217.5,
  warmEchoP50Ms: 31.3,
  firstExecTreeMs: 5_810,
  treeFindMs: 3_700,
  emptyRssMiB: 72,
  treeRssMiB: 121,
  treeAfterFindRssMiB: 128,
};

export const seed = {
  metadata: "0.66–1.85×",
  io: "17–43×",
  npmFull: "1.95×",
};
