/**
 * The rules openapi/openapi.json states are the rules the gateway enforces: every request in
 * test/contractCases.ts is refused here with 400, and openapi/contract.test.ts shows the
 * document refuses it too. Among them the two requests a fuzzer found answering 500 (issue
 * 18, item 14) and the rules that were enforced without being stated (item 16).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { call, createWorkspace, json, signup } from "../../../test/client.ts";
import { type ContractCase, REFUSED } from "../../../test/contractCases.ts";

let key: string;
let ws: string;

beforeAll(async () => {
  ({ key } = await signup());
  ws = await createWorkspace(key);
  await call("PUT", `/v1/workspaces/${ws}/files/f`, { key, body: "file" });
});

function send(c: ContractCase): Promise<Response> {
  let path = c.path.replace("{ws}", ws);
  if (c.part === "path")
    path = path.replace(`{${c.name}}`, String(c.value).split("/").map(encodeURIComponent).join("/"));
  if (c.part === "query") path += `?${c.name}=${encodeURIComponent(String(c.value))}`;
  const headers = c.part === "header" ? { [c.name as string]: String(c.value) } : {};
  const body = c.part === "body" ? c.value : c.body;
  return call(c.method, path, { key, headers, ...(body === undefined ? {} : { json: body }) });
}

describe("requests the document refuses", () => {
  it.each(REFUSED)("$operationId refuses $why with 400", async (c) => {
    const response = await send(c);
    const problem = await json<{ code: string }>(response);
    expect(response.status, JSON.stringify(problem)).toBe(400);
    expect(["validation_failed", "invalid_path"]).toContain(problem.code);
  });
});

describe("what the root may still be named for", () => {
  it("mkdir -p / succeeds, and a plain mkdir / is EEXIST like any existing directory", async () => {
    const mkdir = (body: unknown) => call("POST", `/v1/workspaces/${ws}/fs/mkdir`, { key, json: body });
    expect((await mkdir({ path: "/", recursive: true })).status).toBe(200);
    const plain = await mkdir({ path: "/" });
    expect(plain.status).toBe(409);
    expect(await json(plain)).toMatchObject({ code: "conflict", fsCode: "EEXIST" });
  });

  it("runs in a directory under /tmp", async () => {
    const response = await call("POST", `/v1/workspaces/${ws}/exec`, {
      key,
      json: { executor: "shell", command: "pwd", cwd: "/tmp" },
    });
    expect(response.status).toBe(200);
    expect(await json(response)).toMatchObject({ exitCode: 0, stdout: "/tmp\n" });
  });
});
