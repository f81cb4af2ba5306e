/**
 * `cubicle-mknod start`, the head of every command's launch chain (container/native/mknod/start.c),
 * run directly as computerd runs it: root, descriptors in place, the cgroups in the environment.
 * It must join what it is given, close what it was not meant to pass on, and give root up as
 * setpriv did, or not start the program at all.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureMknodBinary } from "../../native/mknod/build.ts";

let binary: string;
let dir: string;
const uid = 4_000_000;

beforeAll(async () => {
  const built = await ensureMknodBinary();
  if (!built.ok) throw new Error(built.reason);
  binary = built.path;
  dir = await mkdtemp(join(tmpdir(), "launch-start-"));
});

/** Runs `start <uid> - /bin/sh -c <script>` with an extra pipe on fd 7; answers its pid, exit code and stdout. */
function start(script: string, env: Record<string, string> = {}, as = String(uid)) {
  const child = spawn(binary, ["start", as, "-", "/bin/sh", "-c", script], {
    env: { PATH: "/usr/bin:/bin", ...env },
    stdio: ["ignore", "pipe", "pipe", "pipe", "pipe", "pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (d) => (stdout += d));
  child.stderr?.on("data", (d) => (stderr += d));
  return new Promise<{ pid: number; code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on("exit", (code) => resolve({ pid: child.pid as number, code, stdout, stderr })),
  );
}

describe("cubicle-mknod start", () => {
  it("gives root up for good: the uid and gid everywhere, no groups, no capability, no_new_privs", async () => {
    const r = await start(
      "id -u; id -g; id -G; grep -E '^(Uid|Gid|Groups|CapInh|CapPrm|CapEff|CapBnd|CapAmb|NoNewPrivs):' /proc/self/status",
    );
    expect(r.code).toBe(0);
    const [u, g, groups, ...status] = r.stdout.trim().split("\n");
    expect([u, g, groups]).toEqual([String(uid), String(uid), String(uid)]);
    const fields = Object.fromEntries(status.map((line) => line.split(":").map((s) => s.trim())));
    expect(fields.Uid?.split(/\s+/)).toEqual(Array(4).fill(String(uid)));
    expect(fields.Gid?.split(/\s+/)).toEqual(Array(4).fill(String(uid)));
    expect(fields.Groups).toBe("");
    for (const set of ["CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb"]) expect(fields[set]).toBe("0".repeat(16));
    expect(fields.NoNewPrivs).toBe("1");
  });

  it("passes descriptors 0 to 6 on and closes the rest", async () => {
    const r = await start("for fd in 0 1 2 3 4 5 6 7; do [ -e /proc/$$/fd/$fd ] && printf '%s ' $fd; done; true");
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe("0 1 2 3 4 5 6");
  });

  it("writes its own pid into every cgroup.procs it is given before the program runs", async () => {
    const procs = [join(dir, "a.procs"), join(dir, "b.procs")];
    for (const p of procs) writeFileSync(p, "");
    const r = await start("true", { CUBICLE_CGROUP_PROCS: procs.join(" ") });
    expect(r.code).toBe(0);
    for (const p of procs) expect(readFileSync(p, "utf8")).toBe(`${r.pid}\n`);
  });

  it("does not start the program when a cgroup refuses it, or when asked to stay root", async () => {
    const marker = join(dir, "ran");
    const refused = await start(`touch ${marker}`, { CUBICLE_CGROUP_PROCS: join(dir, "missing/cgroup.procs") });
    expect(refused.code).toBe(125);
    expect(refused.stderr).toContain("missing/cgroup.procs");
    const root = await start(`touch ${marker}`, {}, "0");
    expect(root.code).toBe(125);
    expect(existsSync(marker)).toBe(false);
  });
});
