/**
 * How fast the fanotify helper makes a walk's placeholders: 36,000 `place` commands (the
 * tree of bench/container/memory.ts: 36 directories of 10, 100 files each, keys as computerd
 * writes them) on a fresh loop ext4 made like a computer's own (container/src/native/disk.ts),
 * all sent at once as a walk sends them. Prints the wall time from the first command to the
 * last answer and the helper's CPU time (user + system), with the load average. A
 * development aid for issue 19, not part of `npm run bench`; run as root:
 * `node bench/container/native/place.bench.ts [rounds]`. COMPUTERD_FANOTIFY_BIN measures
 * another build of the helper.
 *
 * Each round also runs ./floor.c on another fresh image: the same placements' system calls
 * on one thread and nothing else, by name and the helper's way (O_TMPFILE, then linkat), so
 * the helper's CPU can be read against what the kernel's work alone costs.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { ensureFanotifyBinary } from "../../../container/native/build.ts";
import { imageMountOptions, makeImage } from "../../../container/src/native/disk.ts";
import { startFanotify } from "../../../container/src/native/fanotify.ts";

const run = promisify(execFile);
const files = Number(process.env.PLACE_FILES ?? 36_000);
const treePath = (i: number) => `/tree/a${Math.floor(i / 1000)}/b${Math.floor(i / 100) % 10}/f${i}.txt`;
// An etag as the object makes them (a SHA-256, hex), so keys are as long as in production.
const etag = (i: number) => i.toString(16).padStart(64, "0");

function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** A fresh image made like a computer's, mounted for `use`, then unmounted and removed. */
async function onFreshImage(use: (mnt: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "cubicle-place-bench-"));
  const image = join(dir, "image.ext4");
  const mnt = join(dir, "mnt");
  mkdirSync(mnt);
  await makeImage(image);
  await run("mount", ["-t", "ext4", "-o", imageMountOptions, image, mnt]);
  try {
    await use(mnt);
  } finally {
    await run("umount", [mnt]).catch(() => run("umount", ["-l", mnt]));
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Compiles ./floor.c into a temporary directory. */
async function buildFloor(): Promise<string> {
  const out = join(mkdtempSync(join(tmpdir(), "cubicle-floor-")), "floor");
  await run(process.env.CC ?? "cc", ["-O2", "-Wall", "-o", out, join(import.meta.dirname, "floor.c")]);
  return out;
}

async function floorRound(floor: string): Promise<void> {
  for (const [label, tmpfile] of [
    ["by name", "0"],
    ["O_TMPFILE + linkat", "1"],
  ] as const) {
    await onFreshImage(async (mnt) => {
      const { stdout } = await run(floor, [mnt, String(files), tmpfile]);
      const [, wall, cpu] = /wall=([\d.]+) cpu=([\d.]+)/.exec(stdout) ?? [];
      console.log(
        `  floor, ${label}: ${files} placements in ${(Number(wall) * 1000).toFixed(0)} ms, CPU ${(Number(cpu) * 1000).toFixed(0)} ms`,
      );
    });
  }
}

async function round(binary: string): Promise<void> {
  await onFreshImage(async (mnt) => {
    const helper = await startFanotify({
      binary,
      mountRoot: mnt,
      allowPid: process.pid,
      hydrate: async () => ({ errno: 5 }),
      onChange: () => {},
      onRescan: (reason) => console.error(`rescan: ${reason}`),
    });
    for (let i = 0; i < files; i += 100) mkdirSync(join(mnt, treePath(i), ".."), { recursive: true });
    await helper.drain();
    const before = cpuMs(helper.pid);
    const startMs = performance.now();
    const results = await Promise.all(
      Array.from({ length: files }, (_, i) =>
        helper.place({
          path: treePath(i),
          size: 8 + String(i).length,
          mode: 0o644,
          uid: 1000,
          gid: 1000,
          mtimeNs: 1_700_000_000_000_000_000n + BigInt(i),
          key: `${etag(i)} ${treePath(i)}`,
          onlyNew: true,
        }),
      ),
    );
    const placedMs = performance.now() - startMs;
    await helper.drain();
    const drainedMs = performance.now() - startMs;
    const failed = results.filter((r) => !r.ok).length;
    console.log(
      `  ${files} placements: ${placedMs.toFixed(0)} ms (drained ${drainedMs.toFixed(0)} ms), helper CPU ${(cpuMs(helper.pid) - before).toFixed(0)} ms${failed ? `, ${failed} failed` : ""}`,
    );
    await helper.stop();
  });
}

const override = process.env.COMPUTERD_FANOTIFY_BIN;
const built = override ? { ok: true as const, path: override } : await ensureFanotifyBinary();
if (!built.ok) throw new Error(built.reason);
const floor = await buildFloor();
const rounds = Number(process.argv[2] ?? 3);
for (let i = 0; i < rounds; i++) {
  console.log(`round ${i + 1} (load ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")})`);
  await round(built.path);
  await floorRound(floor);
}
rmSync(dirname(floor), { recursive: true, force: true });
