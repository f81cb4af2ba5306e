/**
 * A stand-in for computerd that honours the same process contract and nothing else, so the
 * supervisor can be tested without FUSE or a workspace object:
 * - reads COMPUTERD_* (container/wire), creates the state dir and appends to `starts` in it
 *   (so a test can see a restart resumed from the same dir);
 * - mounts a tmpfs over COMPUTERD_MOUNT, inside its own mount namespace, with a `.computer`
 *   file naming the workspace, so "the mount is gone" is testable like the real FUSE mount;
 * - serves `GET /healthz` (ComputerdHealth): idle since it started, and busy (running 1)
 *   while `<stateDir>/busy` exists, which is how a test makes a computer not idle;
 * - prints the ComputerdReady line, and on SIGTERM unmounts and exits 0;
 * - exits 1 at once while `<stateDir>/fail-start` exists, for tests of failed restarts.
 */
import { execFileSync } from "node:child_process";
import { appendFileSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import type { ComputerdHealth, ComputerdReady } from "../../wire/index.ts";

const workspace = required("COMPUTERD_WORKSPACE");
required("COMPUTERD_SECRET");
const stateDir = required("COMPUTERD_STATE_DIR");
const mount = process.env.COMPUTERD_MOUNT ?? "/workspace";
const startedAtMs = Date.now();

mkdirSync(stateDir, { recursive: true });
if (existsSync(join(stateDir, "fail-start"))) {
  console.error("standin-computerd: fail-start is set");
  process.exit(1);
}
appendFileSync(join(stateDir, "starts"), `${process.pid}\n`);
mkdirSync(mount, { recursive: true });
execFileSync("mount", ["-t", "tmpfs", "-o", "size=1m", "cubicle-standin", mount]);
writeFileSync(join(mount, ".computer"), workspace);

const server = createServer((request, response) => {
  if (request.method !== "GET" || request.url !== "/healthz") return response.writeHead(404).end();
  const busy = existsSync(join(stateDir, "busy"));
  const health: ComputerdHealth = {
    ok: true,
    idleMs: busy ? 0 : Date.now() - startedAtMs,
    running: busy ? 1 : 0,
    session: false,
    mount: null,
  };
  response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(health));
});
server.listen(Number(process.env.COMPUTERD_PORT ?? 8080), process.env.COMPUTERD_HOST ?? "127.0.0.1", () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  const ready: ComputerdReady = { ready: true, port, mount, pid: process.pid };
  console.log(JSON.stringify(ready));
});

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, () => {
    server.close();
    execFileSync("umount", [mount]);
    process.exit(0);
  });
}

function required(key: string): string {
  const value = process.env[key];
  if (!value) {
    console.error(`standin-computerd: set ${key}`);
    process.exit(2);
  }
  return value;
}
