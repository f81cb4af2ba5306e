/**
 * `npm start`: serves the whole platform locally. It applies D1 migrations, starts
 * `wrangler dev` (workerd with local D1, Durable Objects and the Worker Loader) on
 * 127.0.0.1, waits until it answers, and prints how to sign up. Ctrl-C (or SIGTERM) stops
 * every child it started, each in its own process group so grandchildren go too.
 *
 * Environment: PORT (default 8787), CUBICLE_STATE_DIR (default .wrangler/state).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { delimiter, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const wrangler = join(dirname(createRequire(import.meta.url).resolve("wrangler/package.json")), "bin/wrangler.js");
const port = Number(process.env.PORT ?? 8787);
const stateDir = resolve(root, process.env.CUBICLE_STATE_DIR ?? ".wrangler/state");
const url = `http://127.0.0.1:${port}`;
const readyTimeoutMs = 60_000;

const children = new Set<ChildProcess>();

function run(args: string[], options: { quiet?: boolean } = {}): ChildProcess {
  const child = spawn(process.execPath, [wrangler, ...args], {
    cwd: root,
    detached: true,
    stdio: options.quiet ? ["ignore", "pipe", "pipe"] : ["ignore", "inherit", "inherit"],
    env: {
      ...process.env,
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

async function waitForHealthy(): Promise<boolean> {
  const deadline = Date.now() + readyTimeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) return true;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.on(signal, () => {
    stopAll();
    setTimeout(() => {
      stopAll("SIGKILL");
      process.exit(0);
    }, 3_000).unref();
  });
}
process.on("exit", () => stopAll("SIGKILL"));

const migrate = run(["d1", "migrations", "apply", "DB", "--local", "--persist-to", stateDir], { quiet: true });
let migrateLog = "";
migrate.stdout?.on("data", (d) => (migrateLog += d));
migrate.stderr?.on("data", (d) => (migrateLog += d));
if ((await exited(migrate)) !== 0) {
  console.error(migrateLog);
  console.error("cubicle: applying D1 migrations failed");
  process.exit(1);
}

const dev = run([
  "dev",
  "--ip",
  "127.0.0.1",
  "--port",
  String(port),
  "--persist-to",
  stateDir,
  "--show-interactive-dev-session=false",
]);
dev.on("exit", (code) => {
  console.error(`cubicle: wrangler dev exited (${code ?? "signal"})`);
  stopAll();
  process.exit(code ?? 1);
});

if (!(await waitForHealthy())) {
  console.error(`cubicle: ${url}/healthz did not answer within ${readyTimeoutMs / 1000} s`);
  stopAll("SIGKILL");
  process.exit(1);
}
console.log(`
Cubicle is running at ${url}  (state in ${stateDir})
  API reference: ${url}/docs
  Sign up:       curl -s -X POST ${url}/v1/signup -H 'content-type: application/json' -d '{"email":"you@example.com"}'
Press Ctrl-C to stop.
`);
