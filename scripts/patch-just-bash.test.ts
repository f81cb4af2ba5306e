/**
 * The just-bash patches: `npm install` left the bundle patched (exactly the patches of
 * executors/shell/patches, applied to the pristine 3.4.2 bundle), and each patch's scripts
 * give bash's stdout, stderr and exit status under the patched bundle.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { justBashPatches } from "../executors/shell/patches/index.ts";
// @ts-expect-error: the browser bundle has no declarations of its own; the API is just-bash's.
import { Bash } from "../node_modules/just-bash/dist/bundle/browser.js";
import { bundlePath, patchedBundle, pristineBundle } from "./patch-just-bash.ts";

function realBash(script: string) {
  // In a directory of its own: some scripts write files.
  const cwd = mkdtempSync(join(tmpdir(), "patch-just-bash-"));
  const run = spawnSync("/bin/bash", ["-c", script], {
    argv0: "bash",
    cwd,
    // HOME without a .bashrc: Debian's bash reads it when stdin is a socket, as Node's is.
    env: { PATH: process.env.PATH, HOME: tmpdir(), LANG: "C.UTF-8" },
    encoding: "utf8",
  });
  rmSync(cwd, { recursive: true, force: true });
  return { stdout: run.stdout, stderr: run.stderr, exitCode: run.status };
}

async function justBash(script: string) {
  const shell = new Bash({ env: { PATH: "/usr/bin:/bin" }, defenseInDepth: false });
  const { stdout, stderr, exitCode } = await shell.exec(script, { rawScript: true });
  return { stdout, stderr, exitCode };
}

describe("just-bash as installed", () => {
  it("is the pristine bundle with every patch applied", () => {
    expect(readFileSync(bundlePath, "utf8") === patchedBundle(pristineBundle())).toBe(true);
  });
});

describe.each(justBashPatches.map((p) => [p.name, p] as const))("patch %s", (_name, patch) => {
  it.each(patch.shows.map((script) => [script]))("behaves as bash: %s", async (script) => {
    expect(await justBash(script)).toEqual(realBash(script));
  });
});
