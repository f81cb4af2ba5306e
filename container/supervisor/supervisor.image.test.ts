/**
 * The supervisor and its box image: no computer before the image is ready, an honest
 * Retry-After meanwhile, a failed build reported once and started again, and the image's
 * path handed to every daemon. The real supervisor and HTTP API with the stand-in daemon; the
 * build is a stand-in the test finishes by hand, because a real one takes minutes
 * (container/image/build.test.ts covers the real one).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type EnsuredImage, ImageBuildError } from "../image/build.ts";
import { META_FILE } from "../image/store.ts";
import { BoxImage } from "./image.ts";
import { computerName, startTestSupervisor, type TestSupervisor } from "./testing/harness.ts";

/** A build the test ends: `finish` with an image, or `fail`. Counts how often it was started. */
function standInBuild() {
  const controls: { finish: (image: EnsuredImage) => void; fail: (error: Error) => void }[] = [];
  const build = (onProgress: (p: { phase: string; elapsedMs: number }) => void) =>
    new Promise<EnsuredImage>((finish, fail) => {
      controls.push({ finish, fail });
      onProgress({ phase: "downloading packages", elapsedMs: 0 });
    });
  return { build, controls };
}

/** A directory that passes for a finished image (it has the metadata file). */
function fakeImageDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "cubicle-image-"));
  writeFileSync(join(dir, META_FILE), JSON.stringify({ hash: "0123456789abcdef" }));
  return dir;
}

let t: TestSupervisor | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await t?.close();
  t = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("supervisor with a box image", () => {
  it("answers 503 image_building with Retry-After until the image is ready, then starts computers on it", async () => {
    const { build, controls } = standInBuild();
    const image = new BoxImage({ build, estimateMs: () => 90_000 });
    image.start();
    t = await startTestSupervisor({ daemon: "standin", image });
    const name = computerName();

    const early = await t.call("POST", `/computers/${encodeURIComponent(name)}`);
    expect(early.status).toBe(503);
    expect(early.headers.get("content-type")).toBe("application/problem+json");
    const retryAfter = Number(early.headers.get("retry-after"));
    // What is left of the 90 s the last build took, give or take the test's own time.
    expect(retryAfter).toBeGreaterThan(80);
    expect(retryAfter).toBeLessThanOrEqual(90);
    const problem = (await early.json()) as { code: string; detail: string };
    expect(problem.code).toBe("image_building");
    expect(problem.detail).toContain("downloading packages");
    // Refused before a slot was taken: nothing runs, nothing is half started.
    expect(await t.list()).toEqual([]);
    const health = (await (await t.call("GET", "/healthz", { secret: null })).json()) as { image: { state: string } };
    expect(health.image.state).toBe("building");

    const rootfs = fakeImageDir();
    dirs.push(rootfs);
    controls[0]?.finish({ path: rootfs, hash: "0123456789abcdef", built: true });
    await t.waitFor(() => image.status().state === "ready", "the image to be ready");
    const info = await t.ensure(name);
    const environ = readFileSync(`/proc/${info.pid}/environ`, "utf8").split("\0");
    expect(environ).toContain(`COMPUTERD_ROOTFS=${rootfs}`);
    expect(controls).toHaveLength(1);
  });

  it("reports a failed build once with its log, and the next request finds it building again", async () => {
    const { build, controls } = standInBuild();
    const image = new BoxImage({ build, estimateMs: () => 60_000 });
    image.start();
    t = await startTestSupervisor({ daemon: "standin", image });
    const name = encodeURIComponent(computerName());
    controls[0]?.fail(new ImageBuildError("mmdebstrap exited with 100", ["E: Unable to locate package nope"], "x.log"));
    await t.waitFor(() => image.status().state === "failed", "the build to fail");

    const failed = await t.call("POST", `/computers/${name}`);
    expect(failed.status).toBe(503);
    expect(Number(failed.headers.get("retry-after"))).toBeGreaterThan(0);
    const problem = (await failed.json()) as { code: string; detail: string };
    expect(problem.code).toBe("image_failed");
    expect(problem.detail).toContain("mmdebstrap exited with 100");
    expect(problem.detail).toContain("E: Unable to locate package nope");
    expect(controls).toHaveLength(2);

    const again = await t.call("POST", `/computers/${name}`);
    expect(again.status).toBe(503);
    expect(((await again.json()) as { code: string }).code).toBe("image_building");
    expect(controls).toHaveLength(2);
  });

  it("builds again when its ready image disappeared from disk", async () => {
    const { build, controls } = standInBuild();
    const image = new BoxImage({ build, estimateMs: () => 60_000 });
    image.start();
    t = await startTestSupervisor({ daemon: "standin", image });
    const rootfs = fakeImageDir();
    dirs.push(rootfs);
    controls[0]?.finish({ path: rootfs, hash: "0123456789abcdef", built: false });
    await t.waitFor(() => image.status().state === "ready", "the image to be ready");

    rmSync(rootfs, { recursive: true });
    const response = await t.call("POST", `/computers/${encodeURIComponent(computerName())}`);
    expect(response.status).toBe(503);
    expect(((await response.json()) as { code: string }).code).toBe("image_building");
    expect(controls).toHaveLength(2);
  });
});
