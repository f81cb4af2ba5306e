/**
 * What the box costs a command: the full launch chain of container/src/sandbox/box.ts
 * (bash, setpriv, bwrap with its namespaces, mounts and seccomp, bwrap's pid 1) running
 * `true` in the box image, beside `bash -c 'exec sh -c true'` on the host, the chain the
 * runner used before there was a box. Needs root, bubblewrap and the box image
 * (`node container/image/build.ts`).
 */
import { spawn } from "node:child_process";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureImage } from "../container/image/build.ts";
import { repoRoot } from "../container/image/recipe.ts";
import { Box, commandMessage } from "../container/src/sandbox/box.ts";
import { seccompProgram } from "../container/src/sandbox/seccomp.ts";
import { measure, ms, table } from "./stats.ts";

/** Spawns `argv` with `inputs` written to descriptors 3, 4 and 6 (the box's seccomp program, bwrap's arguments, the command's message). */
function launch(argv: string[], env: Record<string, string>, inputs: Uint8Array[], usernsFd?: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0] as string, argv.slice(1), {
      env,
      stdio: ["ignore", "ignore", "inherit", "pipe", "pipe", usernsFd ?? "ignore", "pipe"],
      detached: true,
    });
    inputs.forEach((bytes, i) => {
      const pipe = child.stdio[i < 2 ? 3 + i : 6] as NodeJS.WritableStream;
      pipe.on("error", () => {});
      pipe.end(bytes);
    });
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`exit ${code}`))));
  });
}

export async function boxBench(): Promise<string> {
  const imagesDir = process.env.CUBICLE_IMAGES_DIR ?? join(repoRoot, ".wrangler/state/images");
  const image = await ensureImage({ imagesDir });
  const dir = await mkdtemp(join(tmpdir(), "box-bench-"));
  await chmod(dir, 0o755);
  const box = new Box({
    rootfs: image.path,
    mount: dir,
    uidBase: 100_000,
    daemonKey: dir,
    tmpBytesMax: 64 * 1024 * 1024,
    trustStore: null,
  });
  await box.prepare();
  try {
    const seccomp = seccompProgram();
    const env = { PATH: "/usr/bin:/bin" };
    const boxed = await measure(100, () => {
      const l = box.launch({ egressSocket: null, egressBridge: null, cgroupProcs: [], user: "user" });
      return launch(l.argv, l.env, [seccomp, l.bwrapArgs, commandMessage("/workspace", "true", env)], l.usernsFd);
    });
    const plain = await measure(100, () => launch(["/bin/bash", "-c", `cd ${dir} && exec /bin/sh -c true`], env, []));
    return [
      "## Box launch (container/src/sandbox/box.ts)",
      "",
      "`true` in the box, launched as computerd launches every command, against the same shells on the host; 100 runs after 20 warm-up runs.",
      "",
      table(
        ["launch", "p50", "p99"],
        [
          ["bash → setpriv → bwrap → bash → env → `sh -c true` in the box", ms(boxed.p50Ms), ms(boxed.p99Ms)],
          ["bash → `sh -c true` on the host", ms(plain.p50Ms), ms(plain.p99Ms)],
          ["the box's cost", ms(boxed.p50Ms - plain.p50Ms), ""],
        ],
      ),
    ].join("\n");
  } finally {
    await box.dispose();
    await rm(dir, { recursive: true, force: true });
  }
}
