import { describe, expect, it } from "vitest";
import { call, createWorkspace, expectProblem, json, signup } from "../../../test/client.ts";

async function workspace() {
  const { key } = await signup();
  const id = await createWorkspace(key);
  const exec = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    call("POST", `/v1/workspaces/${id}/exec`, { key, json: { executor: "shell", ...body }, headers });
  return { key, id, exec };
}

interface Result {
  id: string;
  status: string;
  exitCode: number | null;
  stdout: string;
}

describe("POST /v1/workspaces/{id}/exec", () => {
  it("shows a foreground run's writes at once: in the workspace's counters, its list entry and the tenant's storage", async () => {
    const { key, id, exec } = await workspace();
    const ran = await exec({ command: "printf 1234567 > seven.txt; echo hi" });
    expect(ran.status).toBe(200);
    const result = await json<Record<string, unknown>>(ran);
    expect(result).toMatchObject({ status: "completed", exitCode: 0, stdout: "hi\n" });
    // The workspace object's own counters travel with the result, but are not part of the answer.
    expect(result).not.toHaveProperty("stats");
    const listed = await json<{ data: { id: string; sizeBytes: number; fileCount: number }[] }>(
      await call("GET", "/v1/workspaces", { key }),
    );
    expect(listed.data.find((item) => item.id === id)).toMatchObject({ sizeBytes: 7, fileCount: 1 });
    const quotas = await json<{ storage: { used: number } }>(await call("GET", "/v1/quotas", { key }));
    expect(quotas.storage.used).toBe(7);
  });

  it("answers a foreground run's output whole, small or too large to travel with the run's metering", async () => {
    const { exec } = await workspace();
    // 300,000 bytes of stdout and 70,000 of stderr: past what passes through the tenant's
    // object (answerOutputBytesMax), so the route reads them from the workspace's object.
    for (const [out, err] of [
      [3, 1],
      [300_000, 70_000],
    ] as const) {
      const ran = await exec({ command: `printf '%0*d' ${out} 0; printf '%0*d' ${err} 1 >&2` });
      const result = await json<Record<string, unknown>>(ran);
      expect(result).toMatchObject({
        status: "completed",
        exitCode: 0,
        stdout: "0".repeat(out),
        stderr: `${"0".repeat(err - 1)}1`,
      });
      expect(result).not.toHaveProperty("outputElided");
    }
  });

  it("runs in the background, then pages the finished output and lists the run", async () => {
    const { key, id, exec } = await workspace();
    const started = await exec({ command: "sleep 0.2; echo done", background: true });
    expect(started.status).toBe(202);
    const { id: execId, status } = await json<Result>(started);
    expect(status).toBe("running");
    let record: Result & { durationMs: number | null } = {
      id: execId,
      status,
      exitCode: null,
      stdout: "",
      durationMs: null,
    };
    for (let i = 0; i < 50 && record.status === "running"; i++) {
      await new Promise((r) => setTimeout(r, 50));
      record = await json(await call("GET", `/v1/workspaces/${id}/execs/${execId}`, { key }));
    }
    expect(record).toMatchObject({ status: "completed", exitCode: 0 });
    expect(record.durationMs).toBeGreaterThan(0);
    const output = await json<{ events: { stream: string; text: string }[]; done: boolean }>(
      await call("GET", `/v1/workspaces/${id}/execs/${execId}/output`, { key }),
    );
    expect(output.done).toBe(true);
    expect(output.events.map((e) => e.stream)).toEqual(["stdout", "exit"]);
    const listed = await json<{ data: { id: string }[] }>(await call("GET", `/v1/workspaces/${id}/execs`, { key }));
    expect(listed.data.map((r) => r.id)).toEqual([execId]);
  });

  it("points at each invalid egress allow list entry", async () => {
    const { exec } = await workspace();
    const allow = ["api.github.com", "*.npmjs.org", "https://example.com", "10.0.0.1", "a.*.example", "[::1]:80"];
    const problem = await expectProblem(await exec({ command: "true", egress: { allow } }), 400, "validation_failed");
    expect(problem.errors).toEqual([
      { in: "body", pointer: "/egress/allow/2", detail: expect.stringContaining("not a URL") },
      { in: "body", pointer: "/egress/allow/3", detail: expect.stringContaining("10.0.0.1 is a private") },
      { in: "body", pointer: "/egress/allow/4", detail: expect.stringContaining("whole first label") },
      { in: "body", pointer: "/egress/allow/5", detail: expect.stringContaining("[::1] is a private") },
    ]);
    const tooMany = Array.from({ length: 65 }, (_, i) => `h${i}.example`);
    const shapes: [unknown, string][] = [
      [{ allow: tooMany }, "/egress/allow"],
      [{ allow: [] }, "/egress/allow"],
      [{ allow: "api.github.com" }, "/egress"],
      [{ allow: ["api.github.com"], deny: [] }, "/egress"],
      ["yes", "/egress"],
    ];
    for (const [egress, pointer] of shapes) {
      const shape = await expectProblem(await exec({ command: "true", egress }), 400, "validation_failed");
      expect(shape.errors).toEqual([expect.objectContaining({ in: "body", pointer })]);
    }
  });

  it("leaves a finished run as it was when killed", async () => {
    const { key, id, exec } = await workspace();
    const ran = await json<Result>(await exec({ command: "echo hi" }));
    const killed = await call("POST", `/v1/workspaces/${id}/execs/${ran.id}/kill`, { key, json: {} });
    expect(await json(killed)).toMatchObject({ status: "completed", exitCode: 0 });
  });

  it("replays a retried run with the same Idempotency-Key instead of running it twice", async () => {
    const { key, id, exec } = await workspace();
    const headers = { "idempotency-key": "append-once" };
    const first = await json<Result>(await exec({ command: "echo x >> log.txt; wc -l < log.txt" }, headers));
    const retry = await exec({ command: "echo x >> log.txt; wc -l < log.txt" }, headers);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(await json(retry)).toEqual(first);
    const log = await call("GET", `/v1/workspaces/${id}/files/log.txt`, { key });
    expect(new TextDecoder().decode(await log.arrayBuffer())).toBe("x\n");
  });

  it("refuses bad requests precisely", async () => {
    const { exec } = await workspace();
    const noCommand = await expectProblem(await exec({}), 400, "validation_failed");
    expect(noCommand.errors).toEqual([expect.objectContaining({ pointer: "/command" })]);
    await expectProblem(await exec({ command: "pwd", cwd: "/etc" }), 400, "validation_failed");
    await expectProblem(await exec({ command: "pwd", timeoutMs: 10 * 60 * 60 * 1000 }), 400, "validation_failed");
    const egress = await expectProblem(await exec({ command: "true", egress: true }), 403, "forbidden");
    expect(egress.detail).toContain("not part of the free plan");
    // An allow list is network too: the free plan gets none.
    const listed = await expectProblem(
      await exec({ command: "true", egress: { allow: ["api.github.com"] } }),
      403,
      "forbidden",
    );
    expect(listed.detail).toContain("not part of the free plan");
    const container = await expectProblem(
      await exec({ executor: "container", command: "true" }),
      503,
      "executor_unavailable",
    );
    expect(container.detail).toContain("container");
  });

  it("answers 404 for an exec id from another workspace", async () => {
    const a = await workspace();
    const ran = await json<Result>(await a.exec({ command: "true" }));
    const otherWorkspace = await createWorkspace(a.key);
    await expectProblem(
      await call("GET", `/v1/workspaces/${otherWorkspace}/execs/${ran.id}`, { key: a.key }),
      404,
      "not_found",
    );
  });
});
