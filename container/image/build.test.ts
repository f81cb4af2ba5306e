/**
 * The box image as the test run's global setup built it (testGlobalSetup.ts), used as the
 * sandbox uses it: bound read-only as `/` by bubblewrap, as the uid 1000 user. And the image
 * directory's rules: found without a build once there, one builder at a time across
 * processes, old images and dead builders' leftovers pruned, nothing deleted through a mount.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ensureImage, type ImageProgress } from "./build.ts";
import { imageRecipe } from "./recipe.ts";
import { META_FILE, pruneImages, readMeta, removeTree } from "./store.ts";

const imagesDir = process.env.CUBICLE_IMAGES_DIR;
const rootfs = process.env.COMPUTERD_ROOTFS;
const children: ChildProcess[] = [];
const dirs: string[] = [];

afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "cubicle-images-"));
  dirs.push(dir);
  return dir;
}

/** Runs a shell command in the box as the sandbox would, with a private /tmp and home. */
function inBox(image: string, command: string): string {
  return execFileSync(
    "bwrap",
    [
      ["--ro-bind", image, "/", "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp", "--tmpfs", "/home/user"],
      ["--unshare-all", "--die-with-parent", "--uid", "1000", "--gid", "1000", "--clearenv"],
      ["--setenv", "PATH", "/usr/local/bin:/usr/bin:/bin", "--setenv", "HOME", "/home/user", "--chdir", "/tmp"],
      ["--", "/bin/sh", "-c", command],
    ].flat(),
    { encoding: "utf8", timeout: 60_000 },
  );
}

describe.runIf(imagesDir && rootfs)("the box image", () => {
  const image = rootfs as string;

  it("is found again without a build", async () => {
    const again = await ensureImage({ imagesDir: imagesDir as string });
    expect(again).toEqual({ path: image, hash: imageRecipe().hash, built: false });
  });

  it("runs Node 24 and npm for the uid 1000 user", () => {
    expect(inBox(image, "node -v").trim()).toBe(`v${imageRecipe().node.nodeVersion}`);
    expect(inBox(image, "npm -v").trim()).toBe(imageRecipe().node.npmVersion);
    expect(inBox(image, "id").trim()).toBe("uid=1000(user) gid=1000(user) groups=1000(user)");
    expect(inBox(image, 'echo "$HOME"; getent hosts cubicle; cat /etc/hostname')).toBe(
      "/home/user\n127.0.1.1       cubicle\ncubicle\n",
    );
  });

  it("has every mount point the sandbox binds over, and is read-only", () => {
    for (const point of ["workspace", "home/user", "tmp", "run/cubicle", "proc", "dev"]) {
      expect(existsSync(join(image, point)), point).toBe(true);
    }
    expect(inBox(image, "touch /etc/x 2>&1; echo $?")).toMatch(/Read-only file system\n1\n$/);
  });

  it("turns markdown into a PDF with pandoc and pdfroff, as the demo does", () => {
    const out = inBox(
      image,
      "printf '# Report\\n\\nHello *box*.\\n' > a.md && pandoc a.md --pdf-engine=pdfroff -o a.pdf && head -c 5 a.pdf",
    );
    expect(out).toBe("%PDF-");
  });

  it("makes a PDF with pandoc's default engine (TeX), math included, and compiles C", () => {
    const pdf = inBox(image, "printf '# T\\n\\n$x^2$\\n' > a.md && pandoc a.md -o a.pdf && head -c 5 a.pdf");
    expect(pdf).toBe("%PDF-");
    const c = inBox(image, "echo 'int main(void) { return 7; }' > c.c && cc c.c -o c; ./c; echo $?");
    expect(c).toBe("7\n");
  });

  it("runs the tools agents reach for first", () => {
    const out = inBox(image, "git --version && python3 -c 'print(6*7)' && curl --version | head -1 && make --version");
    expect(out).toMatch(/^git version 2\./);
    expect(out).toContain("\n42\n");
    expect(out).toMatch(/curl 7\./);
  });

  it("says what it is in its metadata", () => {
    const meta = readMeta(image);
    expect(meta).toMatchObject({ hash: imageRecipe().hash, packages: imageRecipe().packages, suite: "bookworm" });
    expect(meta?.sizeBytes).toBeGreaterThan(100_000_000);
    expect(meta?.buildMs).toBeGreaterThan(0);
  });

  it("waits for another process's build instead of starting its own", async () => {
    const dir = tempDir();
    const { hash } = imageRecipe();
    // Another builder: holds the lock, and after a while "finishes" by putting the image in place.
    const script = `const { tryLock } = await import(process.argv[1]);
      const lock = await tryLock(process.argv[2] + "/.lock");
      console.log("locked");
      setTimeout(async () => {
        (await import("node:fs")).symlinkSync(process.argv[3], process.argv[2] + "/" + process.argv[4]);
        await lock.release();
      }, 1500);`;
    const builder = spawn(
      process.execPath,
      ["--input-type=module", "-e", script, join(import.meta.dirname, "lock.ts"), dir, image, hash],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    children.push(builder);
    await new Promise((resolve) => builder.stdout?.once("data", resolve));
    const phases: ImageProgress[] = [];
    const found = await ensureImage({ imagesDir: dir, onProgress: (p) => phases.push(p) });
    expect(found).toEqual({ path: join(dir, hash), hash, built: false });
    expect(phases[0]?.phase).toBe(`waiting for another build (pid ${builder.pid})`);
  });

  it("prunes older images and what dead builders left, and keeps a live build", async () => {
    const dir = tempDir();
    const make = (name: string, meta?: object) => {
      mkdirSync(join(dir, name));
      if (meta) writeFileSync(join(dir, name, META_FILE), JSON.stringify(meta));
    };
    make("00000000000000aa", { hash: "00000000000000aa" });
    make("00000000000000bb", { hash: "00000000000000bb" });
    make(".building-00000000000000cc-4194304");
    make(`.building-00000000000000dd-${process.pid}`);
    writeFileSync(join(dir, "build-00000000000000aa.log"), "");
    writeFileSync(join(dir, "build-00000000000000bb.log"), "");
    const removed = await pruneImages(dir, "00000000000000bb");
    expect(removed.sort()).toEqual([
      ".building-00000000000000cc-4194304",
      "00000000000000aa",
      "build-00000000000000aa.log",
    ]);
    expect(existsSync(join(dir, `.building-00000000000000dd-${process.pid}`))).toBe(true);
  });

  it("never deletes through a mount inside an image directory", async () => {
    const dir = tempDir();
    mkdirSync(join(dir, "tree/dev"), { recursive: true });
    execFileSync("mount", ["-t", "tmpfs", "cubicle-test", join(dir, "tree/dev")]);
    try {
      writeFileSync(join(dir, "tree/dev/keep"), "host file");
      await expect(removeTree(join(dir, "tree"))).rejects.toThrow(/is mounted inside/);
      expect(readFileSync(join(dir, "tree/dev/keep"), "utf8")).toBe("host file");
    } finally {
      execFileSync("umount", [join(dir, "tree/dev")]);
    }
  });
});
