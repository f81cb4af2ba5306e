/**
 * Container sync through the whole platform: the API and a running command see each
 * other's writes, a daemon killed with SIGKILL mid-write loses nothing a command was told
 * was written, and no API write acknowledged after such a crash is replaced by a change the
 * box made before it. See docs/container-sync.md for the protocol and the conflict rule.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { stateDirFor } from "../container/supervisor/names.ts";
import { httpClient } from "./httpClient.ts";
import { sharedPlatform } from "./sharedPlatform.ts";

// The daemon killed below is its own workspace's: the supervisor restarts it, and no other
// computer on the shared platform is touched.
const platform = sharedPlatform();
const api = httpClient(platform.url);

interface Exec {
  id: string;
  status: string;
  exitCode: number;
  stdout: string;
  stderr: string;
}

/**
 * A call that waits out the free plan's request rate (429 with Retry-After): these tests
 * poll, and a slow machine can make a poll loop outrun the limit; sync is what they test.
 */
async function call(method: string, path: string, options: Parameters<typeof api.call>[2]): Promise<Response> {
  for (;;) {
    const response = await api.call(method, path, options);
    if (response.status !== 429) return response;
    await new Promise((r) => setTimeout(r, 1000 * Number(response.headers.get("retry-after") ?? 1)));
  }
}

async function exec(key: string, workspaceId: string, body: Record<string, unknown>): Promise<Exec> {
  const response = await call("POST", `/v1/workspaces/${workspaceId}/exec`, {
    key,
    json: { executor: "container", ...body },
  });
  const result = (await response.json()) as Exec;
  if (response.status >= 300) throw new Error(`exec answered ${response.status}: ${JSON.stringify(result)}`);
  return result;
}

async function waitForEnd(key: string, workspaceId: string, execId: string): Promise<Exec> {
  for (;;) {
    const response = await call("GET", `/v1/workspaces/${workspaceId}/execs/${execId}`, { key });
    const record = (await response.json()) as Exec;
    if (record.status !== "running") return record;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Everything a run has printed to stdout so far (the record itself carries no output). */
async function stdoutSoFar(key: string, workspaceId: string, execId: string): Promise<string> {
  let text = "";
  let after = 0;
  for (;;) {
    const response = await call("GET", `/v1/workspaces/${workspaceId}/execs/${execId}/output?after=${after}`, { key });
    expect(response.status, await response.clone().text()).toBe(200);
    const page = (await response.json()) as { events: { seq: number; stream: string; text: string }[] };
    if (page.events.length === 0) return text;
    for (const event of page.events) if (event.stream === "stdout") text += event.text;
    after = page.events.at(-1)?.seq ?? after;
  }
}

/** The last number a run printed on a line of its own. */
const lastNumber = (text: string) => Number(text.trim().split("\n").at(-1) ?? 0);

async function fileText(key: string, workspaceId: string, path: string): Promise<string> {
  const response = await call("GET", `/v1/workspaces/${workspaceId}/files/${path}`, { key });
  expect(response.status, path).toBe(200);
  return response.text();
}

/**
 * Where a computer's replica is, seen from this host: the FUSE mode's directory, or the
 * native mode's filesystem (its `ws` directory, docs/container-sync.md), which is mounted in
 * the daemon's own mount namespace only and so is read through the daemon's root (null while
 * no daemon runs; the supervisor restarts a killed one at once).
 */
function replicaOf(stateDir: string, workspace: string): string | null {
  if (!existsSync(join(stateDir, "workspace.ext4"))) return join(stateDir, "replica");
  const pid = computerdPid(workspace);
  return pid === null ? null : `/proc/${pid}/root${join(stateDir, "fs", "ws")}`;
}

/** The host pid of the computerd serving a workspace (the process whose environment names it). */
function computerdPid(workspace: string): number | null {
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8");
      if (!cmdline.includes("computerd")) continue;
      const environ = readFileSync(`/proc/${entry}/environ`, "utf8").split("\0");
      if (environ.includes(`COMPUTERD_WORKSPACE=${workspace}`) && !cmdline.startsWith("unshare")) return Number(entry);
    } catch {
      // Gone while we looked.
    }
  }
  return null;
}

describe("container sync", () => {
  it("shows a file written through the API to a command that is already running", async () => {
    const { key } = await api.signup();
    const workspaceId = await api.createWorkspace(key);
    const started = await exec(key, workspaceId, {
      background: true,
      timeoutMs: 60_000,
      command: "while [ ! -f /workspace/flag ]; do sleep 0.05; done; cat /workspace/flag",
    });
    expect(started.status).toBe("running");
    const put = await api.call("PUT", `/v1/workspaces/${workspaceId}/files/flag`, { key, body: "raised" });
    expect(put.ok).toBe(true);
    const ended = await waitForEnd(key, workspaceId, started.id);
    expect(ended).toMatchObject({ status: "completed", exitCode: 0 });
    expect(await stdoutSoFar(key, workspaceId, started.id)).toBe("raised");
  });

  it("has every file a command wrote readable through the API when the exec answers", async () => {
    const { key } = await api.signup();
    const workspaceId = await api.createWorkspace(key);
    const result = await exec(key, workspaceId, {
      command: [
        "mkdir -p out/deep/er",
        'for i in $(seq 1 200); do echo "file $i" > out/f$i.txt; done',
        "head -c 9000000 /dev/urandom > out/deep/er/big.bin",
        "sha256sum out/deep/er/big.bin | cut -d' ' -f1",
        "ln -s deep/er/big.bin out/link",
        "rm out/f7.txt",
      ].join(" && "),
    });
    expect(result).toMatchObject({ status: "completed", exitCode: 0 });
    expect(await fileText(key, workspaceId, "out/f200.txt")).toBe("file 200\n");
    const big = await api.call("GET", `/v1/workspaces/${workspaceId}/files/out/deep/er/big.bin`, { key });
    const digest = createHash("sha256")
      .update(new Uint8Array(await big.arrayBuffer()))
      .digest("hex");
    expect(digest).toBe(result.stdout.trim());
    const gone = await api.call("GET", `/v1/workspaces/${workspaceId}/files/out/f7.txt`, { key });
    expect(gone.status).toBe(404);
    const link = await api.call("POST", `/v1/workspaces/${workspaceId}/fs/readlink`, {
      key,
      json: { path: "/out/link" },
    });
    expect(await link.json()).toEqual({ target: "deep/er/big.bin" });
  });

  it("meters each run's wall time as container_ms", async () => {
    const { key } = await api.signup();
    const workspaceId = await api.createWorkspace(key);
    const first = await exec(key, workspaceId, { command: "sleep 0.3" });
    const second = await exec(key, workspaceId, { command: "true" });
    const durations = await Promise.all(
      [first, second].map(async (run) => {
        const response = await api.call("GET", `/v1/workspaces/${workspaceId}/execs/${run.id}`, { key });
        return ((await response.json()) as { durationMs: number }).durationMs;
      }),
    );
    expect(durations[0]).toBeGreaterThanOrEqual(300);
    const quotas = (await (await api.call("GET", "/v1/quotas", { key })).json()) as {
      meters: { meter: string; used: number }[];
    };
    const used = quotas.meters.find((m) => m.meter === "container_ms")?.used;
    expect(used).toBe((durations[0] ?? 0) + (durations[1] ?? 0));
  });

  it("keeps a file the API changed while the container had no pending change to it", async () => {
    const { key } = await api.signup();
    const workspaceId = await api.createWorkspace(key);
    await exec(key, workspaceId, { command: "echo one > note.txt" });
    await api.call("PUT", `/v1/workspaces/${workspaceId}/files/note.txt`, { key, body: "two\n" });
    const read = await exec(key, workspaceId, { command: "cat note.txt" });
    expect(read.stdout).toBe("two\n");
  });

  it("loses no acknowledged write when the daemon is killed with SIGKILL mid-write", async () => {
    const { key, tenantId } = (await api.signup()) as { key: string; tenantId: string };
    const workspaceId = await api.createWorkspace(key);
    await exec(key, workspaceId, { command: "true" });
    const writer = await exec(key, workspaceId, {
      background: true,
      timeoutMs: 60_000,
      // Each line is written (the write returned) before its number is printed.
      command: 'i=0; while true; do i=$((i+1)); echo "line $i" >> log.txt; echo $i; sleep 0.01; done',
    });
    // Let it write for a while, then kill the daemon under it.
    let printed = 0;
    while (printed < 50) {
      // Slowly enough to stay inside the free plan's request rate.
      await new Promise((r) => setTimeout(r, 300));
      printed = lastNumber(await stdoutSoFar(key, workspaceId, writer.id));
    }
    const pid = computerdPid(`${tenantId}:${workspaceId}`);
    expect(pid).not.toBeNull();
    process.kill(pid as number, "SIGKILL");
    await waitForEnd(key, workspaceId, writer.id);
    const acknowledged = lastNumber(await stdoutSoFar(key, workspaceId, writer.id));
    expect(acknowledged).toBeGreaterThanOrEqual(50);

    // The next command runs on a restarted daemon, which pushes what it held before answering.
    const after = await exec(key, workspaceId, { command: "wc -l < log.txt" });
    const record = await (await api.call("GET", `/v1/workspaces/${workspaceId}/execs/${after.id}`, { key })).text();
    expect(
      after.status,
      `${record}\n${platform
        .output()
        .split("\n")
        .filter((l) => !l.includes("wrangler:info"))
        .slice(-40)
        .join("\n")}`,
    ).toBe("completed");
    const log = await fileText(key, workspaceId, "log.txt");
    const lines = log.trim().split("\n");
    for (let i = 1; i <= acknowledged; i++) expect(lines[i - 1]).toBe(`line ${i}`);
  });

  it("loses no acknowledged API write made after a SIGKILL, and keeps the box's unpushed versions beside them", async () => {
    const { key, tenantId } = (await api.signup()) as { key: string; tenantId: string };
    const workspaceId = await api.createWorkspace(key);
    const files = `/v1/workspaces/${workspaceId}/files`;
    const name = `${tenantId}:${workspaceId}`;
    await exec(key, workspaceId, { command: "mkdir -p w" });
    const writer = await exec(key, workspaceId, {
      background: true,
      timeoutMs: 60_000,
      // Each file is written (the write returned) before its number is printed. Fifty files at
      // a time, faster than the box pushes them, so its last files are pending when it dies;
      // a pause between, so it writes a few thousand at most.
      command:
        'i=0; while [ $i -lt 5000 ]; do i=$((i+1)); echo "box $i" > w/f$i.txt; echo $i; [ $((i % 50)) -ne 0 ] || sleep 0.1; done',
    });
    // Killed once the box's first files reached the object (pushes run), a few hundred are
    // written, and the box wrote more since the push that carried its first file landed: that
    // push may have carried everything written until then (a batch holds up to 1,024 files),
    // and the box's newest files must still be pending when it dies. Progress is read from the
    // daemon's replica on this host rather than through the API, whose rate limit would let
    // the box run far ahead.
    const stateDir = stateDirFor(platform.stateDir, name);
    const replicaW = () => {
      const replica = replicaOf(stateDir, name);
      return replica === null ? null : join(replica, "w");
    };
    const count = () => {
      const dir = replicaW();
      return dir !== null && existsSync(dir) ? readdirSync(dir).length : 0;
    };
    while ((await call("GET", `${files}/w/f1.txt`, { key })).status !== 200 || count() < 300) {
      await new Promise((r) => setTimeout(r, 100));
    }
    const landed = count();
    while (count() < landed + 100) await new Promise((r) => setTimeout(r, 20));
    const pid = computerdPid(name);
    expect(pid).not.toBeNull();
    process.kill(pid as number, "SIGKILL");
    await waitForEnd(key, workspaceId, writer.id);
    const acknowledged = lastNumber(await stdoutSoFar(key, workspaceId, writer.id));
    // What the box wrote, as its disk has it: every file whose write completed (a file the kill
    // caught between its creation and its write is empty, and its write never happened).
    const box = new Map<string, string>();
    let boxW = replicaW();
    while (boxW === null || !existsSync(boxW)) {
      await new Promise((r) => setTimeout(r, 100));
      boxW = replicaW();
    }
    for (const file of readdirSync(boxW)) {
      const text = readFileSync(join(boxW, file), "utf8");
      if (text !== "") box.set(`/w/${file}`, text.trimEnd());
    }
    const boxWrote = box.size;
    expect(boxWrote).toBeGreaterThanOrEqual(acknowledged);
    const newest = Math.max(...[...box.keys()].map((path) => Number(/f(\d+)/.exec(path)?.[1])));

    // No daemon holds a session now. The API writes 20 of the box's paths: its first three
    // (pushed before the kill) and its last seventeen. Each write is conditional on what the
    // API sees there, and acknowledged.
    const targets = [1, 2, 3, ...Array.from({ length: 17 }, (_, k) => newest - 16 + k)];
    const written = new Map<string, { i: number; text: string; afterBox: boolean }>();
    for (const i of targets) {
      const path = `/w/f${i}.txt`;
      const seen = await call("GET", `${files}${path}`, { key });
      const text = `api ${i}`;
      let put: Response;
      if (seen.status === 200) {
        expect(await seen.text()).toBe(`box ${i}\n`);
        const etag = seen.headers.get("etag") ?? "";
        put = await call("PUT", `${files}${path}`, { key, body: `${text}\n`, headers: { "if-match": etag } });
      } else {
        expect(seen.status).toBe(404);
        put = await call("PUT", `${files}${path}`, { key, body: `${text}\n`, headers: { "if-none-match": "*" } });
      }
      expect(put.ok, path).toBe(true);
      written.set(path, { i, text, afterBox: seen.status === 200 });
    }

    // The next command runs on the restarted daemon, which first pushes what it held.
    const after = (await exec(key, workspaceId, { command: `cat w/f${newest}.txt` })) as Exec & {
      conflicts: { path: string; savedAs: string | null }[];
    };
    expect(after).toMatchObject({ status: "completed", stdout: `api ${newest}\n` });

    // The object's whole /w in one read: one line per file.
    const grep = await call("POST", `/v1/workspaces/${workspaceId}/fs/grep`, {
      key,
      json: { pattern: ".", path: "/w", maxMatches: 10_000 },
    });
    const found = (await grep.json()) as { matches: { path: string; text: string }[]; truncated: boolean };
    expect(found.truncated).toBe(false);
    const object = new Map(found.matches.map((m) => [m.path, m.text]));

    // Every acknowledged API write reads back as written.
    const apiLost = [...written].filter(([path, w]) => object.get(path) !== w.text).map(([path]) => path);
    // Every write of the box is on the object: at its path, beside the API's version as a
    // conflict copy, or (only where the API wrote over it knowingly, with If-Match) replaced.
    const saved = new Map(after.conflicts.map((c) => [c.path, c.savedAs]));
    const boxLost: string[] = [];
    const raced: string[] = [];
    for (const [path, text] of box) {
      const api = written.get(path);
      if (api?.afterBox) {
        // The API wrote over the box's version knowingly: no conflict.
        if (saved.has(path)) boxLost.push(`${path} (reported as a conflict)`);
      } else if (api) {
        // Both wrote it, neither knowing of the other: the box's version is beside the API's.
        raced.push(path);
        const copy = saved.get(path) ?? "";
        expect(copy, path).toMatch(new RegExp(`^/w/f${api.i}\\.conflict-[0-9a-f]{8}\\.txt$`));
        if (object.get(copy) !== text) boxLost.push(path);
      } else if (object.get(path) !== text) {
        boxLost.push(path);
      }
    }
    const afterBox = [...written.values()].filter((w) => w.afterBox).length;
    console.log(
      `crash test: the box wrote ${boxWrote} files (${acknowledged} reported on its output when it died); the API then wrote ${written.size}, ${afterBox} over a version of the box's already on the workspace, ${raced.length} racing a version still pending in the box; conflict copies: ${saved.size}; API writes lost: ${apiLost.length}; box writes lost: ${boxLost.length}`,
    );
    expect(apiLost).toEqual([]);
    expect(boxLost).toEqual([]);
    expect(saved.size).toBe(raced.length);
    // Both cases happened: the first files were on the workspace, the last ones still pending.
    expect(afterBox).toBeGreaterThan(0);
    expect(raced.length).toBeGreaterThan(0);
    // And the box sees the API's version with its own copy beside it.
    const racedPath = (raced[0] as string).slice(1);
    const shown = await exec(key, workspaceId, {
      command: `cat ${racedPath} ${racedPath.replace(/\.txt$/, "")}.conflict-*.txt`,
    });
    expect(shown.stdout).toBe(`${object.get(`/${racedPath}`)}\n${box.get(`/${racedPath}`)}\n`);
  });

  it("stops the computer and deletes its replica when the workspace is deleted", async () => {
    const { key, tenantId } = (await api.signup()) as { key: string; tenantId: string };
    const workspaceId = await api.createWorkspace(key);
    await exec(key, workspaceId, { command: "echo kept > secret.txt" });
    const name = `${tenantId}:${workspaceId}`;
    const replica = stateDirFor(platform.stateDir, name);
    expect(computerdPid(name)).not.toBeNull();
    expect(existsSync(replica)).toBe(true);
    const deleted = await api.call("DELETE", `/v1/workspaces/${workspaceId}`, { key });
    expect(deleted.ok).toBe(true);
    expect(computerdPid(name)).toBeNull();
    expect(existsSync(replica)).toBe(false);
  });
});
