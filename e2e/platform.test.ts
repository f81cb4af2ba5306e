/**
 * A new user's first five minutes, end to end: the platform started by `npm start`'s own
 * script, driven through the generated SDK — signup, a key, a workspace, a 1 MiB binary
 * file round trip — then a restart on the same state that keeps everything.
 */
import { execFileSync } from "node:child_process";
import {
  createCubicle,
  createKey,
  createWorkspace,
  exec,
  getAccount,
  getFile,
  getWorkspace,
  listWorkspaces,
  putFile,
  revokeKey,
  signup,
} from "@cubicle/sdk";
import { afterAll, describe, expect, it } from "vitest";
import { type Platform, startPlatform } from "./platform.ts";

let platform: Platform | undefined;

afterAll(async () => {
  await platform?.stop();
});

function processesUsing(stateDir: string): string {
  try {
    return execFileSync("pgrep", ["-af", stateDir], { encoding: "utf8" }).trim();
  } catch {
    return ""; // pgrep exits 1 when nothing matches.
  }
}

describe("the platform through the SDK", () => {
  it("signs up, creates a workspace, round-trips a binary file, and keeps it all across a restart", async () => {
    platform = await startPlatform();
    const anonymous = createCubicle({ baseUrl: platform.url });
    const signed = await signup({ client: anonymous, body: { email: "e2e@example.com" }, throwOnError: true });
    expect(signed.response.status).toBe(201);
    const apiKey = signed.data.apiKey.key;
    const cubicle = createCubicle({ baseUrl: platform.url, apiKey });

    const extra = await createKey({
      client: cubicle,
      body: { name: "agent", scopes: ["workspaces:read"] },
      throwOnError: true,
    });
    const workspace = await createWorkspace({
      client: cubicle,
      body: { name: "first", metadata: { project: "e2e" } },
      throwOnError: true,
    });
    const workspaceId = workspace.data.id;

    const bytes = new Uint8Array(1024 * 1024);
    for (let i = 0; i < bytes.length; i += 65_536) crypto.getRandomValues(bytes.subarray(i, i + 65_536));
    const put = await putFile({
      client: cubicle,
      path: { workspaceId, path: "assets/blob.bin" },
      body: new Blob([bytes]),
      throwOnError: true,
    });
    expect(put.data).toMatchObject({ path: "/assets/blob.bin", size: bytes.length });

    const readBack = async (key: string) => {
      const got = await getFile({
        client: createCubicle({ baseUrl: platform?.url ?? "", apiKey: key }),
        path: { workspaceId, path: "assets/blob.bin" },
        parseAs: "arrayBuffer",
        throwOnError: true,
      });
      expect(got.response.headers.get("content-length")).toBe(String(bytes.length));
      return new Uint8Array(got.data as unknown as ArrayBuffer);
    };
    expect(await readBack(apiKey)).toEqual(bytes);
    expect(await readBack(extra.data.key)).toEqual(bytes);

    // The shell sees the same file the API wrote.
    const ran = await exec({
      client: cubicle,
      path: { workspaceId },
      body: { executor: "shell", command: "wc -c < assets/blob.bin" },
      throwOnError: true,
    });
    expect(ran.data).toMatchObject({ status: "completed", exitCode: 0, stdout: `${bytes.length}\n` });

    // Ctrl-C stops every process the start script started.
    const stateDir = platform.stateDir;
    expect(processesUsing(stateDir)).not.toBe("");
    await platform.stop();
    await new Promise((r) => setTimeout(r, 500));
    expect(processesUsing(stateDir)).toBe("");

    platform = await startPlatform(stateDir);
    const again = createCubicle({ baseUrl: platform.url, apiKey });
    expect((await getAccount({ client: again, throwOnError: true })).data.email).toBe("e2e@example.com");
    const listed = await listWorkspaces({ client: again, query: { limit: 10 }, throwOnError: true });
    expect(listed.data.data.map((w) => w.id)).toEqual([workspaceId]);
    const stats = await getWorkspace({ client: again, path: { workspaceId }, throwOnError: true });
    expect(stats.data).toMatchObject({ sizeBytes: bytes.length, fileCount: 1 });
    expect(await readBack(extra.data.key)).toEqual(bytes);

    await revokeKey({ client: again, path: { keyId: extra.data.id }, throwOnError: true });
    const refused = await getWorkspace({
      client: createCubicle({ baseUrl: platform.url, apiKey: extra.data.key }),
      path: { workspaceId },
    });
    expect(refused.response?.status).toBe(401);
  });
});
