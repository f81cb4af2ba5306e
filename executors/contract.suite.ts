/**
 * The shared executor contract: every executor runs these checks through the real API
 * (gateway, workspace object, exec records), each with programs in its own language.
 * An executor passes the contract when every facet below holds.
 */
import { describe, expect, it } from "vitest";
import type { ExecutorName } from "./contract.ts";

/**
 * How the suite reaches the API: inside workerd (test/client.ts) for the shell and
 * javascript executors, over HTTP against `npm start` (e2e/httpClient.ts) for the
 * container, whose host runs outside the Worker.
 */
export interface ContractClient {
  call(
    method: string,
    path: string,
    options?: { key?: string; json?: unknown; body?: BodyInit; headers?: Record<string, string> },
  ): Promise<Response>;
  signup(): Promise<{ key: string }>;
  createWorkspace(key: string): Promise<string>;
}

const json = async <T = Record<string, unknown>>(response: Response): Promise<T> => (await response.json()) as T;

/** One program per facet, in the executor's language (`command` for shell/container, `code` for javascript). */
export interface ContractPrograms {
  /** Prints exactly `hello\n` to stdout. */
  echo: string;
  /** Exits with code 3 and no output. */
  exit3: string;
  /** Prints `oops\n` to stderr, nothing to stdout, exits 0. */
  stderr: string;
  /** Copies stdin to stdout. */
  stdin: string;
  /** Prints the value of the environment variable NAME, then a newline. */
  env: string;
  /** Prints the working directory, then a newline. */
  cwd: string;
  /** Writes `from-executor` into /workspace/out.txt (no newline). */
  writeFile: string;
  /** Prints the content of /workspace/in.txt. */
  readFile: string;
  /** Never ends on its own. */
  forever: string;
  /** Prints at least 100,000 bytes. */
  flood: string;
  /** Prints `héllo ✓ 日本\n`. */
  unicode: string;
  /** Prints the two bytes 0x00 0xff. */
  binary: string;
}

type Field = "command" | "code";

export function executorContract(
  executor: ExecutorName,
  field: Field,
  programs: ContractPrograms,
  client: ContractClient,
) {
  const { call, signup, createWorkspace } = client;
  const run = async (program: string, extra: Record<string, unknown> = {}) => {
    const { key } = await signup();
    const workspaceId = await createWorkspace(key);
    const response = await call("POST", `/v1/workspaces/${workspaceId}/exec`, {
      key,
      json: { executor, [field]: program, ...extra },
    });
    if (response.status !== 200 && response.status !== 202) {
      throw new Error(`exec answered ${response.status}: ${await response.text()}`);
    }
    return {
      key,
      workspaceId,
      result: await json<{
        id: string;
        status: string;
        exitCode: number;
        stdout: string;
        stderr: string;
        truncated: boolean;
      }>(response),
    };
  };

  describe(`${executor} executor contract`, () => {
    it("echoes to stdout and completes with 0", async () => {
      const { result } = await run(programs.echo);
      expect(result).toMatchObject({ status: "completed", exitCode: 0, stdout: "hello\n", stderr: "" });
    });

    it("reports a non-zero exit code as failed", async () => {
      const { result } = await run(programs.exit3);
      expect(result).toMatchObject({ status: "failed", exitCode: 3 });
    });

    it("keeps stderr apart from stdout", async () => {
      const { result } = await run(programs.stderr);
      expect(result).toMatchObject({ exitCode: 0, stdout: "", stderr: "oops\n" });
    });

    it("feeds stdin", async () => {
      const { result } = await run(programs.stdin, { stdin: "line one\nline two\n" });
      expect(result.stdout).toBe("line one\nline two\n");
    });

    it("passes environment variables", async () => {
      const { result } = await run(programs.env, { env: { NAME: "cubicle" } });
      expect(result.stdout).toBe("cubicle\n");
    });

    it("starts in /workspace, or the cwd asked for", async () => {
      expect((await run(programs.cwd)).result.stdout).toBe("/workspace\n");
      const { key } = await signup();
      const workspaceId = await createWorkspace(key);
      await call("PUT", `/v1/workspaces/${workspaceId}/files/sub/keep`, { key, body: "" });
      const response = await call("POST", `/v1/workspaces/${workspaceId}/exec`, {
        key,
        json: { executor, [field]: programs.cwd, cwd: "/workspace/sub" },
      });
      expect((await json<{ stdout: string }>(response)).stdout).toBe("/workspace/sub\n");
    });

    it("shares files with the file API both ways", async () => {
      const { key } = await signup();
      const workspaceId = await createWorkspace(key);
      await call("PUT", `/v1/workspaces/${workspaceId}/files/in.txt`, { key, body: "from-api" });
      const read = await call("POST", `/v1/workspaces/${workspaceId}/exec`, {
        key,
        json: { executor, [field]: programs.readFile },
      });
      expect((await json<{ stdout: string }>(read)).stdout).toBe("from-api");
      await call("POST", `/v1/workspaces/${workspaceId}/exec`, {
        key,
        json: { executor, [field]: programs.writeFile },
      });
      const file = await call("GET", `/v1/workspaces/${workspaceId}/files/out.txt`, { key });
      expect(new TextDecoder().decode(await file.arrayBuffer())).toBe("from-executor");
    });

    it("times out with status timed_out and exit code 124", async () => {
      const { result } = await run(programs.forever, { timeoutMs: 300 });
      expect(result).toMatchObject({ status: "timed_out", exitCode: 124 });
    });

    it("is killed on request and ends as cancelled", async () => {
      const { key, workspaceId, result } = await run(programs.forever, { background: true, timeoutMs: 30_000 });
      expect(result.status).toBe("running");
      const killed = await call("POST", `/v1/workspaces/${workspaceId}/execs/${result.id}/kill`, { key, json: {} });
      expect(await json(killed)).toMatchObject({ status: "cancelled", exitCode: 137 });
    });

    it("caps stored output with a visible marker", async () => {
      const { result } = await run(programs.flood, { outputBytesMax: 1000 });
      expect(result.truncated).toBe(true);
      expect(result.stdout.length).toBeLessThanOrEqual(1000);
      expect(result.stderr).toContain("output truncated after 1000 bytes");
    });

    it("keeps unicode and binary output intact", async () => {
      expect((await run(programs.unicode)).result.stdout).toBe("héllo ✓ 日本\n");
      const { key, workspaceId, result } = await run(programs.binary);
      const output = await json<{ events: { stream: string; base64?: string }[] }>(
        await call("GET", `/v1/workspaces/${workspaceId}/execs/${result.id}/output`, { key }),
      );
      const stdout = output.events.filter((e) => e.stream === "stdout");
      expect(stdout.map((e) => e.base64).join("")).toBe(btoa("\u0000\u00ff"));
    });
  });
}
