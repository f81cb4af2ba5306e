/** The build lock between real processes: one holder, the others told who; a dead holder's lock is taken over. */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tryLock } from "./lock.ts";

const lockModule = join(import.meta.dirname, "lock.ts");
const children: ChildProcess[] = [];
const dirs: string[] = [];

afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function lockPath(): string {
  const dir = mkdtempSync(join(tmpdir(), "cubicle-lock-"));
  dirs.push(dir);
  return join(dir, ".lock");
}

/** Another process that takes the lock and keeps it until it is killed; resolves once it holds it. */
async function holder(path: string): Promise<ChildProcess> {
  const script = `const { tryLock } = await import(process.argv[1]);
    const lock = await tryLock(process.argv[2]);
    console.log("heldBy" in lock ? "refused" : "locked");
    setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script, lockModule, path], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  children.push(child);
  const [line] = (await once(child.stdout as NodeJS.ReadableStream, "data")) as [Buffer];
  expect(line.toString().trim()).toBe("locked");
  return child;
}

describe("build lock", () => {
  it("is held by one process; others learn its pid", async () => {
    const path = lockPath();
    const other = await holder(path);
    expect(await tryLock(path)).toEqual({ heldBy: other.pid });
    expect(readFileSync(path, "utf8")).toBe(`${other.pid}\n`);
  });

  it("is taken over once its holder died without releasing it", async () => {
    const path = lockPath();
    const other = await holder(path);
    other.kill("SIGKILL");
    await once(other, "exit");
    const lock = await tryLock(path);
    expect("release" in lock).toBe(true);
    expect(readFileSync(path, "utf8")).toBe(`${process.pid}\n`);
    if ("release" in lock) await lock.release();
    expect(existsSync(path)).toBe(false);
  });

  it("goes to exactly one of many callers at once", async () => {
    const path = lockPath();
    const results = await Promise.all(Array.from({ length: 20 }, () => tryLock(path)));
    expect(results.filter((result) => "release" in result)).toHaveLength(1);
    expect(results.filter((result) => "heldBy" in result)).toHaveLength(19);
  });

  it("is not released by a holder whose lock was taken over", async () => {
    const path = lockPath();
    const lock = await tryLock(path);
    // As if this holder had been given up for dead and another process took over.
    writeFileSync(path, "4194304\n");
    if ("release" in lock) await lock.release();
    expect(readFileSync(path, "utf8")).toBe("4194304\n");
  });
});
