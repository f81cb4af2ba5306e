/** Finding the daemon's own cgroups from /proc/self/mountinfo and /proc/self/cgroup, as hosts lay them out. */
import { describe, expect, it } from "vitest";
import { keyedValue, locateOwnCgroups } from "./cgroupfs.ts";

const hybridMounts = `30 22 0:27 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
31 30 0:28 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu
34 30 0:31 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
36 30 0:33 / /sys/fs/cgroup/freezer rw,relatime - cgroup cgroup rw,freezer
38 30 0:35 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids
40 30 0:37 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw`;

describe("locateOwnCgroups", () => {
  it("joins each controller's mount with the daemon's path in it (this machine's hybrid layout)", () => {
    const own = locateOwnCgroups(hybridMounts, "8:pids:/\n6:freezer:/\n4:memory:/process_api/abc\n1:cpu:/\n0::/\n");
    expect(own).toEqual({
      v1: {
        memory: "/sys/fs/cgroup/memory/process_api/abc",
        pids: "/sys/fs/cgroup/pids",
        cpu: "/sys/fs/cgroup/cpu",
        freezer: "/sys/fs/cgroup/freezer",
      },
      unified: "/sys/fs/cgroup/unified",
    });
  });

  it("strips the mount's own root when a container runtime bind-mounted only its part of the tree", () => {
    const mounts =
      "50 40 0:31 /docker/c1 /sys/fs/cgroup/cpu,cpuacct ro,nosuid - cgroup cgroup rw,cpu,cpuacct\n" +
      "51 40 0:32 /docker/c1 /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n" +
      "52 40 0:33 /docker/c1 /sys/fs/cgroup/pids rw - cgroup cgroup rw,pids";
    const own = locateOwnCgroups(mounts, "5:cpu,cpuacct:/docker/c1/job\n4:memory:/docker/c1\n3:pids:/elsewhere\n");
    expect(own.v1).toEqual({ cpu: "/sys/fs/cgroup/cpu,cpuacct/job", memory: "/sys/fs/cgroup/memory" });
  });

  it("finds a unified-only host's tree, and decodes escaped mount points", () => {
    const own = locateOwnCgroups("25 1 0:26 / /sys/fs/my\\040cgroup rw - cgroup2 cgroup2 rw", "0::/user.slice/x\n");
    expect(own).toEqual({ v1: {}, unified: "/sys/fs/my cgroup/user.slice/x" });
  });
});

describe("keyedValue", () => {
  it("reads one counter of a flat keyed file", () => {
    expect(keyedValue("oom_kill_disable 0\nunder_oom 0\noom_kill 2\n", "oom_kill")).toBe(2);
    expect(keyedValue("max 0\n", "oom_kill")).toBeNull();
  });
});
