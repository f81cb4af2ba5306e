/**
 * The TypeScript SDK drives a user's whole journey against the platform started by the
 * start script: signup, a key, a workspace, files, a streamed run on each executor, usage,
 * and typed errors carrying request ids.
 */
import {
  type APIError,
  Cubicle,
  type ExecEvent,
  NotFoundError,
  PreconditionFailedError,
  UnauthorizedError,
  ValidationFailedError,
  type Workspace,
} from "@cubicle/sdk";
import { beforeAll, describe, expect, it } from "vitest";
import { sharedPlatform } from "./sharedPlatform.ts";

const platform = sharedPlatform();
let cubicle: Cubicle;
let ws: Workspace;

beforeAll(async () => {
  // Like a user's, this signup sends no client address; on the shared platform it shares the
  // per-address limit only with the browser SDK test's.
  const signed = await new Cubicle({ baseUrl: platform.url }).signup({ email: "sdk-ts@example.com" });
  cubicle = new Cubicle({ baseUrl: platform.url, apiKey: signed.apiKey.key });
});

/** Every event of a stream, and the stdout it carried. */
async function drain(events: AsyncIterable<ExecEvent>) {
  const seen: ExecEvent[] = [];
  for await (const event of events) seen.push(event);
  const stdout = seen.flatMap((event) => (event.stream === "stdout" ? [event.text] : [])).join("");
  return { seen, stdout, exit: seen.at(-1) };
}

describe("the TypeScript SDK against the platform", () => {
  it("creates a key and a workspace, and finds them listed", async () => {
    const account = await cubicle.account.get();
    expect(account.email).toBe("sdk-ts@example.com");
    const key = await cubicle.keys.create({ name: "agent", scopes: ["workspaces:read"] });
    expect(key.key).toMatch(/^cub_/);
    const keys = await cubicle.keys.list().toArray();
    expect(keys.map((k) => k.id)).toContain(key.id);

    ws = await cubicle.workspaces.create({ name: "journey", metadata: { team: "sdk" } });
    expect(ws.id).toMatch(/^ws_/);
    expect((await cubicle.workspaces.get(ws.id)).name).toBe("journey");
    const listed = [];
    for await (const item of cubicle.workspaces.list({ limit: 1 })) listed.push(item.id);
    expect(listed).toEqual([ws.id]);

    // The narrower key reads but cannot write, and says so with a typed error.
    const reader = new Cubicle({ baseUrl: platform.url, apiKey: key.key });
    expect((await reader.workspaces.get(ws.id)).id).toBe(ws.id);
  });

  it("writes, reads, lists and guards files", async () => {
    const bytes = new Uint8Array([0, 1, 2, 254, 255, 10]);
    const info = await ws.files.write("/data/blob.bin", bytes);
    expect(info).toMatchObject({ path: "/data/blob.bin", size: bytes.length });
    expect(await ws.files.read("/data/blob.bin")).toEqual(bytes);
    await ws.files.write("notes/hello.txt", "héllo ✓\n");
    expect(await ws.files.readText("/notes/hello.txt")).toBe("héllo ✓\n");
    const entries = await ws.files.list("/", { recursive: true }).toArray();
    expect(entries.map((e) => e.path).sort()).toEqual(["/data", "/data/blob.bin", "/notes", "/notes/hello.txt"]);

    const refused = await ws.files.write("/notes/hello.txt", "again", { ifNoneMatch: "*" }).catch((e: APIError) => e);
    expect(refused).toBeInstanceOf(PreconditionFailedError);
    expect((refused as APIError).requestId).toMatch(/\S/);
  });

  it("streams a run on each executor and returns whole results", async () => {
    const shell = await drain(
      ws.exec.stream({ executor: "shell", command: "cat /workspace/notes/hello.txt; echo done" }),
    );
    expect(shell.stdout).toBe("héllo ✓\ndone\n");
    expect(shell.exit).toMatchObject({ stream: "exit", status: "completed", exitCode: 0 });
    const seqs = shell.seen.map((e) => e.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));

    const js = await drain(
      ws.exec.stream({
        executor: "javascript",
        code: "import { readFile } from 'node:fs/promises';\nexport default async () => { console.log((await readFile('/workspace/notes/hello.txt', 'utf8')).trim()); return 42; };",
      }),
    );
    expect(js.stdout).toBe("héllo ✓\n");
    expect(js.exit).toMatchObject({ status: "completed" });

    const container = ws.exec.stream({ executor: "container", command: "uname -s; wc -c < /workspace/data/blob.bin" });
    const ran = await container.collect();
    expect(ran.stdout).toBe("Linux\n6\n");
    expect(ran.exit).toMatchObject({ status: "completed", exitCode: 0 });
    expect((await ws.execs.get(container.id as string)).executor).toBe("container");

    const whole = await ws.exec({ executor: "javascript", code: "export default async (x) => x * 2;", input: 21 });
    expect(whole).toMatchObject({ status: "completed", result: 42 });
    const failed = await ws.exec({ executor: "shell", command: "echo oops >&2; exit 3" });
    expect(failed).toMatchObject({ status: "failed", exitCode: 3, stderr: "oops\n" });
  });

  it("reports the usage the journey made", async () => {
    const report = await cubicle.usage.get({ granularity: "day" });
    const total = (meter: string) =>
      report.series
        .filter((series) => series.meter === meter)
        .flatMap((series) => series.points)
        .reduce((sum, point) => sum + point.quantity, 0);
    expect(total("api_requests")).toBeGreaterThan(5);
    expect(total("shell_ms")).toBeGreaterThan(0);
    expect(total("javascript_ms")).toBeGreaterThan(0);
    expect(total("container_ms")).toBeGreaterThan(0);
    const quotas = await cubicle.quotas.get();
    expect(JSON.stringify(quotas)).toContain("api_requests");
  });

  it("throws a typed error with the request id", async () => {
    const missing = await cubicle.workspaces.get("ws_00000000000000000000000000").catch((e: APIError) => e);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing).toMatchObject({ status: 404, code: "not_found" });
    expect((missing as APIError).requestId).toMatch(/\S/);

    const stranger = new Cubicle({ baseUrl: platform.url, apiKey: "cub_not_a_real_key", maxRetries: 0 });
    await expect(stranger.account.get()).rejects.toBeInstanceOf(UnauthorizedError);
    // The SDK's types refuse a shell run without `command` (one shape per executor); the
    // server refuses it too, for a caller whose types do not.
    // @ts-expect-error: `command` is required for the shell executor.
    await expect(ws.exec({ executor: "shell" })).rejects.toBeInstanceOf(ValidationFailedError);
  });
});
