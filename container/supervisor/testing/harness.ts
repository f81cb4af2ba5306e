/**
 * A supervisor on a free loopback port with its own state root, for tests. The daemon is
 * the real computerd, run from its source (container/src/main.ts) so the tests always meet
 * the current code and need no build step; tests of the supervisor's policy (busy,
 * capacity) use the stand-in, because only it can be made busy without a workspace object
 * driving a command. CUBICLE_TEST_COMPUTERD picks another daemon for every test:
 * `bundle` (.build/computerd/computerd.mjs, what `npm start` runs) or `standin`.
 */
import { randomBytes } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createSupervisorServer } from "../http.ts";
import { readyImage } from "../image.ts";
import { stateDirFor } from "../names.ts";
import type { ComputerInfo, SupervisorOptions } from "../supervisor.ts";
import { Supervisor } from "../supervisor.ts";

const root = join(dirname(fileURLToPath(import.meta.url)), "../../..");
const scripts = {
  computerd: join(root, "container/src/main.ts"),
  bundle: join(root, ".build/computerd/computerd.mjs"),
  standin: join(root, "container/supervisor/testing/standin-computerd.ts"),
};
export const standinScript = scripts.standin;

export type DaemonKind = keyof typeof scripts;

export function defaultDaemon(): DaemonKind {
  const chosen = process.env.CUBICLE_TEST_COMPUTERD;
  if (chosen === "bundle" || chosen === "standin" || chosen === "computerd") return chosen;
  return existsSync(scripts.computerd) ? "computerd" : "standin";
}

export interface TestSupervisor {
  supervisor: Supervisor;
  url: string;
  secret: string;
  stateRoot: string;
  daemon: DaemonKind;
  logs: string[];
  call(method: string, path: string, options?: { secret?: string | null }): Promise<Response>;
  ensure(name: string): Promise<ComputerInfo>;
  list(): Promise<(ComputerInfo & { restarts: number })[]>;
  /** waitFor, with the supervisor's log in the error when it times out. */
  waitFor<T>(probe: () => T | Promise<T>, what: string): Promise<NonNullable<T>>;
  close(): Promise<void>;
}

export async function startTestSupervisor(
  options: Partial<SupervisorOptions> & { daemon?: DaemonKind } = {},
): Promise<TestSupervisor> {
  const { daemon = defaultDaemon(), ...overrides } = options;
  const secret = randomBytes(16).toString("hex");
  const stateRoot = mkdtempSync(join(tmpdir(), "cubicle-supervisor-"));
  const logs: string[] = [];
  // The box image the test run's global setup made (container/image/testGlobalSetup.ts).
  const rootfs = process.env.COMPUTERD_ROOTFS;
  const supervisor = new Supervisor({
    command: [process.execPath, scripts[daemon]],
    secret,
    stateRoot,
    log: (line) => logs.push(line),
    ...(rootfs ? { image: readyImage(rootfs) } : {}),
    ...overrides,
  });
  const server = createSupervisorServer(supervisor, secret);
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const call: TestSupervisor["call"] = (method, path, { secret: bearer = secret } = {}) =>
    fetch(`${url}${path}`, { method, headers: bearer === null ? {} : { authorization: `Bearer ${bearer}` } });
  const ensure = async (name: string) => {
    const response = await call("POST", `/computers/${encodeURIComponent(name)}`);
    if (response.status !== 200) throw new Error(`POST ${name}: ${response.status} ${await response.text()}`);
    return (await response.json()) as ComputerInfo;
  };
  const list = async () =>
    ((await (await call("GET", "/computers")).json()) as { computers: ComputerInfo[] }).computers;
  const close = async () => {
    server.close();
    await supervisor.close();
    rmSync(stateRoot, { recursive: true, force: true });
  };
  const waitForLogged: TestSupervisor["waitFor"] = (probe, what) =>
    waitFor(probe, what).catch((error: Error) => {
      throw new Error(`${error.message}; the supervisor logged:\n${logs.join("\n")}`);
    });
  return { supervisor, url, secret, stateRoot, daemon, logs, call, ensure, list, close, waitFor: waitForLogged };
}

export function computerName(): string {
  return `ten_test:ws_${randomBytes(8).toString("hex")}`;
}

/** Whether the process runs; a zombie (dead, waiting for a slow parent to reap it) does not. */
export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

/** Mount points listed in a mounts file (`/proc/<pid>/mounts`, `/proc/self/mounts`). */
export function mountPoints(file: string): string[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .map((line) => line.split(" ")[1] ?? "")
    .filter(Boolean);
}

/** Host pids of every process in the given pid namespace (as `readlink /proc/<pid>/ns/pid` names it). */
export function pidsInNamespace(ns: string): number[] {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        return readlinkSync(`/proc/${entry}/ns/pid`) === ns;
      } catch {
        return false;
      }
    })
    .map(Number);
}

export async function waitFor<T>(
  probe: () => T | Promise<T>,
  what: string,
  timeoutMs = 15_000,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Makes the stand-in daemon for `name` report a running command (it reads `busy` in its state dir). */
export function markBusy(t: TestSupervisor, name: string): void {
  const dir = stateDirFor(t.stateRoot, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(`${dir}/busy`, "");
}
