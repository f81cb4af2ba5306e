/**
 * Where a benchmark script runs. The scenarios only need "run this shell script and give
 * me its output": through the platform's container executor for the real bench, or with
 * `/bin/sh -c` on this machine to develop and check the scripts without the daemon.
 */
import { spawn } from "node:child_process";
import { request } from "node:http";
import { exitCodes } from "../../container/wire/index.ts";

export interface RunResult {
  exitCode: number;
  stdout: string;
  stderr: string;
  /** Client-side wall time of the whole run: for the API runner, the round trip included. */
  wallMs: number;
  /** Which workspace mount ran the command (the API runner only). */
  mount?: string | null;
}

export interface RunOptions {
  timeoutMs: number;
  /** Lets the run reach the network (the npm warm-ups fill the cache from the registry). */
  network?: boolean;
}

export type Runner = (script: string, options: RunOptions) => Promise<RunResult>;

/** Runs `script` with `/bin/sh -c` on this machine. */
export function hostRunner(): Runner {
  return (script, { timeoutMs }) =>
    new Promise((resolve, reject) => {
      const start = performance.now();
      const child = spawn("/bin/sh", ["-c", script], { stdio: ["ignore", "pipe", "pipe"] });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d) => (stdout += d));
      child.stderr.on("data", (d) => (stderr += d));
      const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
      child.on("error", reject);
      child.on("close", (code, signal) => {
        clearTimeout(timer);
        resolve({ exitCode: code ?? (signal ? 128 + 9 : 1), stdout, stderr, wallMs: performance.now() - start });
      });
    });
}

/** The exec route's answer (openapi ExecResult), the fields the bench reads. */
interface ExecResult {
  status: string;
  exitCode: number | null;
  stdout: string;
  stderr: string;
  mount: string | null;
}

/**
 * POSTs JSON with node:http rather than fetch: the exec route answers when the run ends,
 * and fetch's fixed 300 s wait for response headers would cut a long install short.
 */
function postJson(url: string, headers: Record<string, string>, body: string, timeoutMs: number) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = request(url, { method: "POST", headers: { ...headers, "content-type": "application/json" } }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      res.on("error", reject);
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer in ${timeoutMs} ms from ${url}`)));
    req.on("error", reject);
    req.end(body);
  });
}

/** Runs `script` with the container executor of one workspace, through the HTTP API. */
export function apiRunner(url: string, auth: Record<string, string>, workspaceId: string): Runner {
  return async (script, { timeoutMs, network }) => {
    const start = performance.now();
    const body = JSON.stringify({
      executor: "container",
      command: script,
      timeoutMs,
      ...(network ? { egress: true } : {}),
    });
    const response = await postJson(`${url}/v1/workspaces/${workspaceId}/exec`, auth, body, timeoutMs + 60_000);
    const wallMs = performance.now() - start;
    if (response.status !== 200) {
      throw new Error(`container exec answered ${response.status}: ${response.text.slice(0, 2000)}`);
    }
    const result = JSON.parse(response.text) as ExecResult;
    return {
      exitCode: result.exitCode ?? (result.status === "timed_out" ? exitCodes.timedOut : 1),
      stdout: result.stdout,
      stderr: result.stderr,
      wallMs,
      mount: result.mount,
    };
  };
}

/** Runs `script` and fails loudly (with its output) when it does not exit 0. */
export async function runOk(run: Runner, script: string, options: RunOptions): Promise<RunResult> {
  const result = await run(script, options);
  if (result.exitCode !== 0) {
    throw new Error(
      `exit ${result.exitCode} from:\n${script.slice(0, 1500)}\n--- stdout\n${result.stdout.slice(-2000)}\n--- stderr\n${result.stderr.slice(-2000)}`,
    );
  }
  return result;
}
