/**
 * The `cubicle` CLI as a user gets it: packed (`npm run pack:cli`, as the README says),
 * installed with `npm install -g` into a prefix outside the repository, and run from a
 * folder outside it against the platform, with a HOME of its own. Its exit codes, a copy
 * of a tree both ways, the saved login and its precedence, and the README's CLI section.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer, request as httpRequest, type IncomingMessage, type Server } from "node:http";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUp } from "./platform.ts";
import { readmeBlock } from "./readme.ts";
import { sharedPlatform } from "./sharedPlatform.ts";

const root = join(import.meta.dirname, "..");
const platform = sharedPlatform();
const scratch = mkdtempSync(join(tmpdir(), "cubicle-cli-"));
const prefix = join(scratch, "prefix");
const home = join(scratch, "home");
const work = join(scratch, "work");
const node24Dir = join(root, "node_modules/.bin");
let apiKey: string;

function env(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = { ...process.env, HOME: home, CUBICLE_BASE_URL: platform.url };
  delete base.CUBICLE_API_KEY;
  delete base.XDG_CONFIG_HOME;
  // The installed `cubicle` first, and Node 24 as the `node` its shebang finds.
  base.PATH = [join(prefix, "bin"), node24Dir, process.env.PATH].join(delimiter);
  return { ...base, ...extra };
}

function cubicle(args: string[], extra: NodeJS.ProcessEnv = {}, input?: string) {
  return spawnSync(join(prefix, "bin/cubicle"), args, {
    cwd: work,
    env: env(extra),
    encoding: "utf8",
    input,
    timeout: 120_000,
  });
}

function ok(args: string[], extra: NodeJS.ProcessEnv = {}, input?: string): string {
  const run = cubicle(args, extra, input);
  if (run.status !== 0) throw new Error(`cubicle ${args.join(" ")}: exit ${run.status}\n${run.stdout}\n${run.stderr}`);
  return run.stdout;
}

function sh(command: string, cwd: string, extra: NodeJS.ProcessEnv = {}) {
  const run = spawnSync("bash", ["-euo", "pipefail", "-c", command], {
    cwd,
    env: env(extra),
    encoding: "utf8",
    timeout: 300_000,
  });
  if (run.status !== 0) throw new Error(`${command} (exit ${run.status})\n${run.stdout}\n${run.stderr}`);
  return run;
}

/** Every file under `dir`, by relative path, with its bytes as base64. */
function tree(dir: string): Record<string, string> {
  const run = spawnSync("find", [".", "-type", "f"], { cwd: dir, encoding: "utf8" });
  const files = run.stdout.split("\n").filter(Boolean).sort();
  return Object.fromEntries(files.map((f) => [f, readFileSync(join(dir, f)).toString("base64")]));
}

/**
 * A proxy to the platform that cuts the first exec output stream right after its first
 * stdout event, as a dropped connection would, and records each output request's
 * `Last-Event-ID`.
 */
async function droppingProxy(): Promise<{ proxy: Server; url: string; outputRequests: (string | null)[] }> {
  const outputRequests: (string | null)[] = [];
  const proxy = createServer((req, res) => {
    const target = new URL(req.url ?? "/", platform.url);
    const isOutput = /\/execs\/[^/]+\/output$/.test(target.pathname);
    if (isOutput) outputRequests.push((req.headers["last-event-id"] as string | undefined) ?? null);
    const cut = isOutput && outputRequests.length === 1;
    const upstream = httpRequest(
      target.toString(),
      { method: req.method, headers: { ...req.headers, host: target.host } },
      (answer: IncomingMessage) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        if (!cut) return void answer.pipe(res);
        answer.on("data", (chunk: Buffer) => {
          if (!chunk.toString().includes("event: stdout")) return void res.write(chunk);
          // Once the event has left this process, the connection drops.
          res.write(chunk, () => {
            res.socket?.destroy();
            answer.destroy();
          });
        });
      },
    );
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  const address = proxy.address() as { port: number };
  return { proxy, url: `http://127.0.0.1:${address.port}`, outputRequests };
}

/** A run that leaves this process's event loop free (the proxy above lives in it). */
function spawnAsync(command: string, args: string[], extra: NodeJS.ProcessEnv) {
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(command, args, { cwd: work, env: env(extra) });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

beforeAll(async () => {
  mkdirSync(home);
  mkdirSync(work);
  const [pack, install] = readmeBlock("The CLI", "sh")
    .split("\n")
    .map((line) => line.replace(/\s+#.*$/, "").trim())
    .filter(Boolean);
  expect(pack).toBe("npm run pack:cli");
  expect(install).toMatch(/^npm install -g \S+\.tgz$/);
  sh(pack as string, root);
  // `-g` into a prefix of the test's own, as a user's global folder.
  sh(`${(install as string).replaceAll("/path/to/cubicle", root)} --no-audit --no-fund`, scratch, {
    npm_config_prefix: prefix,
  });
  ({ key: apiKey } = await signUp(platform.url, `cli-${Date.now()}@example.com`));
}, 300_000);

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

describe("the packed cubicle CLI, installed with npm install -g", () => {
  it("logs in with the key saved 0600, and lets CUBICLE_API_KEY win over it", () => {
    expect(cubicle(["ws", "ls"]).stderr).toMatch(/not logged in/);
    expect(ok(["login"], {}, `${apiKey}\n`)).toMatch(/^Logged in as cli-/);
    const config = join(home, ".config/cubicle/config.json");
    expect(statSync(config).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(config, "utf8"))).toEqual({ apiKey, baseUrl: platform.url });
    const refused = cubicle(["ws", "ls"], { CUBICLE_API_KEY: "cub_0000000000000000000000000000000000000000" });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/^cubicle: 401 unauthorized: the API key/);
  });

  it("exits with the command's exit code, streaming stdout and stderr, under Node 24 and Node 20", () => {
    const workspaceId = ok(["ws", "create", "--name", "cli-exit"], { CUBICLE_API_KEY: apiKey }).trim();
    expect(workspaceId).toMatch(/^ws_/);
    const node20 = spawnSync("bash", ["-c", "command -v /usr/bin/node"], { encoding: "utf8" }).stdout.trim();
    for (const node of [join(node24Dir, "node"), node20].filter(Boolean)) {
      const run = spawnSync(
        node,
        [join(prefix, "bin/cubicle"), "exec", workspaceId, "--", "echo out; echo err >&2; exit 42"],
        {
          cwd: work,
          env: env({ CUBICLE_API_KEY: apiKey }),
          encoding: "utf8",
        },
      );
      expect([run.status, run.stdout, run.stderr], node).toEqual([42, "out\n", "err\n"]);
    }
    const json = JSON.parse(ok(["--json", "ws", "info", workspaceId], { CUBICLE_API_KEY: apiKey }));
    expect(json).toMatchObject({ id: workspaceId, name: "cli-exit" });
  });

  it("copies a tree into a workspace and back, byte for byte", () => {
    const workspaceId = ok(["ws", "create"], { CUBICLE_API_KEY: apiKey }).trim();
    const source = join(work, "tree");
    mkdirSync(join(source, "a/b/c"), { recursive: true });
    writeFileSync(join(source, "top.txt"), "top\n");
    writeFileSync(join(source, "a/b/c/deep.txt"), "deep\n");
    writeFileSync(join(source, "a/bytes.bin"), Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 7) % 256)));
    writeFileSync(join(source, "a/name with spaces.md"), "# spaced\n");
    const up = JSON.parse(ok(["--json", "cp", "tree", `ws:${workspaceId}:/copied`], { CUBICLE_API_KEY: apiKey }));
    expect(up).toMatchObject({ files: 4, skipped: [] });
    const listed = ok(["exec", workspaceId, "--", "find copied -type f | sort"], { CUBICLE_API_KEY: apiKey });
    expect(listed).toBe("copied/a/b/c/deep.txt\ncopied/a/bytes.bin\ncopied/a/name with spaces.md\ncopied/top.txt\n");
    ok(["cp", `ws:${workspaceId}:/copied`, "back"], { CUBICLE_API_KEY: apiKey });
    expect(tree(join(work, "back"))).toEqual(tree(source));
  });

  it("resumes the output after a dropped connection, each line once, and keeps the exit code", async () => {
    const workspaceId = ok(["ws", "create"], { CUBICLE_API_KEY: apiKey }).trim();
    const { proxy, url, outputRequests } = await droppingProxy();
    try {
      const script = "echo line 1; sleep 1; for i in 2 3 4; do echo line $i; sleep 0.2; done; exit 3";
      const run = await spawnAsync(join(prefix, "bin/cubicle"), ["exec", workspaceId, "--", script], {
        CUBICLE_API_KEY: apiKey,
        CUBICLE_BASE_URL: url,
      });
      expect(run).toMatchObject({ status: 3, stdout: "line 1\nline 2\nline 3\nline 4\n", stderr: "" });
      // The first stream was cut after line 1; the CLI came back for the rest with the last id it had.
      expect(outputRequests.length).toBeGreaterThanOrEqual(2);
      expect(outputRequests[0]).toBeNull();
      expect(outputRequests[1]).toMatch(/^\d+$/);
    } finally {
      proxy.close();
    }
  });

  it("has --help with an example on every command", () => {
    const commands = [[], ["signup"], ["login"], ["ws"], ["ws", "create"], ["ws", "ls"], ["ws", "info"], ["ws", "rm"]];
    commands.push(["exec"], ["shell"], ["cp"], ["share"], ["usage"]);
    commands.push(["snapshot"], ["snapshot", "create"], ["snapshot", "ls"], ["snapshot", "info"], ["snapshot", "rm"]);
    commands.push(["restore"], ["diff"], ["history"], ["cat"]);
    for (const command of commands)
      expect(ok([...command, "--help"]), command.join(" ")).toMatch(/Examples:\n {2}\$ .*cubicle /);
  });

  it("runs the README's CLI section from a folder outside the repository", () => {
    const walkThrough = readmeBlock("The CLI", "sh", 1);
    const folder = join(scratch, "readme");
    mkdirSync(folder);
    const run = sh(walkThrough, folder, { HOME: join(scratch, "readme-home") });
    expect(run.stdout).toContain("hello from python\n");
    expect(run.stdout).toContain("exited with 3\n");
    expect(run.stdout).toContain("hi from /workspace/demo/src\n");
    expect(run.stdout).toContain("same tree\n");
    // The time machine: the edit as a patch, then the file as the snapshot had it.
    expect(run.stdout).toContain('-print("hello from python")\n+print("edited")\n');
    expect(run.stdout).toMatch(/^restored snap_\w+: 1 path set back, now revision \d+\nundo with: /m);
    expect(run.stdout).toMatch(/\/s\/\S+\n/);
    expect(run.stdout).toMatch(/^api_requests\s+\d+/m);
  }, 300_000);
});
