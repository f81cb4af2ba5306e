/** The shell executor against the shared executor contract, through the real API. */
import { describe, expect, it } from "vitest";
import { call, createWorkspace, json, signup } from "../../test/client.ts";
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

describe("shell: hard links, owners and times in the workspace", () => {
  it("ln makes a hard link that stat, the API and a write through either name agree on", async () => {
    const { key } = await signup();
    const workspaceId = await createWorkspace(key);
    const run = async (command: string) =>
      json<{ stdout: string; stderr: string; exitCode: number }>(
        await call("POST", `/v1/workspaces/${workspaceId}/exec`, { key, json: { executor: "shell", command } }),
      );
    const made = await run(
      'echo one > a; ln a b; echo two >> b; cat a; stat -c \'%h %u:%g %U %F\' a b; [ "$(stat -c %i a)" = "$(stat -c %i b)" ] && echo same',
    );
    expect(made).toMatchObject({ exitCode: 0, stderr: "" });
    expect(made.stdout).toBe("one\ntwo\n2 1000:1000 user regular file\n2 1000:1000 user regular file\nsame\n");
    const api = await json<{ nlink: number }>(
      await call("POST", `/v1/workspaces/${workspaceId}/fs/stat`, { key, json: { path: "/b" } }),
    );
    expect(api.nlink).toBe(2);
    expect((await run("mkdir d; ln d e")).stderr).toMatch(/hard link not allowed for directory/);

    // touch sets the modification time; stat shows it to the nanosecond the workspace keeps.
    await call("POST", `/v1/workspaces/${workspaceId}/fs/utimes`, {
      key,
      json: { path: "/a", mtimeNs: "1700000000123456789" },
    });
    expect((await run("stat -c '%y %Y' a; stat -L -c %h b")).stdout).toBe(
      "2023-11-14 22:13:20.123456789 +0000 1700000000\n2\n",
    );
    const touched = await run("touch a; stat -c %Y a");
    expect(Number(touched.stdout)).toBeGreaterThan(1_700_000_000);
    expect((await run("rm a; stat -c %h b; cat b")).stdout).toBe("1\none\ntwo\n");
  });
});
