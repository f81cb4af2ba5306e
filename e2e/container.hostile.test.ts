/**
 * The container executor as an attacker uses it: real commands through the real platform
 * (`npm start`: wrangler dev, the local supervisor, computerd, the box). Every attempt to
 * reach beyond the tenant's own workspace must fail, and the platform must keep answering.
 * docs/container-sandbox.md's isolation table is written from what this file proves.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { httpClient } from "./httpClient.ts";
import { sharedPlatform } from "./sharedPlatform.ts";

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..");

const platform = sharedPlatform();
const api = httpClient(platform.url);

interface Exec {
  status: string;
  exitCode: number;
  stdout: string;
  stderr: string;
  error: string | null;
  reason?: string;
  durationMs: number;
}

async function exec(key: string, workspaceId: string, body: Record<string, unknown>): Promise<Exec> {
  for (;;) {
    const response = await api.call("POST", `/v1/workspaces/${workspaceId}/exec`, {
      key,
      json: { executor: "container", timeoutMs: 60_000, ...body },
    });
    if (response.status === 429 || response.status === 503) {
      await new Promise((r) => setTimeout(r, 1000 * Number(response.headers.get("retry-after") ?? 1)));
      continue;
    }
    if (response.status !== 200) throw new Error(`exec answered ${response.status}: ${await response.text()}`);
    return (await response.json()) as Exec;
  }
}

/** Runs `command` in the box and returns what it printed, failing the test if the run did not complete. */
async function run(key: string, workspaceId: string, command: string, extra: Record<string, unknown> = {}) {
  const result = await exec(key, workspaceId, { command, ...extra });
  expect(result, JSON.stringify(result)).toMatchObject({ status: "completed", exitCode: 0 });
  return result.stdout;
}

/** TCP ports something listens on at 127.0.0.1 or any address on this host (/proc/net/tcp{,6}). */
function hostListeningPorts(): number[] {
  const ports = new Set<number>();
  for (const file of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    const lines = readFileSync(file, "utf8").trim().split("\n").slice(1);
    for (const line of lines) {
      const [, local, , state] = line.trim().split(/\s+/);
      if (state === "0A" && local) ports.add(Number.parseInt(local.split(":").pop() as string, 16));
    }
  }
  return [...ports].sort((a, b) => a - b);
}

/** Every SQLite file under the platform's state directory (D1, Durable Objects, daemon state). */
function stateSqliteFiles(dir: string, found: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const st = statSync(path, { throwIfNoEntry: false });
    if (!st) continue;
    if (st.isDirectory() && name !== "images") stateSqliteFiles(path, found);
    else if (/\.(sqlite|db)$/.test(name)) found.push(path);
  }
  return found;
}

let key: string;
let ws: string;
let other: { key: string; ws: string; tenantId: string };

beforeAll(async () => {
  ({ key } = await api.signup());
  ws = await api.createWorkspace(key);
  const second = await api.signup();
  const account = (await (await api.call("GET", "/v1/account", { key: second.key })).json()) as { id: string };
  other = { key: second.key, ws: await api.createWorkspace(second.key), tenantId: account.id };
  // The other tenant's computer runs and holds a file, so there is something to steal.
  await api.call("PUT", `/v1/workspaces/${other.ws}/files/secret.txt`, { key: other.key, body: "other-tenant-secret" });
  await run(other.key, other.ws, "cat secret.txt");
}, 180_000);

describe("the filesystem a command sees", () => {
  it("holds its workspace, the image and private scratch space, and nothing of the host", async () => {
    // A file only the host has, in the host's /tmp: the box's /tmp is its own.
    const marker = join(tmpdir(), `cubicle-host-marker-${crypto.randomUUID()}`);
    writeFileSync(marker, "host");
    const paths = [platform.stateDir, repoRoot, marker, join(platform.stateDir, "computers")];
    const out = await run(
      key,
      ws,
      `for p in ${paths.join(" ")}; do if [ -e "$p" ]; then echo "SEEN $p"; fi; done; ls /; id -u; echo "home=$HOME"`,
    );
    expect(out).not.toContain("SEEN");
    expect(out.split("\n")).toEqual(expect.arrayContaining(["workspace", "tmp", "home", "1000", "home=/home/user"]));
  });

  it("cannot read any D1 or Durable Object SQLite file, nor another workspace's files", async () => {
    const files = stateSqliteFiles(platform.stateDir);
    expect(files.length).toBeGreaterThan(0);
    const probe = files.map((f) => `cat '${f}' >/dev/null 2>&1 && echo "READ ${f}";`).join(" ");
    const out = await run(
      key,
      ws,
      `${probe} grep -rl other-tenant-secret / --exclude-dir=proc --exclude-dir=sys --exclude-dir=usr 2>/dev/null; find / -xdev \\( -name '*.sqlite' -o -name 'state.db' \\) -print 2>/dev/null; true`,
    );
    expect(out).toBe("");
  });

  it("finds no trace of COMPUTERD_SECRET or the daemon's environment", async () => {
    const out = await run(
      key,
      ws,
      "cat /proc/1/environ | tr '\\0' '\\n'; grep -a -l -s -r COMPUTERD /proc/[0-9]*/environ /proc/[0-9]*/cmdline /etc /home /tmp 2>/dev/null; env | grep -i -e computerd -e secret; true",
    );
    expect(out).not.toMatch(/COMPUTERD|SECRET/i);
  });

  it("finds nothing that names another tenant: not its id, nor its workspace's", async () => {
    // Everything the kernel and the box tell a process about where it runs.
    const places =
      "/proc/self/mountinfo /proc/self/cgroup /proc/[0-9]*/cmdline /proc/[0-9]*/environ /etc/hostname /etc/hosts";
    const out = await run(
      key,
      ws,
      `cat ${places} 2>/dev/null | tr '\\0' '\\n'; hostname; env; ls -la /run /run/cubicle /tmp /home/user /dev/shm`,
    );
    expect(out.length).toBeGreaterThan(0);
    expect(other.tenantId).toMatch(/^ten_/);
    expect(out).not.toContain(other.tenantId);
    expect(out).not.toContain(other.ws);
  });

  it("writes only to /workspace, /tmp, its home and /dev/shm", async () => {
    const targets = [
      "/",
      "/etc",
      "/usr",
      "/usr/local/bin",
      "/var",
      "/run",
      "/run/cubicle",
      "/dev",
      "/root",
      "/proc/sys/kernel",
    ];
    const out = await run(
      key,
      ws,
      `for d in ${targets.join(" ")} /workspace /tmp /home/user /dev/shm; do (echo x > "$d/probe") 2>/dev/null && echo "W $d" && rm -f "$d/probe"; done; echo core > /proc/sys/kernel/core_pattern 2>/dev/null && echo W core_pattern; echo 1 > /proc/sysrq-trigger 2>/dev/null && echo W sysrq; true`,
    );
    expect(out.trim().split("\n").sort()).toEqual(["W /dev/shm", "W /home/user", "W /tmp", "W /workspace"]);
  });
});

describe("privilege", () => {
  it("cannot mount, enter or make namespaces, load modules or become root", async () => {
    const attempts = {
      mount: "mount -t tmpfs none /tmp",
      unshare: "unshare -U -r true",
      unshareNet: "unshare -n true",
      nsenter: "nsenter -t 1 -n true",
      nsenterMount: "nsenter -t 1 -m true",
      insmod: `python3 -c "import ctypes,sys; l=ctypes.CDLL(None, use_errno=True); r=l.syscall(313, -1, b'', 0); sys.exit(0 if r==0 else 1)"`,
      keyctl: `python3 -c "import ctypes,sys; l=ctypes.CDLL(None, use_errno=True); r=l.syscall(250, 0, -3, 0); sys.exit(0 if r>=0 else 1)"`,
      bpf: `python3 -c "import ctypes,sys; l=ctypes.CDLL(None, use_errno=True); r=l.syscall(321, 0, 0, 0); sys.exit(0 if r>=0 else 1)"`,
      su: "su -c true root </dev/null",
      chroot: "chroot / true",
    };
    const script = Object.entries(attempts)
      .map(([name, cmd]) => `(${cmd}) >/dev/null 2>&1 && echo "ALLOWED ${name}";`)
      .join(" ");
    const out = await run(key, ws, `${script} grep -E '^(CapEff|CapBnd|NoNewPrivs|Seccomp):' /proc/self/status`);
    expect(out).not.toContain("ALLOWED");
    expect(out).toMatch(/CapEff:\s+0{16}/);
    expect(out).toMatch(/CapBnd:\s+0{16}/);
    expect(out).toMatch(/NoNewPrivs:\s+1/);
    expect(out).toMatch(/Seccomp:\s+2/);
  });

  it("sees only its own processes", async () => {
    const out = await run(key, ws, "ls /proc | grep -E '^[0-9]+$' | wc -l; cat /proc/1/cmdline | tr '\\0' ' '");
    const [count, init] = out.split("\n");
    // bwrap's pid 1, the shell, ls, grep and wc: nothing of the host or of computerd.
    expect(Number(count)).toBeLessThan(10);
    expect(init).toMatch(/^bwrap /);
    expect(out).not.toMatch(/node|computerd|workerd|wrangler/);
  });
});

describe("root in the box (user: root)", () => {
  const asRoot = { user: "root" };

  it("is uid 0 there, and still finds nothing of the host, the platform's state or another tenant", async () => {
    const marker = join(tmpdir(), `cubicle-host-marker-${crypto.randomUUID()}`);
    writeFileSync(marker, "host");
    const files = stateSqliteFiles(platform.stateDir);
    const paths = [platform.stateDir, repoRoot, marker, ...files];
    const out = await run(
      key,
      ws,
      `id -u; for p in ${paths.map((p) => `'${p}'`).join(" ")}; do if [ -e "$p" ]; then echo "SEEN $p"; fi; done; grep -rl other-tenant-secret / --exclude-dir=proc --exclude-dir=sys --exclude-dir=usr 2>/dev/null; cat /proc/1/environ | tr '\\0' '\\n' | grep -i -e computerd -e secret; true`,
      asRoot,
    );
    expect(out).toBe("0\n");
  });

  it("writes only to /workspace, /tmp, its home and /dev/shm", async () => {
    const targets = ["/", "/etc", "/usr", "/usr/local/bin", "/var", "/run", "/run/cubicle", "/dev", "/root"];
    const out = await run(
      key,
      ws,
      `for d in ${targets.join(" ")} /workspace /tmp /home/user /dev/shm; do (echo x > "$d/probe") 2>/dev/null && echo "W $d" && rm -f "$d/probe"; done; echo core > /proc/sys/kernel/core_pattern 2>/dev/null && echo W core_pattern; echo 1 > /proc/sysrq-trigger 2>/dev/null && echo W sysrq; true`,
      asRoot,
    );
    expect(out.trim().split("\n").sort()).toEqual(["W /dev/shm", "W /home/user", "W /tmp", "W /workspace"]);
  });

  it("cannot mount, make or enter namespaces, load modules, configure the network or open devices", async () => {
    const attempts = {
      mount: "mount -t tmpfs none /tmp",
      remount: "mount -o remount,rw /",
      unshare: "unshare -U -r true",
      unshareMount: "unshare -m true",
      nsenter: "nsenter -t 1 -m true",
      insmod: `python3 -c "import ctypes,sys; l=ctypes.CDLL(None, use_errno=True); r=l.syscall(313, -1, b'', 0); sys.exit(0 if r==0 else 1)"`,
      keyctl: `python3 -c "import ctypes,sys; l=ctypes.CDLL(None, use_errno=True); r=l.syscall(250, 0, -3, 0); sys.exit(0 if r>=0 else 1)"`,
      bpf: `python3 -c "import ctypes,sys; l=ctypes.CDLL(None, use_errno=True); r=l.syscall(321, 0, 0, 0); sys.exit(0 if r>=0 else 1)"`,
      chroot: "chroot / true",
      link: "ip link add dummy0 type dummy",
      // Root may make device nodes (docs/container-sandbox.md), only on nodev mounts: never open one.
      blockDevice: "mknod /workspace/sda b 8 0; head -c1 /workspace/sda",
      charDevice: "mknod /tmp/mem c 1 1; head -c1 /tmp/mem",
    };
    const script = Object.entries(attempts)
      .map(([name, cmd]) => `(${cmd}) >/dev/null 2>&1 && echo "ALLOWED ${name}";`)
      .join(" ");
    const out = await run(key, ws, `${script} grep -E '^(NoNewPrivs|Seccomp):' /proc/self/status`, asRoot);
    expect(out).not.toContain("ALLOWED");
    expect(out).toMatch(/NoNewPrivs:\s+1/);
    expect(out).toMatch(/Seccomp:\s+2/);
  });

  it("sees only its own processes and reaches no port of this host", async () => {
    const ports = hostListeningPorts();
    const probe = ports
      .map((p) => `timeout 2 bash -c 'exec 3<>/dev/tcp/127.0.0.1/${p}' 2>/dev/null && echo "OPEN ${p}";`)
      .join(" ");
    const out = await run(key, ws, `${probe} for p in /proc/[0-9]*; do cat $p/comm; done`, asRoot);
    expect(out).not.toContain("OPEN");
    expect(out).not.toMatch(/node|computerd|workerd/);
  });
});

/** The processes whose environment names `workspaceId`: the computerd serving it, and its launch (unshare). */
function computerdOf(workspaceId: string): Set<number> {
  const pids = new Set<number>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const env = readFileSync(`/proc/${name}/environ`, "utf8").split("\0");
      if (env.some((v) => v.startsWith("COMPUTERD_WORKSPACE=") && v.endsWith(workspaceId))) pids.add(Number(name));
    } catch {
      // It exited while we looked.
    }
  }
  return pids;
}

/** The names of the zombie children of `parents` (exited, never waited for). */
function zombiesOf(parents: Set<number>): string[] {
  const zombies: string[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const [state, ppid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (state === "Z" && parents.has(Number(ppid)))
        zombies.push(stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")));
    } catch {
      // It exited while we looked.
    }
  }
  return zombies;
}

describe("limits", () => {
  it("leaves no process behind a command that ends, so a computer serves command after command", async () => {
    // bwrap exits once its pid 1 reports the command's status, before that pid 1 has gone; the
    // launch's last process outside the box reaps it (container/native/mknod/reap.c). Without
    // it each command left a zombie on computerd, the computer's pid 1, until none could fork.
    // Alternating users discards the box launched ahead each time (exec/spare.ts), which ends
    // on its own. A command killed outright still leaves one (docs/container-sandbox.md), so
    // earlier tests' kills are counted out.
    await run(key, ws, "true");
    const daemon = computerdOf(ws);
    expect(daemon.size).toBeGreaterThan(0);
    const before = zombiesOf(daemon).length;
    for (let i = 0; i < 12; i++) await run(key, ws, "true", i % 2 === 0 ? { user: "root" } : {});
    await expect.poll(() => zombiesOf(daemon).length).toBe(before);
  });

  it("stops a fork bomb with its pids limit, and the computer keeps serving", async () => {
    // The shell stays, so the bomb is not ended by its own box closing when the script does.
    const bomb = await exec(key, ws, { command: "bomb() { bomb | bomb & }; bomb; sleep 25", timeoutMs: 30_000 });
    expect(bomb, JSON.stringify(bomb)).toMatchObject({ status: "failed", exitCode: 137, reason: "pids_limit" });
    expect(await run(key, ws, "echo alive")).toBe("alive\n");
  });

  it("stops a memory bomb with its memory limit, and the computer keeps serving", async () => {
    const bomb = await exec(key, ws, { command: "python3 -c \"b = b'x' * (8 << 30)\"", timeoutMs: 30_000 });
    expect(bomb, JSON.stringify(bomb)).toMatchObject({ status: "failed", exitCode: 137, reason: "memory_limit" });
    expect(await run(key, ws, "echo alive")).toBe("alive\n");
  });

  it("keeps another workspace answering within 5 s while this one burns every core it may", async () => {
    const hog = exec(key, ws, {
      command: "for i in 1 2 3 4 5 6 7 8; do (while :; do :; done) & done; sleep 10; kill 0",
      timeoutMs: 30_000,
    });
    await new Promise((r) => setTimeout(r, 2_000));
    const started = Date.now();
    expect(await run(other.key, other.ws, "echo still-here")).toBe("still-here\n");
    // The bound: one CPU-bound computer may take at most its plan's share of the cores
    // (limits in executors/container/limits.ts), so the other workspace's command runs on
    // what is left; 5 s leaves room for a loaded CI machine.
    expect(Date.now() - started).toBeLessThan(5_000);
    await hog;
  });
});

describe("the network", () => {
  it("reaches no port of this host, with or without egress", async () => {
    const ports = hostListeningPorts();
    expect(ports.length).toBeGreaterThan(0);
    const probe = ports
      .map((p) => `timeout 2 bash -c 'exec 3<>/dev/tcp/127.0.0.1/${p}' 2>/dev/null && echo "OPEN ${p}";`)
      .join(" ");
    expect(await run(key, ws, `${probe} true`)).toBe("");
    // A plan with egress, and a run that asks for it: the direct path is still closed.
    const upgraded = await api.call("PUT", "/v1/billing/plan", { key, json: { plan: "pro" } });
    expect(upgraded.status).toBe(200);
    expect(await run(key, ws, `${probe} true`, { egress: true })).toBe("");
  });

  it("with egress, leaves only through the proxy, which refuses this host and private networks", async () => {
    const port = new URL(platform.url).port;
    const out = await run(
      key,
      ws,
      [
        // -x: the proxy variables leave loopback out (a command's own servers), so ask it outright.
        `curl -s --noproxy '' -x "$HTTP_PROXY" -o /dev/null -w '%{http_code}\\n' http://127.0.0.1:${port}/healthz`,
        "curl -s -o /dev/null -w '%{http_code}\\n' http://169.254.169.254/",
        "curl -s -o /dev/null -w '%{http_code}\\n' http://10.0.0.1/",
        `curl -s --noproxy '' -x "$HTTP_PROXY" -o /dev/null -w '%{http_code}\\n' http://localhost:${port}/`,
        `curl -s --noproxy '*' -m 3 -o /dev/null -w '%{http_code}\\n' http://127.0.0.1:${port}/healthz; true`,
        "curl -s -o /dev/null -w '%{http_code}\\n' https://registry.npmjs.org/",
      ].join("; "),
      { egress: true },
    );
    expect(out.trim().split("\n")).toEqual(["403", "403", "403", "403", "000", "200"]);
  });
});
