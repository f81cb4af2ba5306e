/**
 * Output streams live and survives disconnects: a client reads part of a running
 * command's SSE stream, drops the connection, reconnects with Last-Event-ID, and has
 * received every byte exactly once, in order.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { newWorkspace, signUp } from "./platform.ts";
import { sharedPlatform } from "./sharedPlatform.ts";
import { readSse, type SseEvent } from "./sse.ts";

const platform = sharedPlatform();
let auth: Record<string, string>;
let workspaceId: string;

beforeAll(async () => {
  ({ auth } = await signUp(platform.url, "stream@example.com"));
  workspaceId = await newWorkspace(platform.url, auth);
});

const LINES = 40;
const script = `for i in $(seq 1 ${LINES}); do echo "line $i"; sleep 0.05; done`;

describe("exec output streaming", () => {
  it("streams while the command runs, and resumes after a disconnect without loss or repeats", async () => {
    const first = new AbortController();
    const response = await fetch(`${platform.url}/v1/workspaces/${workspaceId}/exec`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify({ executor: "shell", command: script }),
      signal: first.signal,
    });
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    // The run's id comes first, in a header and in an event without an SSE id, so a client
    // with nothing but the stream (curl -N) can resume it.
    const execId = response.headers.get("x-exec-id") ?? "";
    expect(execId).toMatch(/^ex_/);
    const received: { id: number; event: string; text: string }[] = [];
    let introduced: SseEvent | undefined;
    for await (const event of readSse(response.body as ReadableStream<Uint8Array>)) {
      if (introduced === undefined) {
        introduced = event;
        continue;
      }
      received.push({
        id: Number(event.id),
        event: event.event,
        text: (JSON.parse(event.data) as { text: string }).text,
      });
      if (received.length === 1) {
        // Live: the first line arrives while the command is still running.
        const record = await fetch(`${platform.url}/v1/workspaces/${workspaceId}/execs/${execId}`, { headers: auth });
        expect(((await record.json()) as { status: string }).status).toBe("running");
      }
      if (received.length === 5) break;
    }
    expect(introduced).toMatchObject({ event: "exec", id: null });
    expect(JSON.parse(introduced?.data ?? "{}")).toEqual({ id: execId, workspaceId });
    first.abort();

    const lastEventId = String(received.at(-1)?.id);
    const resumed = await fetch(`${platform.url}/v1/workspaces/${workspaceId}/execs/${execId}/output`, {
      headers: { ...auth, accept: "text/event-stream", "last-event-id": lastEventId },
    });
    let exit: { status: string; exitCode: number } | undefined;
    for await (const event of readSse(resumed.body as ReadableStream<Uint8Array>)) {
      if (event.event === "exit") {
        exit = JSON.parse(event.data);
        received.push({ id: Number(event.id), event: "exit", text: "" });
        break;
      }
      received.push({
        id: Number(event.id),
        event: event.event,
        text: (JSON.parse(event.data) as { text: string }).text,
      });
    }
    expect(exit).toMatchObject({ status: "completed", exitCode: 0 });
    const ids = received.map((e) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
    const stdout = received
      .filter((e) => e.event === "stdout")
      .map((e) => e.text)
      .join("");
    expect(stdout).toBe(Array.from({ length: LINES }, (_, i) => `line ${i + 1}\n`).join(""));
  });

  it("pages the same output as JSON after the run", async () => {
    const ran = await fetch(`${platform.url}/v1/workspaces/${workspaceId}/exec`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ executor: "shell", command: "seq 1 5; echo err >&2; exit 2" }),
    });
    const { id } = (await ran.json()) as { id: string };
    const page = await fetch(`${platform.url}/v1/workspaces/${workspaceId}/execs/${id}/output?after=0`, {
      headers: auth,
    });
    const body = (await page.json()) as { events: { stream: string; text: string }[]; done: boolean };
    expect(body.done).toBe(true);
    expect(
      body.events
        .filter((e) => e.stream === "stdout")
        .map((e) => e.text)
        .join(""),
    ).toBe("1\n2\n3\n4\n5\n");
    expect(
      body.events
        .filter((e) => e.stream === "stderr")
        .map((e) => e.text)
        .join(""),
    ).toBe("err\n");
    expect(JSON.parse(body.events.at(-1)?.text ?? "{}")).toMatchObject({ status: "failed", exitCode: 2 });
  });
});
