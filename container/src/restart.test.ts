/** A daemon that dies (SIGKILL) or stops loses nothing: the next daemon on the same state directory picks up. */
import { randomUUID } from "node:crypto";
import { RpcTarget } from "capnweb";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { buildComputerd, computerdBundle } from "../../scripts/build-computerd.ts";
import type { ApplyResult, OutputSinkApi, SyncOp, WireError } from "../wire/index.ts";
import { eventually, makeDirs, openSession, run, startDaemon } from "./testing/harness.ts";
import { MemoryWorkspace } from "./testing/memoryWorkspace.ts";

const cleanups: (() => Promise<void>)[] = [];
// The crash test runs the production bundle, so it also proves the bundle starts and mounts.
beforeAll(() => buildComputerd());
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => {});
});

class LineSink extends RpcTarget implements OutputSinkApi {
  text = "";
  async write(_stream: "stdout" | "stderr", data: Uint8Array): Promise<void> {
    this.text += new TextDecoder().decode(data);
  }
}

/**
 * A twin that answers the restarted daemon's first `changes` (its hello's pull) before the
 * push it sent with that hello, as the object may: a pull that read the log before the push
 * landed cannot bring the conflict copies that push made. Off until `pullFirst` is set.
 */
class PullFirstWorkspace extends MemoryWorkspace {
  pullFirst = false;
  private answered: (() => void) | null = null;
  private readonly firstChanges = new Promise<void>((resolve) => {
    this.answered = resolve;
  });

  override async changes(afterRev: number, limit: number) {
    const page = await super.changes(afterRev, limit);
    if (this.pullFirst) this.answered?.();
    return page;
  }

  override async apply(ops: SyncOp[]): Promise<ApplyResult | WireError> {
    if (this.pullFirst) await this.firstChanges;
    return super.apply(ops);
  }
}

describe("restart", () => {
  it("pushes every completed write after a SIGKILL mid-command, from the next daemon", async () => {
    const dirs = await makeDirs();
    cleanups.push(dirs.cleanup);
    const twin = new MemoryWorkspace();
    // The object refuses this file for now, so nothing of it has reached the object when the daemon dies.
    twin.refuse = (op) => op.path === "/log.txt";
    const first = await startDaemon(dirs, {}, computerdBundle);
    cleanups.push(async () => void (await first.kill()));
    const session = await openSession(first.port, twin);
    const sink = new LineSink();
    // Each line is appended (and the append returned) before the command reports it on stdout.
    const command =
      'echo "pid $$"; i=0; while :; do i=$((i+1)); echo "line $i" >> log.txt; echo "wrote $i"; sleep 0.02; done';
    void session.computer
      .exec(
        {
          execId: randomUUID(),
          command,
          cwd: first.mount,
          env: {},
          stdin: new Uint8Array(),
          timeoutMs: 60_000,
          outputBytesMax: 1 << 20,
          egress: false,
          allow: null,
        },
        sink,
      )
      .catch(() => {});
    await eventually(() => /wrote 20\n/.test(sink.text));
    await first.kill();
    const reported = Math.max(...[...sink.text.matchAll(/wrote (\d+)/g)].map((m) => Number(m[1])));
    const pid = Number(/pid (\d+)/.exec(sink.text)![1]);
    try {
      process.kill(-pid, "SIGKILL");
    } catch {}
    session.close();
    expect(twin.text("/log.txt")).toBeNull();

    twin.refuse = null;
    const second = await startDaemon(dirs, {}, computerdBundle);
    cleanups.push(async () => void (await second.stop()));
    const again = await openSession(second.port, twin);
    cleanups.push(async () => again.close());
    await again.computer.flush();
    const lines = twin.text("/log.txt")!.split("\n");
    for (let i = 1; i <= reported; i++) expect(lines[i - 1]).toBe(`line ${i}`);
    // The remounted workspace works.
    const r = await run(again.computer, second.mount, "wc -l < log.txt");
    expect(Number(r.stdout), r.stderr).toBeGreaterThanOrEqual(reported);
  });

  it("keeps the object's writes made while the daemon was down, and the box's unpushed versions beside them", async () => {
    const dirs = await makeDirs();
    cleanups.push(dirs.cleanup);
    const twin = new PullFirstWorkspace();
    // Nothing the command writes reaches the object before the daemon dies.
    twin.refuse = (op) => op.path.startsWith("/w");
    const first = await startDaemon(dirs, {}, computerdBundle);
    cleanups.push(async () => void (await first.kill()));
    const session = await openSession(first.port, twin);
    const sink = new LineSink();
    const command =
      'echo "pid $$"; mkdir -p w; i=0; while :; do i=$((i+1)); echo "box $i" > w/f$i.txt; echo "wrote $i"; sleep 0.02; done';
    void session.computer
      .exec(
        {
          execId: randomUUID(),
          command,
          cwd: first.mount,
          env: {},
          stdin: new Uint8Array(),
          timeoutMs: 60_000,
          outputBytesMax: 1 << 20,
          egress: false,
          allow: null,
        },
        sink,
      )
      .catch(() => {});
    await eventually(() => /wrote 20\n/.test(sink.text));
    await first.kill();
    const reported = Math.max(...[...sink.text.matchAll(/wrote (\d+)/g)].map((m) => Number(m[1])));
    try {
      process.kill(-Number(/pid (\d+)/.exec(sink.text)?.[1]), "SIGKILL");
    } catch {}
    session.close();

    // While the daemon is down, the API writes every third of those files, and one beyond.
    twin.refuse = null;
    const apiWrites = new Map<string, string>();
    for (let i = 1; i <= reported + 1; i += 3) apiWrites.set(`/w/f${i}.txt`, `api ${i}\n`);
    for (const [path, text] of apiWrites) twin.writeFile(path, text);

    twin.pullFirst = true;
    const second = await startDaemon(dirs, {}, computerdBundle);
    cleanups.push(async () => void (await second.stop()));
    const again = await openSession(second.port, twin);
    cleanups.push(async () => again.close());
    // The object never announces anything here (the twin does not): the daemon must fetch the
    // copies its push made on its own, before the command runs.
    const { outcome, stdout } = await run(again.computer, second.mount, "cat w/*.conflict-*");

    const lost = [...apiWrites].filter(([path, text]) => twin.text(path) !== text);
    expect(lost).toEqual([]);
    const saved = new Map((outcome.conflicts ?? []).map((c) => [c.path, c.savedAs]));
    for (let i = 1; i <= reported; i++) {
      const path = `/w/f${i}.txt`;
      const where = apiWrites.has(path) ? saved.get(path) : path;
      expect(where && twin.text(where), path).toBe(`box ${i}\n`);
    }
    expect(saved.size).toBeGreaterThanOrEqual(Math.ceil(reported / 3));
    // The first command after the restart already sees the box's versions beside the API's.
    const copies = [...saved.values()].map((where) => twin.text(where as string)).sort();
    expect(stdout.split("\n").filter(Boolean).sort()).toEqual(copies.join("").split("\n").filter(Boolean).sort());
  });

  it("does not download unchanged files again after a restart", async () => {
    const dirs = await makeDirs();
    cleanups.push(dirs.cleanup);
    const twin = new MemoryWorkspace();
    twin.seed({ "/a.txt": "alpha\n", "/b.txt": "beta\n" });
    const first = await startDaemon(dirs);
    const s1 = await openSession(first.port, twin);
    expect((await run(s1.computer, first.mount, "cat a.txt")).stdout).toBe("alpha\n");
    s1.close();
    expect(await first.stop()).toBe(0);

    twin.writeFile("/b.txt", "beta 2\n");
    const second = await startDaemon(dirs);
    cleanups.push(async () => void (await second.stop()));
    const s2 = await openSession(second.port, twin);
    cleanups.push(async () => s2.close());
    expect(s2.appliedRev).toBe(1);
    const r = await run(s2.computer, second.mount, "cat a.txt b.txt");
    expect(r.stdout).toBe("alpha\nbeta 2\n");
    expect(twin.reads.get("/a.txt")).toBe(1);
  });
});
