/**
 * Starts a benchmark-only Worker under `wrangler dev` with its own state directory: a
 * config (and optionally another entry than the config's `main`), with the D1 migrations
 * applied first when asked. `stop()` ends the whole process group and removes the state.
 */
import { type ChildProcess, spawn } from "node:child_process";
import * as fs from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "../e2e/platform.ts";
import { localDevEnv, localDevFlags } from "../scripts/localDev.ts";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const wrangler = join(dirname(createRequire(import.meta.url).resolve("wrangler/package.json")), "bin/wrangler.js");
const readyMs = 90_000;

export interface DevWorker {
  url: string;
  stop: () => Promise<void>;
}

function wranglerProcess(args: string[]): ChildProcess {
  return spawn(process.execPath, [wrangler, ...args], {
    cwd: root,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      ...localDevEnv(),
      PATH: [dirname(process.execPath), join(root, "node_modules/.bin"), process.env.PATH].join(delimiter),
      WRANGLER_SEND_METRICS: "false",
      FORCE_COLOR: "0",
    },
  });
}

export async function startDevWorker(options: {
  config: string;
  entry?: string;
  migrate?: boolean;
}): Promise<DevWorker> {
  const port = await freePort();
  const persist = fs.mkdtempSync(join(tmpdir(), "cubicle-bench-"));
  const config = join(root, options.config);
  if (options.migrate) {
    const migrate = wranglerProcess([
      "d1",
      "migrations",
      "apply",
      "DB",
      "--local",
      "--config",
      config,
      "--persist-to",
      persist,
    ]);
    const code = await new Promise<number | null>((resolve) => migrate.on("exit", resolve));
    if (code !== 0) throw new Error("applying D1 migrations for the bench worker failed");
  }
  const child = wranglerProcess([
    "dev",
    ...(options.entry ? [join(root, options.entry)] : []),
    "--config",
    config,
    "--ip",
    "127.0.0.1",
    "--port",
    String(port),
    "--persist-to",
    persist,
    "--show-interactive-dev-session=false",
    ...localDevFlags,
  ]);
  let output = "";
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  if (process.env.CUBICLE_BENCH_WORKER_LOG) {
    const log = fs.createWriteStream(process.env.CUBICLE_BENCH_WORKER_LOG);
    child.stdout?.pipe(log);
    child.stderr?.pipe(log);
  }
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  const signal = (name: NodeJS.Signals) => {
    try {
      if (child.pid) process.kill(-child.pid, name);
    } catch {
      // Already gone.
    }
  };
  const stop = async () => {
    signal("SIGTERM");
    const killer = setTimeout(() => signal("SIGKILL"), 5_000);
    await exited;
    clearTimeout(killer);
    fs.rmSync(persist, { recursive: true, force: true });
  };
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + readyMs;
  while (Date.now() < deadline && child.exitCode === null) {
    if (
      await fetch(`${url}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { url, stop };
    await new Promise((r) => setTimeout(r, 200));
  }
  await stop();
  throw new Error(`the bench worker did not start:\n${output}`);
}
