/** Commands on the mount: exit codes, streams, stdin, env, cwd, timeout, kill, signals, output cap. */
import { randomUUID } from "node:crypto";
import { type AddressInfo, createServer } from "node:net";
import { describe, expect, it } from "vitest";
import type { ComputerdHealth } from "../wire/index.ts";
import { execEnvDefaults, execEnvTrust } from "./limits.ts";
import { eventually, useDaemon } from "./testing/harness.ts";

const fixture = useDaemon();
const sh = (command: string, opts = {}) => fixture.sh(command, opts);

describe("exec", () => {
  it("runs a command and returns its output", async () => {
    const r = await sh("echo hello");
    expect(r.outcome.status).toBe("completed");
    expect(r.outcome.exitCode).toBe(0);
    expect(r.stdout).toBe("hello\n");
    expect(r.outcome.durationMs).toBeGreaterThanOrEqual(0);
  });

  it("reports a non-zero exit as failed with its code", async () => {
    const r = await sh("exit 3");
    expect(r.outcome).toMatchObject({ status: "failed", exitCode: 3 });
  });

  it("keeps stderr apart from stdout", async () => {
    const r = await sh("echo out; echo err >&2");
    expect(r.stdout).toBe("out\n");
    expect(r.stderr).toBe("err\n");
  });

  it("feeds stdin", async () => {
    const r = await sh("tr a-z A-Z", { stdin: new TextEncoder().encode("shout\n") });
    expect(r.stdout).toBe("SHOUT\n");
  });

  it("passes the request env over an allow-listed base, without the daemon's secrets", async () => {
    const r = await sh('echo "$GREETING|$LANG|$TZ|$HOME|${COMPUTERD_SECRET:-none}"', { env: { GREETING: "hi" } });
    expect(r.stdout).toBe("hi|C.UTF-8|UTC|/home/user|none\n");
  });

  it("gives the command exactly its variables: none reaches a shell before it, and none is added", async () => {
    // A bash that got these would trace its own start-up to stderr or source a file first.
    const env = { SHELLOPTS: "xtrace", BASH_ENV: "/etc/passwd", PS4: "TRACE ", GREETING: "hi" };
    for (const round of [1, 2]) {
      const r = await sh("env | sort", { env });
      expect(r.stderr, `round ${round}`).toBe("");
      const names = r.stdout
        .trim()
        .split("\n")
        .map((line) => line.slice(0, line.indexOf("=")));
      const expected = [...Object.keys(execEnvDefaults), ...Object.keys(execEnvTrust), "HOME", "USER", "PWD"];
      expect(names, `round ${round}`).toEqual([...new Set([...expected, ...Object.keys(env)])].sort());
    }
  });

  it("runs in the requested cwd under the mount, seen as /workspace, and refuses one outside it", async () => {
    await sh("mkdir -p sub/dir");
    const r = await sh("pwd", { cwd: `${fixture.daemon.mount}/sub/dir` });
    expect(r.stdout).toBe("/workspace/sub/dir\n");
    const outside = await sh("pwd", { cwd: "/etc" });
    expect(outside.outcome.status).toBe("failed");
    expect(outside.outcome.error).toMatch(/under/);
  });

  it("times out with 124 and status timed_out", async () => {
    const r = await sh("sleep 30", { timeoutMs: 300 });
    expect(r.outcome).toMatchObject({ status: "timed_out", exitCode: 124 });
  });

  it("is cancelled with 137 by kill, including its children", async () => {
    const execId = randomUUID();
    const pending = sh("sleep 30 & sleep 30; wait", { execId });
    await new Promise((r) => setTimeout(r, 300));
    await fixture.session.computer.kill(execId);
    const r = await pending;
    expect(r.outcome).toMatchObject({ status: "cancelled", exitCode: 137 });
  });

  it("gives a command no descriptor of the daemon's, the FUSE device above all", async () => {
    const r = await sh("for fd in /proc/$$/fd/*; do readlink $fd; done");
    expect(r.stdout).not.toContain("/dev/fuse");
    expect(r.stdout.trim().split("\n").length).toBeLessThanOrEqual(3);
  });

  it("honours a kill that arrives before its command started", async () => {
    const execId = randomUUID();
    await fixture.session.computer.kill(execId);
    const r = await sh("sleep 30", { execId });
    expect(r.outcome).toMatchObject({ status: "cancelled", exitCode: 137 });
  });

  it("reports a running command in /healthz", async () => {
    const pending = sh("sleep 1");
    const health = await eventually(async () => {
      const h = (await (await fetch(`http://127.0.0.1:${fixture.daemon.port}/healthz`)).json()) as ComputerdHealth;
      return h.running === 1 && h;
    });
    expect(health).toMatchObject({ ok: true, running: 1, idleMs: 0, session: true });
    await pending;
  });

  it("reports death by signal as 128 + n", async () => {
    const r = await sh("kill -TERM $$");
    expect(r.outcome).toMatchObject({ status: "failed", exitCode: 143 });
  });

  it("forwards at most outputBytesMax bytes and still completes", async () => {
    const r = await sh("head -c 1000000 /dev/zero | tr '\\0' x; echo done >&2", { outputBytesMax: 1000 });
    expect(r.outcome.status).toBe("completed");
    expect(r.stdout.length + r.stderr.length).toBe(1000);
  });

  it("streams output to the sink while the command goes on, and answers it whole with the rest", async () => {
    // What the command writes last may come back with the outcome instead of through the sink
    // (container/wire/outputPump.ts, whose own tests pin down which): either way it is all there.
    const r = await sh("echo first; sleep 0.5; echo second; echo err >&2");
    expect(r.stdout).toBe("first\nsecond\n");
    expect(r.stderr).toBe("err\n");
    // Sent alone: had it waited for the end, it would have gone with "second" in one piece.
    expect(r.sinkCalls[0]).toEqual({ stream: "stdout", text: "first\n" });
  });

  it("sends output past the tail's size through the sink, whole and in order", async () => {
    const r = await sh("head -c 300000 /dev/zero | tr '\\0' x; echo end");
    expect(r.stdout).toBe(`${"x".repeat(300_000)}end\n`);
    expect(r.sinkCalls.length).toBeGreaterThan(0);
  });

  it("runs several commands at once", async () => {
    const results = await Promise.all([1, 2, 3].map((n) => sh(`sleep 0.2; echo ${n}`)));
    expect(results.map((r) => r.stdout)).toEqual(["1\n", "2\n", "3\n"]);
  });

  it("gives a command only its box's loopback, and with egress only the proxy, which refuses this host", async () => {
    // A listener on the host's loopback stands in for "anything beyond the command's box".
    const server = createServer((socket) => socket.end("reached\n"));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    const { port } = server.address() as AddressInfo;
    const direct = `(exec 3<>/dev/tcp/127.0.0.1/${port}) 2>/dev/null && echo reached || echo refused`;
    const viaProxy = `curl -s --noproxy '' -x "$HTTP_PROXY" -o /dev/null -w '%{http_code}\\n' http://127.0.0.1:${port}/`;
    const local = `python3 -c "import socket; s = socket.create_server(('127.0.0.1', 0)); c = socket.create_connection(s.getsockname()); a, _ = s.accept(); a.sendall(b'self'); print(c.recv(4).decode())"`;
    try {
      expect((await sh(direct, { egress: false })).stdout).toBe("refused\n");
      expect((await sh(local, { egress: false })).stdout).toBe("self\n");
      expect((await sh(direct, { egress: true })).stdout).toBe("refused\n");
      expect((await sh(viaProxy, { egress: true })).stdout).toBe("403\n");
    } finally {
      server.close();
    }
  });
});
