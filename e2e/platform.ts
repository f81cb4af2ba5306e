/**
 * Starts the platform exactly as `npm start` does (scripts/start.ts) on a free port with
 * its own state directory, for end-to-end tests. `stop()` sends SIGINT like Ctrl-C. Most
 * test files share the one the e2e project starts (sharedPlatform.ts).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { request } from "node:http";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
/**
 * How long a start may take: about 15 s idle (wrangler's build and workerd's start), but
 * several times that on two cores shared with a running test suite or pjdfstest.
 */
const startDeadlineMs = 180_000;
/** How long a platform that failed to start gets to stop its children: start.ts's own grace (12 s), and a little. */
const stopGraceMs = 15_000;

export interface Platform {
  url: string;
  stateDir: string;
  process: ChildProcess;
  output: () => string;
  stop: () => Promise<number | null>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

export function newStateDir(): string {
  return mkdtempSync(join(tmpdir(), "cubicle-e2e-"));
}

export async function startPlatform(stateDir = newStateDir(), env: NodeJS.ProcessEnv = {}): Promise<Platform> {
  const port = await freePort();
  const child = spawn(process.execPath, [join(root, "scripts/start.ts")], {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), CUBICLE_STATE_DIR: stateDir },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));

  // Both timers are cleared once one way wins: the e2e global setup starts a platform in
  // vitest's own process, which a pending timer would keep alive after the last test.
  let poll: NodeJS.Timeout | undefined;
  let deadline: NodeJS.Timeout | undefined;
  const ready = await Promise.race([
    new Promise<boolean>((resolve) => {
      const check = () => {
        if (output.includes("Cubicle is running")) resolve(true);
        else poll = setTimeout(check, 100);
      };
      check();
    }),
    exited.then(() => false),
    new Promise<boolean>((resolve) => {
      deadline = setTimeout(() => resolve(false), startDeadlineMs);
    }),
  ]).finally(() => {
    clearTimeout(poll);
    clearTimeout(deadline);
  });
  if (!ready) {
    // SIGINT, as a stop does, so start.ts stops the wrangler, workerd and supervisor it
    // started (a SIGKILL would leave them running, holding ports); SIGKILL only if it hangs.
    child.kill("SIGINT");
    const gone = await Promise.race([exited.then(() => true), sleep(stopGraceMs).then(() => false)]);
    if (!gone) child.kill("SIGKILL");
    throw new Error(`the platform did not start:\n${output}`);
  }
  return {
    url: `http://127.0.0.1:${port}`,
    stateDir,
    process: child,
    output: () => output,
    stop: async () => {
      child.kill("SIGINT");
      return exited;
    },
  };
}

/**
 * A random loopback address in 127.0.0.0/8, every one of which reaches the platform on
 * Linux. Signups are limited per client address (10 a minute), which under `npm start` is
 * the socket peer (a `CF-Connecting-IP` a client sends is replaced, as Cloudflare does), and
 * test files that share a platform would otherwise share that budget: connecting from one
 * address per signup keeps every file's signups apart however many there are.
 */
export function clientAddress(): string {
  const octet = () => Math.floor(Math.random() * 256);
  return `127.${octet()}.${octet()}.${1 + Math.floor(Math.random() * 254)}`;
}

/** A POST of a JSON body over a connection made from `localAddress` (fetch cannot choose it). */
export function postJsonFrom(
  url: string,
  body: unknown,
  localAddress: string,
  headers: Record<string, string> = {},
): Promise<Response> {
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const sent = request(
      url,
      {
        method: "POST",
        localAddress,
        headers: { ...headers, "content-type": "application/json", "content-length": Buffer.byteLength(text) },
      },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on("data", (chunk: Buffer) => chunks.push(chunk));
        answer.on("end", () => {
          const responseHeaders = new Headers();
          for (const [name, value] of Object.entries(answer.headers)) {
            if (typeof value === "string") responseHeaders.set(name, value);
          }
          resolve(new Response(Buffer.concat(chunks), { status: answer.statusCode, headers: responseHeaders }));
        });
        answer.on("error", reject);
      },
    );
    sent.on("error", reject);
    sent.end(text);
  });
}

/** Signs up a tenant on a running platform, from `address` or else a fresh client address. */
export async function signUp(
  url: string,
  email: string,
  address = clientAddress(),
): Promise<{ key: string; auth: Record<string, string> }> {
  const response = await postJsonFrom(`${url}/v1/signup`, { email }, address);
  if (response.status !== 201) throw new Error(`signup failed: ${response.status} ${await response.text()}`);
  const key = ((await response.json()) as { apiKey: { key: string } }).apiKey.key;
  return { key, auth: { authorization: `Bearer ${key}` } };
}

export async function newWorkspace(url: string, auth: Record<string, string>): Promise<string> {
  const response = await fetch(`${url}/v1/workspaces`, {
    method: "POST",
    headers: { ...auth, "content-type": "application/json" },
    body: "{}",
  });
  if (response.status !== 201) throw new Error(`create workspace failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { id: string }).id;
}
