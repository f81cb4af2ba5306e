/**
 * The system call numbers seccomp.ts's filter names, per architecture, kept apart from the
 * policy and the compiler so that a kernel bump checks one table.
 */

/**
 * System call numbers, [x86_64, aarch64]: arch/x86/entry/syscalls/syscall_64.tbl and
 * include/uapi/asm-generic/unistd.h. Calls from 424 on share one number on every architecture.
 * `null`: the architecture has no such call.
 */
export const syscallNumbers = {
  ioctl: [16, 29],
  socket: [41, 198],
  clone: [56, 220],
  ptrace: [101, 117],
  syslog: [103, 116],
  personality: [135, 92],
  vhangup: [153, 58],
  pivot_root: [155, 41],
  adjtimex: [159, 171],
  chroot: [161, 51],
  acct: [163, 89],
  settimeofday: [164, 170],
  mount: [165, 40],
  umount2: [166, 39],
  swapon: [167, 224],
  swapoff: [168, 225],
  reboot: [169, 142],
  iopl: [172, null],
  ioperm: [173, null],
  init_module: [175, 105],
  delete_module: [176, 106],
  quotactl: [179, 60],
  lookup_dcookie: [212, 18],
  clock_settime: [227, 112],
  kexec_load: [246, 104],
  add_key: [248, 217],
  request_key: [249, 218],
  keyctl: [250, 219],
  unshare: [272, 97],
  perf_event_open: [298, 241],
  name_to_handle_at: [303, 264],
  open_by_handle_at: [304, 265],
  clock_adjtime: [305, 266],
  setns: [308, 268],
  process_vm_readv: [310, 270],
  process_vm_writev: [311, 271],
  finit_module: [313, 273],
  kexec_file_load: [320, 294],
  bpf: [321, 280],
  userfaultfd: [323, 282],
  io_uring_setup: [425, 425],
  io_uring_enter: [426, 426],
  io_uring_register: [427, 427],
  open_tree: [428, 428],
  move_mount: [429, 429],
  fsopen: [430, 430],
  fsconfig: [431, 431],
  fsmount: [432, 432],
  fspick: [433, 433],
  clone3: [435, 435],
  mount_setattr: [442, 442],
  quotactl_fd: [443, 443],
  open_tree_attr: [467, 467],
} as const satisfies Record<string, readonly [number, number | null]>;

export type SyscallName = keyof typeof syscallNumbers;
