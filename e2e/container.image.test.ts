/**
 * A fresh machine, end to end: `npm start` serves at once while the box image is still being
 * made, a container run meanwhile is refused with 503 `executor_starting` and Retry-After
 * (no exec record, its concurrency slot back), shell runs work, and once the image is there
 * container runs work too.
 *
 * The platform gets an images directory of its own whose build lock this test process holds,
 * exactly as when another `npm start` is building: its supervisor waits for that build. The
 * test then "finishes" it by putting the image the test run already built in place.
 */
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { imageRecipe } from "../container/image/recipe.ts";
import { newWorkspace, type Platform, signUp, startPlatform } from "./platform.ts";

const builtImage = process.env.COMPUTERD_ROOTFS;
let platform: Platform;
let imagesDir: string;

beforeAll(async () => {
  imagesDir = mkdtempSync(join(tmpdir(), "cubicle-e2e-images-"));
  writeFileSync(join(imagesDir, ".lock"), `${process.pid}\n`);
  platform = await startPlatform(undefined, { CUBICLE_IMAGES_DIR: imagesDir });
});

afterAll(async () => {
  await platform?.stop();
  rmSync(platform?.stateDir, { recursive: true, force: true });
  rmSync(imagesDir, { recursive: true, force: true });
});

async function exec(auth: Record<string, string>, workspaceId: string, body: object): Promise<Response> {
  return fetch(`${platform.url}/v1/workspaces/${workspaceId}/exec`, {
    method: "POST",
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

describe.runIf(builtImage)("a container run before the box image is ready", () => {
  it("is refused with 503 executor_starting until the image is there, and runs after", async () => {
    const { auth } = await signUp(platform.url, "image@example.com");
    const workspaceId = await newWorkspace(platform.url, auth);

    // The free plan runs one container command at a time: a refused run that kept its slot
    // would turn the second attempt into 429.
    for (let attempt = 0; attempt < 2; attempt++) {
      const refused = await exec(auth, workspaceId, { executor: "container", command: "echo hi" });
      expect(refused.status).toBe(503);
      expect(refused.headers.get("content-type")).toBe("application/problem+json");
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(5);
      const problem = (await refused.json()) as { code: string; detail: string };
      expect(problem.code).toBe("executor_starting");
      expect(problem.detail).toContain("waiting for another build");
    }
    const execs = await fetch(`${platform.url}/v1/workspaces/${workspaceId}/execs`, { headers: auth });
    expect(((await execs.json()) as { data: unknown[] }).data).toEqual([]);

    const shell = await exec(auth, workspaceId, { executor: "shell", command: "echo from shell" });
    expect(shell.status).toBe(200);
    expect(((await shell.json()) as { stdout: string }).stdout).toBe("from shell\n");

    // The other build finishes: its image appears and its lock goes.
    symlinkSync(builtImage as string, join(imagesDir, imageRecipe().hash));
    rmSync(join(imagesDir, ".lock"));
    const deadline = Date.now() + 60_000;
    let ran: Response;
    do {
      await new Promise((r) => setTimeout(r, 500));
      ran = await exec(auth, workspaceId, { executor: "container", command: "echo hi from the box" });
    } while (ran.status === 503 && Date.now() < deadline);
    expect(ran.status, platform.output()).toBe(200);
    expect(await ran.json()).toMatchObject({ status: "completed", exitCode: 0, stdout: "hi from the box\n" });
    expect(platform.output()).toContain("container image ready");
  });
});
