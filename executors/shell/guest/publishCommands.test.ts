/**
 * `publish` and `share` in the shell, end to end through the gateway: the commands call
 * the run's tools capability, which the workspace object binds to the run's workspace,
 * path prefix, credential and public origin.
 */
import { describe, expect, it } from "vitest";
import { call, createWorkspace, json, mintToken, signup } from "../../../test/client.ts";

interface RunResult {
  status: string;
  exitCode: number;
  stdout: string;
  stderr: string;
}

async function run(key: string, workspaceId: string, command: string): Promise<RunResult> {
  const response = await call("POST", `/v1/workspaces/${workspaceId}/exec`, {
    key,
    json: { executor: "shell", command },
  });
  expect(response.status).toBe(200);
  return json<RunResult>(response);
}

const build = "mkdir -p dist/assets && printf '<h1>hi</h1>' > dist/index.html && printf 'x=1' > dist/assets/app.js";

describe("publish", () => {
  it("publishes a directory and prints the id, digest and download URL; the API agrees", async () => {
    const { key } = await signup();
    const ws = await createWorkspace(key);
    const ran = await run(key, ws, `${build} && publish dist`);
    expect(ran.stderr).toBe("");
    expect(ran.exitCode).toBe(0);
    const [id, ...rest] = ran.stdout.trimEnd().split("\n");
    expect(id).toMatch(/^art_[0-9a-z]{26}$/);
    expect(rest.join("\n")).toMatch(
      new RegExp(
        `^digest +sha256:[0-9a-f]{64}\nfiles +2 \\(14 bytes\\)\ndownload +http://cubicle.test/v1/artifacts/${id}/download$`,
      ),
    );
    const viaApi = await call("POST", `/v1/workspaces/${ws}/artifacts`, { key, json: { path: "/dist" } });
    expect(viaApi.status).toBe(200);
    expect((await json<{ id: string }>(viaApi)).id).toBe(id);
    const download = await call("GET", `/v1/artifacts/${id}/download`, { key });
    expect(download.status).toBe(200);
  });

  it("prints the whole ArtifactInfo with --json, relative paths resolved from the working directory", async () => {
    const { key } = await signup();
    const ws = await createWorkspace(key);
    const ran = await run(key, ws, `${build} && cd dist && publish --json assets/app.js`);
    expect(ran.exitCode).toBe(0);
    const info = JSON.parse(ran.stdout);
    expect(info).toMatchObject({ files: [{ path: "app.js", size: 3 }], bytes: 3 });
    expect(info.url).toBe(`http://cubicle.test/v1/artifacts/${info.id}`);
  });

  it("fails with a clear message outside the workspace, for missing paths and outside a token's prefix", async () => {
    const { key } = await signup();
    const ws = await createWorkspace(key);
    const scratch = await run(key, ws, "mkdir -p /tmp/x && echo 1 > /tmp/x/a && publish /tmp/x");
    expect(scratch.exitCode).toBe(1);
    expect(scratch.stderr).toMatch(/^publish: \/tmp\/x: not in the workspace \(\/workspace\)/);
    const missing = await run(key, ws, "publish nope");
    expect(missing.stderr).toMatch(/^publish: nope: .*\(ENOENT\)/);
    expect((await run(key, ws, "publish")).exitCode).toBe(2);
    await run(key, ws, "mkdir -p src secret && echo a > src/a.txt && echo k > secret/key.txt");
    const { token } = await mintToken(key, { workspaceId: ws, pathPrefix: "/src" });
    const outside = await run(token, ws, "publish /workspace/secret");
    expect(outside.exitCode).toBe(1);
    expect(outside.stderr).toMatch(/\(EACCES\)/);
    const inside = await run(token, ws, "publish /workspace/src");
    expect(inside.exitCode).toBe(0);
  });
});

describe("share", () => {
  it("prints a link that serves the file to anyone", async () => {
    const { key } = await signup();
    const ws = await createWorkspace(key);
    const ran = await run(key, ws, `${build} && share dist/index.html --ttl 120`);
    expect(ran.stderr).toBe("");
    const url = ran.stdout.trim();
    expect(url).toMatch(/^http:\/\/cubicle\.test\/s\/[\w-]+\.[\w-]+\.[\w-]+$/);
    const served = await call("GET", new URL(url).pathname);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await served.text()).toBe("<h1>hi</h1>");
    const listed = await json<{ data: { path: string; expiresAt: string; createdAt: string }[] }>(
      await call("GET", `/v1/workspaces/${ws}/shares`, { key }),
    );
    expect(listed.data.map((s) => s.path)).toEqual(["/dist/index.html"]);
    const share = listed.data[0] as { expiresAt: string; createdAt: string };
    expect(Date.parse(share.expiresAt) - Date.parse(share.createdAt)).toBeLessThanOrEqual(121_000);
  });

  it("refuses directories, bad ttls and paths outside a token's prefix", async () => {
    const { key } = await signup();
    const ws = await createWorkspace(key);
    expect((await run(key, ws, `${build} && share dist`)).stderr).toMatch(/\(EISDIR\)/);
    expect((await run(key, ws, "share dist/index.html --ttl soon")).exitCode).toBe(2);
    expect((await run(key, ws, "share dist/index.html --ttl 99999999")).stderr).toMatch(/\(EINVAL\)/);
    const { token } = await mintToken(key, { workspaceId: ws, pathPrefix: "/dist/assets" });
    expect((await run(token, ws, "share /workspace/dist/index.html")).stderr).toMatch(/\(EACCES\)/);
    expect((await run(token, ws, "share --json app.js")).stdout).toMatch(/"path":"\/dist\/assets\/app.js"/);
  });
});
