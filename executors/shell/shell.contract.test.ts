/** The shell executor against the shared executor contract, through the real API. */
import { describe, expect, it } from "vitest";
import { call, createWorkspace, json, signup } from "../../api/test/client.ts";
import { executorContract } from "../contract.suite.ts";

executorContract(
  "shell",
  "command",
  {
    echo: "echo hello",
    exit3: "exit 3",
    stderr: "echo oops >&2",
    stdin: "cat",
    env: 'echo "$NAME"',
    cwd: "pwd",
    writeFile: "printf from-executor > /workspace/out.txt",
    readFile: "cat /workspace/in.txt",
    // Sleeping, so a kill (delivered when the script yields) reaches it at once.
    forever: "while true; do sleep 1; done",
    flood: "seq 1 30000",
    unicode: "echo 'héllo ✓ 日本'",
    binary: "printf '\\x00\\xff'",
  },
  { call, signup, createWorkspace },
);

describe("shell runs and workspace counters", () => {
  it("shows files a run wrote in the workspace's size and count, in get and list", async () => {
    const { key } = await signup();
    const workspaceId = await createWorkspace(key);
    await call("POST", `/v1/workspaces/${workspaceId}/exec`, {
      key,
      json: { executor: "shell", command: "printf 12345 > a.txt; mkdir d; printf 123 > d/b.txt" },
    });
    expect(await json(await call("GET", `/v1/workspaces/${workspaceId}`, { key }))).toMatchObject({
      sizeBytes: 8,
      fileCount: 2,
    });
    const listed = await json<{ data: { sizeBytes: number; fileCount: number }[] }>(
      await call("GET", "/v1/workspaces", { key }),
    );
    expect(listed.data[0]).toMatchObject({ sizeBytes: 8, fileCount: 2 });
  });
});
