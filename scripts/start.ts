/**
 * `npm start`: serves the whole platform locally. It applies D1 migrations, starts the
 * container supervisor (container/supervisor: one computerd per workspace, in place of
 * Cloudflare Containers, which need Docker), starts `wrangler dev` (workerd with local D1,
 * Durable Objects and the Worker Loader) on a loopback port of its own with the supervisor's
 * URL and a secret made for this start, serves PORT through the local edge in front of it
 * (localEdge.ts: the client address and the refusals Cloudflare's edge would make), waits
 * until it answers, and prints how to sign up. Ctrl-C
 * (or SIGTERM) stops every child it started, each in its own process group so grandchildren
 * go too; the supervisor stops its daemons first (docs/container-local.md).
 *
 * The supervisor finds or builds the box image every container command runs in
 * (docs/container-image.md) in the background: the platform serves at once, shell and
 * javascript runs work meanwhile, and container runs answer 503 `executor_starting` until
 * the image is ready. Its progress is printed here as it goes.
 *
 * Environment: PORT (default 8787), CUBICLE_STATE_DIR (default .wrangler/state; daemon
 * state goes in its `computers` folder), CUBICLE_IMAGES_DIR (default <state dir>/images).
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { delimiter, dirname, join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { localDevEnv, localDevFlags } from "./localDev.ts";
import { freeLoopbackPort, startLocalEdge } from "./localEdge.ts";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const wrangler = join(dirname(createRequire(import.meta.url).resolve("wrangler/package.json")), "bin/wrangler.js");
const port = Number(process.env.PORT ?? 8787);
const stateDir = resolve(root, process.env.CUBICLE_STATE_DIR ?? ".wrangler/state");
const url = `http://127.0.0.1:${port}`;
const readyTimeoutMs = 60_000;
// The supervisor's first start from a fresh clone compiles its TypeScript with a cold cache:
// 3.5 s on an idle machine, and over 10 s on a busy one (load 17 on 2 cores), where a 10 s
// limit served the platform without the container executor for no real fault.
const supervisorReadyTimeoutMs = 60_000;
/** Starts of the supervisor when it keeps landing on PORT (see startSupervisor). */
const supervisorStartsMax = 3;
// The supervisor gives each computerd 10 s to push its changes and unmount (limits.ts).
const stopGraceMs = 12_000;
const computerdBundle = join(root, ".build/computerd/computerd.mjs");
const buildComputerd = join(root, "scripts/build-computerd.ts");
// The supervisor's bearer and every computerd's token-signing secret. A new one each start,
// so nothing that outlives this run can use it.
const computerdSecret = randomBytes(32).toString("hex");
// What the local edge (localEdge.ts) shows the Worker, so it trusts the client address the
// edge sets; made for this start, like the secret above.
const edgeSecret = randomBytes(32).toString("hex");

const children = new Set<ChildProcess>();

function run(
  args: string[],
  options: { quiet?: boolean; script?: string; env?: NodeJS.ProcessEnv } = {},
): ChildProcess {
  const child = spawn(process.execPath, [options.script ?? wrangler, ...args], {
    cwd: root,
    detached: true,
    stdio: options.quiet ? ["ignore", "pipe", "pipe"] : ["ignore", "inherit", "inherit"],
    env: {
      ...process.env,
      // workerd's V8 flags for wrangler dev (the javascript executor's memory limit, localDev.ts).
      ...localDevEnv(),
      ...options.env,
      // wrangler's [build] step runs `node`; make that this same Node (24), however we were started.
      PATH: [dirname(process.execPath), join(root, "node_modules/.bin"), process.env.PATH].join(delimiter),
      WRANGLER_SEND_METRICS: "false",
      FORCE_COLOR: process.env.FORCE_COLOR ?? "0",
    },
  });
  children.add(child);
  child.on("exit", () => children.delete(child));
  return child;
}

function stopAll(signal: NodeJS.Signals = "SIGTERM") {
  for (const child of children) {
    try {
      if (child.pid) process.kill(-child.pid, signal);
    } catch {
      // Already gone.
    }
  }
}

async function exited(child: ChildProcess): Promise<number> {
  if (child.exitCode !== null) return child.exitCode;
  return new Promise((done) => child.on("exit", (code) => done(code ?? 1)));
}

/**
 * Waits for wrangler dev itself (on its own port, so the edge logs no failed request while
 * workerd starts), then asks once through the edge at PORT.
 */
async function waitForHealthy(upstreamPort: number): Promise<boolean> {
  const deadline = Date.now() + readyTimeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`http://127.0.0.1:${upstreamPort}/healthz`)).ok) return (await fetch(`${url}/healthz`)).ok;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

/**
 * The supervisor runs computerd's bundle, which wrangler's [build] step also makes; build it
 * first when missing, because the first workspace may ask for a computer before that step.
 */
function ensureComputerdBundle() {
  if (existsSync(computerdBundle) || !existsSync(buildComputerd)) return;
  try {
    execFileSync(process.execPath, [buildComputerd], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
  } catch {
    console.error("cubicle: building computerd failed; the container executor will not start computers");
  }
}

/** Starts the supervisor and resolves with its URL once it printed its ready line. */
/**
 * Starts the container supervisor and answers its URL, or null when this machine cannot run
 * it (it needs root, /dev/fuse and unshare, as CI has): the platform then serves everything
 * but the container executor, which answers `executor_unavailable`, rather than not at all.
 */
async function startSupervisor(attempt = 1): Promise<string | null> {
  const missing = process.getuid?.() !== 0 ? "root" : !existsSync("/dev/fuse") ? "/dev/fuse" : null;
  if (missing) {
    console.error(`cubicle: the container executor needs ${missing}; serving without it`);
    return null;
  }
  const supervisor = run(["--port", "0"], {
    script: join(root, "container/supervisor/main.ts"),
    env: { COMPUTERD_SECRET: computerdSecret, CUBICLE_STATE_DIR: stateDir },
    quiet: true,
  });
  supervisor.stderr?.pipe(process.stderr);
  const lines = createInterface({ input: supervisor.stdout as NodeJS.ReadableStream });
  const timeout = AbortSignal.timeout(supervisorReadyTimeoutMs);
  // The first line, or the exit's [code, signal] when it dies first, or nothing in time.
  const [first, signal] = await Promise.race([
    once(lines, "line", { signal: timeout }),
    once(supervisor, "exit"),
  ]).catch(() => []);
  const ready =
    typeof first === "string" && first.startsWith("{") ? (JSON.parse(first) as { ready?: boolean; url?: string }) : {};
  if (!ready.ready || !ready.url) {
    // Say why, so a person knows whether to wait, look above for its error, or fix the host.
    const why =
      first === undefined
        ? `it did not say it was ready within ${supervisorReadyTimeoutMs / 1000} s`
        : typeof first === "string"
          ? `its first line was not its ready line: ${first.slice(0, 200)}`
          : `it exited (${first ?? signal}) before it was ready; its error is above`;
    console.error(`cubicle: the container supervisor did not start (${why}); serving without the container executor`);
    supervisor.kill("SIGKILL");
    return null;
  }
  // The supervisor asks the kernel for any free port, and now and then gets PORT itself when
  // PORT is free but in the ephemeral range (as a test's pick is): wrangler dev could then
  // not bind it. Ask again.
  if (new URL(ready.url).port === String(port) && attempt < supervisorStartsMax) {
    supervisor.kill("SIGKILL");
    await once(supervisor, "exit");
    return startSupervisor(attempt + 1);
  }
  lines.on("line", (more) => printSupervisorLine(more));
  supervisor.on("exit", (code) => {
    if (stopping) return;
    console.error(`cubicle: the container supervisor exited (${code ?? "signal"})`);
    stopAll();
    process.exit(code || 1);
  });
  return ready.url;
}

/** The box image's state as the supervisor last reported it (container/supervisor/image.ts). */
let imageState = "not started";

/** Prints the supervisor's image progress for a person; any other line as it came. */
function printSupervisorLine(line: string) {
  const status = parseImageLine(line);
  if (!status) return console.log(line);
  imageState = status.state;
  if (status.state === "building") {
    console.log(`cubicle: container image: ${status.phase} (${Math.round((status.elapsedMs ?? 0) / 1000)} s)`);
  } else if (status.state === "ready") {
    console.log(`cubicle: container image ready${status.built ? " (built)" : ""}: ${status.path}`);
  } else {
    const tail = status.logTail?.length ? `\n${status.logTail.join("\n")}` : "";
    console.error(`cubicle: building the container image failed: ${status.error}${tail}`);
    console.error("cubicle: the next container run starts the build again");
  }
}

function parseImageLine(line: string) {
  if (!line.startsWith('{"image":')) return null;
  try {
    return (JSON.parse(line) as { image: ImageLine }).image;
  } catch {
    return null;
  }
}

interface ImageLine {
  state: "building" | "ready" | "failed";
  phase?: string;
  elapsedMs?: number;
  path?: string;
  built?: boolean;
  error?: string;
  logTail?: string[];
}

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.on(signal, () => {
    // A second Ctrl-C means now; the supervisor's daemons die with it (docs/container-local.md).
    if (stopping) {
      stopAll("SIGKILL");
      process.exit(0);
    }
    stopping = true;
    stopAll();
    // Waits for every child, so the supervisor can stop its daemons cleanly, but not forever.
    setTimeout(() => {
      stopAll("SIGKILL");
      process.exit(0);
    }, stopGraceMs);
    void Promise.all([...children].map(exited)).then(() => process.exit(0));
  });
}
process.on("exit", () => stopAll("SIGKILL"));

// wrangler dev listens on a port of its own; PORT is the local edge's, which plays the part
// Cloudflare's edge plays in production (client address, header-only refusals; localEdge.ts).
// The edge listens first, so a PORT that is taken fails in a second with what to do, not
// after migrations and a wrangler start.
const devPort = await freeLoopbackPort();
await startLocalEdge({ host: "127.0.0.1", port, upstreamPort: devPort, secret: edgeSecret }).catch(
  (error: NodeJS.ErrnoException) => {
    const advice =
      error.code === "EADDRINUSE"
        ? `port ${port} is taken (another \`npm start\`?); stop it, or start on another port: PORT=${port + 1} npm start`
        : error.message;
    console.error(`cubicle: cannot listen on ${url}: ${advice}`);
    process.exit(1);
  },
);

const migrate = run(["d1", "migrations", "apply", "DB", "--local", "--persist-to", stateDir], { quiet: true });
let migrateLog = "";
migrate.stdout?.on("data", (d) => (migrateLog += d));
migrate.stderr?.on("data", (d) => (migrateLog += d));
if ((await exited(migrate)) !== 0) {
  console.error(migrateLog);
  console.error("cubicle: applying D1 migrations failed");
  process.exit(1);
}

ensureComputerdBundle();
const supervisorUrl = await startSupervisor();

const dev = run([
  "dev",
  "--ip",
  "127.0.0.1",
  "--port",
  String(devPort),
  // The devtools inspector on a port the kernel picks: wrangler's default (9229, or another
  // if it is taken) is chosen before it is bound, so two platforms starting at once (CI's
  // two pjdfstest runs) could both take 9229, and one failed with "Address already in use".
  "--inspector-port",
  "0",
  "--persist-to",
  stateDir,
  "--show-interactive-dev-session=false",
  ...localDevFlags,
  "--var",
  `LOCAL_EDGE_SECRET:${edgeSecret}`,
  // Plain vars for this run only (wrangler splits KEY:VALUE at the first colon). They reach
  // the Worker's env, where the local ContainerHost finds the supervisor and signs tokens.
  ...(supervisorUrl
    ? ["--var", `COMPUTERD_SUPERVISOR_URL:${supervisorUrl}`, "--var", `COMPUTERD_SECRET:${computerdSecret}`]
    : []),
]);
dev.on("exit", (code) => {
  if (stopping) return;
  console.error(`cubicle: wrangler dev exited (${code ?? "signal"})`);
  stopAll();
  process.exit(code ?? 1);
});

if (!(await waitForHealthy(devPort))) {
  console.error(`cubicle: ${url}/healthz did not answer within ${readyTimeoutMs / 1000} s`);
  stopAll("SIGKILL");
  process.exit(1);
}
console.log(`
Cubicle is running at ${url}  (state in ${stateDir})
  Computers:     ${supervisorUrl ? `${supervisorUrl}  (container image: ${imageState})` : "none (the container executor is unavailable)"}
  API reference: ${url}/docs
  Dashboard:     ${url}/dashboard  (sign in with an API key)
  Sign up:       curl -s -X POST ${url}/v1/signup -H 'content-type: application/json' -d "{\\"email\\":\\"you+$(date +%s)@example.com\\"}"
                 (an email signs up once; README.md's walk-through goes on from here)
Press Ctrl-C to stop.
`);
