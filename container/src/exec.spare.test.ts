/**
 * The box launched ahead of the next command (exec/spare.ts): a command that runs in it sees
 * exactly what it would have seen in a box launched for it, and the commands a spare cannot
 * serve are launched fresh. The daemon's trace (COMPUTERD_TRACE=1) says which way each ran.
 */
import { execFileSync } from "node:child_process";
import { createHash, randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  eventually,
  makeDirs,
  mountEnv,
  mountModes,
  openSession,
  run,
  startDaemon,
  testWorkspace,
  useDaemon,
} from "./testing/harness.ts";
import { MemoryWorkspace } from "./testing/memoryWorkspace.ts";

const envs = { native: await mountEnv("native"), fuse: await mountEnv("fuse") };

/** Pids of host processes in a cgroup whose path contains `part` (any controller). */
function inCgroup(part: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/cgroup`, "utf8").includes(part)) pids.push(Number(name));
    } catch {
      // It exited while we looked.
    }
  }
  return pids;
}

/** Whether `path` is a mount point now. */
function mounted(path: string): boolean {
  return readFileSync("/proc/self/mountinfo", "utf8")
    .split("\n")
    .some((line) => line.split(" ")[4] === path);
}

describe.each(mountModes)("%s mount", (mode) => {
  const fixture = useDaemon(undefined, { ...envs[mode], COMPUTERD_TRACE: "1" });
  const sh: typeof fixture.sh = (command, opts) => fixture.sh(command, opts);

  /** How many commands so far ran in a spare box, and how many were launched fresh. */
  function launches(): { spare: number; fresh: number } {
    const log = fixture.daemon.stderr();
    return {
      spare: log.split("exec started in a spare box").length - 1,
      fresh: log.split("exec spawned").length - 1,
    };
  }

  /** Runs a command and says which way it was launched. */
  async function launched(command: string, opts: Parameters<typeof sh>[1] = {}) {
    const before = launches();
    const result = await sh(command, opts);
    const after = launches();
    const way = after.spare > before.spare ? "spare" : after.fresh > before.fresh ? "fresh" : "none";
    return { ...result, way };
  }

  /** Everything of its process and box a command can look at, bar its pid's start time. */
  const probe = [
    "env | sort",
    "pwd",
    "umask",
    "id",
    "cat",
    "hostname",
    "nice",
    "ls /proc/self/fd",
    "grep -E '^(Cap|NoNewPrivs|Seccomp|Uid|Gid|Groups)' /proc/self/status",
    "cat /proc/self/cgroup",
    "ps -e -o pid=,comm=",
  ].join("; ");

  /** Longer than a spare's message may be: the same probe, launched fresh. */
  const freshProbe = `${probe}\n#${"x".repeat(9000)}`;

  describe("a box launched ahead of its command", () => {
    it("runs the next command, which cannot tell it from a box launched for it", async () => {
      await sh("mkdir -p sub/dir");
      const opts = {
        cwd: `${fixture.daemon.mount}/sub/dir`,
        env: { SPACED: "a b", LINES: "one\ntwo", QUOTED: `it's "q" $HOME \\ \`x\`` },
        stdin: new TextEncoder().encode("piped\n"),
      };
      const fresh = await launched(freshProbe, opts);
      const spare = await launched(probe, opts);
      expect(fresh.way).toBe("fresh");
      expect(spare.way).toBe("spare");
      expect(spare.outcome).toMatchObject({ status: "completed", exitCode: 0 });
      expect(spare.stdout).toContain('QUOTED=it\'s "q" $HOME \\ `x`\n');
      expect(spare.stdout).toContain("/workspace/sub/dir\n0022\nuid=1000");
      expect(spare.stdout).toContain("piped\n");
      expect(spare.stdout).toBe(fresh.stdout);
      expect(spare.stderr).toBe(fresh.stderr);
    });

    it("fails as a fresh box does: a working directory that is gone, a command that fails", async () => {
      await sh("mkdir -p gone && rmdir gone");
      const cwd = `${fixture.daemon.mount}/gone`;
      const fresh = await launched(`pwd\n#${"x".repeat(9000)}`, { cwd });
      const missing = await launched("pwd", { cwd });
      expect([fresh.way, missing.way]).toEqual(["fresh", "spare"]);
      expect(missing.outcome).toMatchObject({ status: "failed", exitCode: fresh.outcome.exitCode });
      expect(missing.outcome.exitCode).not.toBe(0);
      expect(missing.stderr).toBe(fresh.stderr);
      const failing = await launched("echo out; echo err >&2; exit 7");
      expect(failing.way).toBe("spare");
      expect(failing.outcome).toMatchObject({ status: "failed", exitCode: 7 });
      expect([failing.stdout, failing.stderr]).toEqual(["out\n", "err\n"]);
    });

    it("is made for the user the last command ran as", async () => {
      await sh("true");
      const firstRoot = await launched("id -u; grep ^CapEff /proc/self/status", { user: "root" });
      const secondRoot = await launched("id -u; grep ^CapEff /proc/self/status", { user: "root" });
      const user = await launched("id -u; grep ^CapEff /proc/self/status");
      expect([firstRoot.way, secondRoot.way, user.way]).toEqual(["fresh", "spare", "fresh"]);
      expect(secondRoot.stdout).toBe(firstRoot.stdout);
      expect(secondRoot.stdout).toMatch(/^0\nCapEff:\t0*[1-9a-f]/);
      expect(user.stdout).toBe("1000\nCapEff:\t0000000000000000\n");
    });

    it("is not used by a command with egress, and waits for the next", async () => {
      await sh("true");
      const withEgress = await launched("test -S /run/cubicle/egress.sock && echo proxy", { egress: true });
      const after = await launched("test -e /run/cubicle/egress.sock || echo none");
      expect([withEgress.way, after.way]).toEqual(["fresh", "spare"]);
      expect([withEgress.stdout, after.stdout]).toEqual(["proxy\n", "none\n"]);
    });

    it("is ended with its command: a timeout and a kill reach everything it started", async () => {
      /** Pids of host processes whose command line starts with `pattern`, one per line. */
      const host = (pattern: string) => {
        try {
          return execFileSync("pgrep", ["-f", `^${pattern}`])
            .toString()
            .trim();
        } catch {
          return ""; // pgrep exits 1 when nothing matches
        }
      };
      await sh("true");
      // A duration no other test sleeps for, so the host's process list shows only these.
      const marker = `30${Math.random().toFixed(6).slice(1)}`;
      const timedOut = await launched(`sleep ${marker} & sleep ${marker}; wait`, { timeoutMs: 300 });
      expect(timedOut.way).toBe("spare");
      expect(timedOut.outcome).toMatchObject({ status: "timed_out", exitCode: 124 });
      expect(await eventually(() => host(`sleep ${marker}`) === "")).toBe(true);
      const execId = randomUUID();
      const pending = launched(`setsid sleep ${marker} & sleep ${marker}; wait`, { execId });
      await eventually(() => host(`sleep ${marker}`).split("\n").length === 2);
      await fixture.session.computer.kill(execId);
      const killed = await pending;
      expect(killed.way).toBe("spare");
      expect(killed.outcome).toMatchObject({ status: "cancelled", exitCode: 137 });
      expect(await eventually(() => host(`sleep ${marker}`) === "")).toBe(true);
    });

    it("leaves no box, cgroup or mount behind when the daemon stops", async () => {
      const dirs = await makeDirs();
      const daemon = await startDaemon(dirs, envs[mode]);
      const session = await openSession(daemon.port, new MemoryWorkspace());
      try {
        await run(session.computer, daemon.mount, "true");
        // The daemon's computer cgroup is named by its workspace and its state dir (Daemon.cgroupFor).
        const id = createHash("sha256").update(dirs.stateDir).digest("hex").slice(0, 8);
        const spare = `cubicle-${testWorkspace}-${id}/cmd-spare-`;
        expect(await eventually(() => inCgroup(spare).length > 0)).toBe(true);
        session.close();
        await daemon.stop();
        expect(inCgroup(spare)).toEqual([]);
        expect(mounted(dirs.mount)).toBe(false);
      } finally {
        session.close();
        await daemon.stop();
        await dirs.cleanup();
      }
    });
  });
});
