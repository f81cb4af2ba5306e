/**
 * The SDKs as a user gets them: packed (`npm run pack:sdk`, as the README says), installed
 * outside the repository, and running the README's own examples against the platform.
 * - The README's install commands: the tarball into a fresh npm project, the wheel into a
 *   fresh virtualenv.
 * - The TypeScript example as plain JavaScript under the machine's Node 20 and under Node 24,
 *   type-checked as TypeScript with `nodenext` and with `bundler` resolution, bundled for a
 *   browser, and run in a Worker (workerd, through Miniflare).
 * - The Python example in the virtualenv, with a key and signing up by itself.
 * - The curl walk-through, twice in a row against the same state, with every request
 *   required to succeed.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { build } from "esbuild";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientAddress, signUp } from "./platform.ts";
import { readmeBlock } from "./readme.ts";
import { sharedPlatform } from "./sharedPlatform.ts";

const root = join(import.meta.dirname, "..");
const platform = sharedPlatform();
const scratch = mkdtempSync(join(tmpdir(), "cubicle-packages-"));
const project = join(scratch, "project");
const venv = join(scratch, "venv");
const node24 = join(root, "node_modules/.bin/node");
let apiKey: string;

/** The README's install block, one command a line, with the checkout's path filled in. */
function installCommands(): string[] {
  return readmeBlock("The SDKs", "sh")
    .split("\n")
    .map((line) => line.replace(/\s+#.*$/, "").trim())
    .filter((line) => line && !line.startsWith("#"))
    .map((line) => line.replaceAll("/path/to/cubicle", root));
}

function sh(command: string, cwd: string, env: NodeJS.ProcessEnv = {}) {
  const run = spawnSync("bash", ["-c", command], { cwd, env: { ...process.env, ...env }, encoding: "utf8" });
  if (run.status !== 0) throw new Error(`${command} (exit ${run.status})\n${run.stdout}\n${run.stderr}`);
  return run;
}

/** The machine's own Node 20 (`which -a node`, then the usual places): what a user's `node` often is. */
function node20(): string {
  const found = spawnSync("bash", ["-c", "which -a node"], { encoding: "utf8" }).stdout.split("\n");
  for (const candidate of [...found, "/usr/bin/node", "/usr/local/bin/node"].filter(Boolean)) {
    const version = spawnSync(candidate, ["--version"], { encoding: "utf8" }).stdout ?? "";
    if (version.startsWith("v20.")) return candidate;
  }
  throw new Error("no Node 20 on this machine (which -a node, /usr/bin/node, /usr/local/bin/node)");
}

beforeAll(async () => {
  const [pack, npmInstall, pipInstall] = installCommands();
  expect(pack).toMatch(/^npm run pack:sdk$/);
  expect(npmInstall).toMatch(/^npm install \S+\.tgz$/);
  expect(pipInstall).toMatch(/^pip install \S+\.whl$/);
  sh(pack as string, root);
  mkdirSync(project);
  writeFileSync(
    join(project, "package.json"),
    JSON.stringify({ name: "readme-example", private: true, type: "module" }),
  );
  sh(`${npmInstall} --no-audit --no-fund`, project);
  execFileSync("python3", ["-m", "venv", venv]);
  sh(pipInstall as string, scratch, { PATH: `${join(venv, "bin")}${delimiter}${process.env.PATH}` });
  ({ key: apiKey } = await signUp(platform.url, `packages-${Date.now()}@example.com`));
}, 300_000);

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

describe("the packed SDKs, installed outside the repository", () => {
  it("leave no build output in the repository", () => {
    const status = execFileSync("git", ["status", "--porcelain", "--ignored", "sdk-gen"], {
      cwd: root,
      encoding: "utf8",
    });
    const litter = status.split("\n").filter((line) => /build\/|egg-info/.test(line) && !line.includes("/dist/"));
    expect(litter).toEqual([]);
    const installed = join(project, "node_modules/@cubicle/sdk");
    expect(readdirSync(installed).sort()).toEqual(["README.md", "dist", "package.json"]);
  });

  it("run the README's TypeScript example as JavaScript under Node 20 and Node 24", () => {
    writeFileSync(join(project, "main.mjs"), readmeBlock("The SDKs", "ts"));
    for (const node of [node20(), node24]) {
      const run = spawnSync(node, ["main.mjs"], {
        cwd: project,
        env: { ...process.env, CUBICLE_API_KEY: apiKey, CUBICLE_BASE_URL: platform.url },
        encoding: "utf8",
        timeout: 120_000,
      });
      expect(run.stderr, node).toBe("");
      expect(run.status, node).toBe(0);
      expect(run.stdout).toContain("# Plan\n");
      expect(run.stdout).toContain("1 notes/plan.md\n");
      expect(run.stdout).toMatch(/^pandoc \d/m);
      expect(run.stdout).toMatch(/meters used today/);
    }
  }, 300_000);

  it("type-check the README's example with nodenext and with bundler resolution", () => {
    writeFileSync(join(project, "main.ts"), readmeBlock("The SDKs", "ts"));
    const tsc = join(root, "node_modules/typescript/bin/tsc");
    for (const resolution of [
      { module: "nodenext", moduleResolution: "nodenext" },
      { module: "preserve", moduleResolution: "bundler" },
    ]) {
      const config = {
        compilerOptions: {
          ...resolution,
          target: "es2022",
          lib: ["es2022"],
          strict: true,
          noEmit: true,
          // The package's own declarations are checked too, not taken on trust.
          skipLibCheck: false,
          types: ["node"],
          typeRoots: [join(root, "node_modules/@types")],
        },
        files: ["main.ts"],
      };
      writeFileSync(join(project, "tsconfig.json"), JSON.stringify(config));
      const run = spawnSync(node24, [tsc, "-p", "tsconfig.json"], { cwd: project, encoding: "utf8" });
      expect(run.stdout + run.stderr, resolution.moduleResolution).toBe("");
      expect(run.status).toBe(0);
    }
  }, 300_000);

  it("bundle for a browser with nothing from Node, and run in a Worker", async () => {
    writeFileSync(
      join(project, "worker.js"),
      `import { Cubicle } from "@cubicle/sdk";
export default {
  async fetch(request, env) {
    const cubicle = new Cubicle({ baseUrl: env.CUBICLE_BASE_URL, apiKey: env.CUBICLE_API_KEY });
    const ws = await cubicle.workspaces.create({ name: "from-a-worker" });
    const run = await ws.exec({ executor: "shell", command: "echo hello from a worker" });
    return new Response(run.stdout);
  },
};
`,
    );
    const bundled = await build({
      entryPoints: [join(project, "worker.js")],
      absWorkingDir: project,
      bundle: true,
      write: false,
      format: "esm",
      platform: "browser",
      target: "es2022",
      logLevel: "silent",
    });
    expect(bundled.warnings).toEqual([]);
    const script = bundled.outputFiles[0]?.text ?? "";
    expect(script).not.toMatch(/from\s*["']node:|require\(["']/);
    const worker = new Miniflare(
      convertV4MiniflareOptions({
        modules: true,
        script,
        compatibilityDate: "2026-11-01",
        bindings: { CUBICLE_BASE_URL: platform.url, CUBICLE_API_KEY: apiKey },
      }),
    );
    try {
      const answer = await worker.dispatchFetch("http://worker.test/");
      expect(await answer.text()).toBe("hello from a worker\n");
    } finally {
      await worker.dispose();
    }
  });

  it("run the README's Python example from the wheel, with a key and signing up by itself", () => {
    writeFileSync(join(scratch, "example.py"), readmeBlock("The SDKs", "python"));
    for (const key of [apiKey, undefined]) {
      const env: NodeJS.ProcessEnv = { ...process.env, CUBICLE_BASE_URL: platform.url, PYTHONPATH: "" };
      if (key) env.CUBICLE_API_KEY = key;
      else delete env.CUBICLE_API_KEY;
      // Outside the repository, so `import cubicle` can only be the installed wheel.
      const run = spawnSync(join(venv, "bin/python"), ["example.py"], { cwd: scratch, env, encoding: "utf8" });
      expect(run.stderr).toBe("");
      expect(run.status).toBe(0);
      expect(run.stdout).toContain("# Plan\n");
      expect(run.stdout).toContain("1 notes/plan.md\n");
      expect(run.stdout).toMatch(/^stdout Python 3\.\d+/m);
    }
  }, 300_000);
});

describe("the README's curl walk-through", () => {
  it("runs twice in a row against the same state with every request succeeding", () => {
    // curl that fails on any HTTP error (the README's `-s` alone would print it and go on),
    // from an address of its own, so the signup limit is not shared with other test files.
    const bin = join(scratch, "bin");
    mkdirSync(bin, { recursive: true });
    const curl = execFileSync("bash", ["-c", "command -v curl"], { encoding: "utf8" }).trim();
    writeFileSync(join(bin, "curl"), `#!/bin/sh\nexec ${curl} --fail-with-body --interface ${clientAddress()} "$@"\n`);
    chmodSync(join(bin, "curl"), 0o755);
    const walkThrough = readmeBlock("Walk-through with curl", "sh").replace(
      /^URL=http:\/\/127\.0\.0\.1:8787.*$/m,
      `URL=${platform.url}`,
    );
    expect(walkThrough).toContain(`URL=${platform.url}`);
    for (const round of [1, 2]) {
      const run = spawnSync("bash", ["-euo", "pipefail", "-c", walkThrough], {
        cwd: root,
        env: { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH}` },
        encoding: "utf8",
        timeout: 240_000,
      });
      expect(run.stderr, `round ${round}`).toBe("");
      expect(run.status, `round ${round}\n${run.stdout}`).toBe(0);
      expect(run.stdout).not.toMatch(/"status":"(failed|timed_out|cancelled)"/);
      // Step 6 shows the run's id, and the reconnect with it replays the rest up to exit.
      const execId = /^x-exec-id: (ex_\w+)/im.exec(run.stdout)?.[1];
      expect(execId).toBeDefined();
      expect(run.stdout).toContain(`event: exec\ndata: {"id":"${execId}"`);
      expect(run.stdout.match(/^event: exit$/gm)).toHaveLength(2);
      expect(run.stdout).toMatch(/Python 3\.\d+/);
    }
  }, 600_000);
});
