/**
 * The container workspace as a user sees it, in either mount mode (docs/container-sync.md):
 * files the API wrote arrive on first read, and whatever a command does to them (append,
 * overwrite, rename before reading, move a directory) reaches the API when the exec answers.
 * container.native.test.ts runs it on the shared platform (native where the kernel allows,
 * which this project's machines and CI do), container.fuse.test.ts on a platform of its own
 * forced to the FUSE fallback.
 */
import { createHash } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { httpClient } from "./httpClient.ts";

interface Exec {
  status: string;
  exitCode: number;
  stdout: string;
  stderr: string;
  mount: string | null;
}

async function exec(key: string, workspaceId: string, command: string): Promise<Exec> {
  const response = await api().call("POST", `/v1/workspaces/${workspaceId}/exec`, {
    key,
    json: { executor: "container", command, timeoutMs: 60_000 },
  });
  const result = (await response.json()) as Exec;
  expect(response.status, JSON.stringify(result)).toBe(200);
  return result;
}

async function put(key: string, workspaceId: string, path: string, body: string | Uint8Array): Promise<void> {
  const response = await api().call("PUT", `/v1/workspaces/${workspaceId}/files/${path}`, { key, body });
  expect(response.status, await response.clone().text()).toBeLessThan(300);
}

async function read(key: string, workspaceId: string, path: string): Promise<{ status: number; text: string }> {
  const response = await api().call("GET", `/v1/workspaces/${workspaceId}/files/${path}`, { key });
  return { status: response.status, text: await response.text() };
}

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** The platform the suite runs against, set when it starts (its URL is known only then). */
let currentUrl = "";
const api = () => httpClient(currentUrl);

/**
 * The mount's behaviour as a user sees it, against the platform `url()` names (read once the
 * suite runs), whose computers mount workspaces in `mode`.
 */
export function describeMountSuite(url: () => string, mode: "native" | "fuse"): void {
  const expectedMode = mode;
  describe(`container workspace, ${mode} mount`, () => {
    beforeAll(() => {
      currentUrl = url();
    });

    it("says which mount ran, and shows API files with their size before and their bytes after a read", async () => {
      const { key } = await api().signup();
      const workspaceId = await api().createWorkspace(key);
      const big = new Uint8Array(6 * 1024 * 1024).map((_, i) => (i * 7919) % 251);
      await put(key, workspaceId, "data/big.bin", big);
      await put(key, workspaceId, "data/small.txt", "hello\n");
      const result = await exec(
        key,
        workspaceId,
        "stat -c '%s %U %a' data/big.bin data/small.txt && sha256sum data/big.bin | cut -d' ' -f1 && cat data/small.txt",
      );
      expect(result).toMatchObject({ status: "completed", exitCode: 0, mount: expectedMode });
      expect(result.stdout).toBe(`6291456 user 644\n6 user 644\n${sha256(big)}\nhello\n`);
    });

    it("keeps what a command does to files it never read: append, overwrite, truncate, rename", async () => {
      const { key } = await api().signup();
      const workspaceId = await api().createWorkspace(key);
      for (const name of ["append", "overwrite", "truncate", "renamed", "copied"]) {
        await put(key, workspaceId, `f/${name}.txt`, `${name} from the API\n`);
      }
      const result = await exec(
        key,
        workspaceId,
        [
          "echo more >> f/append.txt",
          "echo replaced > f/overwrite.txt",
          "truncate -s 4 f/truncate.txt",
          "mv f/renamed.txt f/moved.txt",
          "cat f/moved.txt",
          "cp f/copied.txt f/copy.txt",
        ].join(" && "),
      );
      expect(result).toMatchObject({ exitCode: 0, stdout: "renamed from the API\n" });
      expect(await read(key, workspaceId, "f/append.txt")).toEqual({
        status: 200,
        text: "append from the API\nmore\n",
      });
      expect(await read(key, workspaceId, "f/overwrite.txt")).toEqual({ status: 200, text: "replaced\n" });
      expect(await read(key, workspaceId, "f/truncate.txt")).toEqual({ status: 200, text: "trun" });
      expect(await read(key, workspaceId, "f/moved.txt")).toEqual({ status: 200, text: "renamed from the API\n" });
      expect((await read(key, workspaceId, "f/renamed.txt")).status).toBe(404);
      expect(await read(key, workspaceId, "f/copy.txt")).toEqual({ status: 200, text: "copied from the API\n" });
    });

    it("pushes a renamed file the command never read with its real bytes, not the placeholder's", async () => {
      const { key } = await api().signup();
      const workspaceId = await api().createWorkspace(key);
      await put(key, workspaceId, "unread.txt", "content the box never read\n");
      // A first command makes the file a placeholder on the box; the second moves it unread.
      expect((await exec(key, workspaceId, "ls")).stdout).toBe("unread.txt\n");
      expect((await exec(key, workspaceId, "mkdir -p kept && mv unread.txt kept/")).exitCode).toBe(0);
      expect(await read(key, workspaceId, "kept/unread.txt")).toEqual({
        status: 200,
        text: "content the box never read\n",
      });
    });

    it("copies files it never read with their real bytes, whatever their size (cp skips what looks like a hole)", async () => {
      const { key } = await api().signup();
      const workspaceId = await api().createWorkspace(key);
      // GNU cp reads only the data extents of a file that looks sparse; a placeholder of the
      // remote size must never look all hole, or its copy is zeros without a read to fill it.
      const sizes = [1, 4096, 4097, 65_536, 300_000];
      const files = sizes.map((size) => {
        const bytes = new Uint8Array(size).map((_, i) => 65 + (i % 26));
        return { name: `src-${size}.bin`, bytes };
      });
      for (const f of files) await put(key, workspaceId, f.name, f.bytes);
      expect((await exec(key, workspaceId, "ls | wc -l")).stdout).toBe(`${files.length}\n`);
      const copy = await exec(
        key,
        workspaceId,
        `mkdir copies && for f in src-*.bin; do cp "$f" copies/; cp --sparse=always "$f" "copies/$f.sparse"; done && sha256sum copies/*`,
      );
      expect(copy.exitCode, copy.stderr).toBe(0);
      for (const f of files) {
        expect(copy.stdout).toContain(`${sha256(f.bytes)}  copies/${f.name}\n`);
        expect(copy.stdout).toContain(`${sha256(f.bytes)}  copies/${f.name}.sparse\n`);
      }
    });

    it("moves a whole directory the command renamed, with files it created inside", async () => {
      const { key } = await api().signup();
      const workspaceId = await api().createWorkspace(key);
      await put(key, workspaceId, "src/a.txt", "a\n");
      const result = await exec(
        key,
        workspaceId,
        "mkdir -p src/deep && for i in $(seq 1 50); do echo $i > src/deep/n$i; done && mv src dst && ls dst/deep | wc -l",
      );
      expect(result).toMatchObject({ exitCode: 0, stdout: "50\n" });
      expect(await read(key, workspaceId, "dst/a.txt")).toEqual({ status: 200, text: "a\n" });
      expect(await read(key, workspaceId, "dst/deep/n42")).toEqual({ status: 200, text: "42\n" });
      expect((await read(key, workspaceId, "src/a.txt")).status).toBe(404);
    });

    it("shows the next command a file the API changed after the box had read it", async () => {
      const { key } = await api().signup();
      const workspaceId = await api().createWorkspace(key);
      await put(key, workspaceId, "v.txt", "one\n");
      expect((await exec(key, workspaceId, "cat v.txt")).stdout).toBe("one\n");
      await put(key, workspaceId, "v.txt", "two, longer\n");
      expect((await exec(key, workspaceId, "cat v.txt")).stdout).toBe("two, longer\n");
    });
  });
}
