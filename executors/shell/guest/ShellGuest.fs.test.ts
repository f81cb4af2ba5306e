import { describe, expect, it } from "vitest";
import { sh } from "./harness.ts";
import { MemoryFs } from "./memoryFs.ts";

describe("shell guest: the workspace at /workspace", () => {
  it("writes with > and >>, and reads back with cat", async () => {
    const fs = new MemoryFs();
    await sh("echo one > a.txt; echo two >> a.txt; printf three >> /workspace/a.txt", { fs });
    expect(fs.text("/a.txt")).toBe("one\ntwo\nthree");
    expect((await sh("cat a.txt", { fs })).stdout).toBe("one\ntwo\nthree");
  });

  it("reads files the file API wrote, and the other way round", async () => {
    const fs = new MemoryFs();
    fs.put("/in.txt", "from-api");
    expect((await sh("cat /workspace/in.txt", { fs })).stdout).toBe("from-api");
    await sh("printf from-executor > out.txt", { fs });
    expect(fs.text("/out.txt")).toBe("from-executor");
  });

  it("makes, lists, moves, copies and removes", async () => {
    const fs = new MemoryFs();
    const script = [
      "mkdir -p src/lib && echo 'export {}' > src/lib/a.ts",
      "cp src/lib/a.ts src/b.ts && mv src/b.ts src/c.ts",
      "cp -r src copy && rm -r copy/lib",
      "ls; ls src; ls -R copy",
    ].join("\n");
    const { stdout, outcome } = await sh(script, { fs });
    expect(outcome.exitCode).toBe(0);
    expect(stdout).toBe("copy\nsrc\nc.ts\nlib\ncopy:\nc.ts\n");
    expect([...fs.nodes.keys()].sort()).toEqual([
      "/",
      "/copy",
      "/copy/c.ts",
      "/src",
      "/src/c.ts",
      "/src/lib",
      "/src/lib/a.ts",
    ]);
  });

  it("finds, greps recursively and globs", async () => {
    const fs = new MemoryFs();
    fs.put("/a.txt", "needle\n");
    fs.put("/b.txt", "hay\n");
    fs.put("/c.md", "needle\n");
    fs.put("/deep/er/d.txt", "more needle\n");
    const { stdout } = await sh("echo *.txt; find . -name '*.txt' | sort; grep -rl needle . | sort; ls deep/*/", {
      fs,
    });
    // just-bash's grep -r drops the leading "./" that GNU grep prints.
    expect(stdout).toBe("a.txt b.txt\n./a.txt\n./b.txt\n./deep/er/d.txt\na.txt\nc.md\ndeep/er/d.txt\nd.txt\n");
  });

  it("lists a directory in one call", async () => {
    const fs = new MemoryFs();
    for (let i = 0; i < 20; i++) fs.put(`/many/f${i}`, "x");
    await sh("find many -type f | wc -l", { fs });
    expect(fs.calls.filter((call) => call === "readdir")).toHaveLength(1);
    expect(fs.calls.filter((call) => call === "stat" || call === "lstat").length).toBeLessThan(5);
  });

  it("keeps /tmp and /home/user as scratch: out of the workspace, gone next run", async () => {
    const fs = new MemoryFs();
    const first = await sh("echo x > /tmp/t; echo y > ~/h; cat /tmp/t ~/h; ls /", { fs });
    expect(first.stdout).toBe("x\ny\nbin\ndev\nhome\nproc\ntmp\nusr\nworkspace\n");
    expect([...fs.nodes.keys()]).toEqual(["/"]);
    const second = await sh("ls /tmp; cat /tmp/t", { fs });
    expect(second.stdout).toBe("");
    expect(second.stderr).toBe("cat: /tmp/t: No such file or directory\n");
  });

  it("prints errors the way bash does", async () => {
    const fs = new MemoryFs();
    fs.put("/dir/f", "");
    const { stderr } = await sh("cat nope; ls /workspace/nope; cd nope; mkdir dir; rm dir; echo x > no/such", { fs });
    expect(stderr.split("\n")).toEqual([
      "cat: nope: No such file or directory",
      "ls: cannot access '/workspace/nope': No such file or directory",
      "bash: cd: nope: No such file or directory",
      "mkdir: cannot create directory ‘dir’: File exists",
      "rm: cannot remove 'dir': Is a directory",
      // just-bash prints a failed redirection's error as it was thrown (bash says "bash: no/such: No such file…").
      "bash: ENOENT: no such file or directory, open '/workspace/no/such'",
      "",
    ]);
  });

  it("round-trips binary files byte for byte", async () => {
    const fs = new MemoryFs();
    const bytes = Uint8Array.from({ length: 256 }, (_, i) => i);
    fs.put("/bin.dat", bytes);
    const { sink } = await sh(
      "cp bin.dat copy.dat; cat bin.dat > cat.dat; cat bin.dat | gzip | gunzip > gz.dat; cat bin.dat",
      { fs },
    );
    for (const path of ["/copy.dat", "/cat.dat", "/gz.dat"]) {
      const node = fs.nodes.get(path);
      expect(node?.type === "file" && [...node.bytes]).toEqual([...bytes]);
    }
    expect([...sink.bytes("stdout")]).toEqual([...bytes]);
  });

  it("translates absolute symlink targets to and from the workspace root", async () => {
    const fs = new MemoryFs();
    fs.put("/real/file", "linked\n");
    const { stdout } = await sh(
      "ln -s /workspace/real/file abs; ln -s real/file rel; readlink abs; cat abs rel; cd real && pwd -P",
      {
        fs,
      },
    );
    expect(fs.nodes.get("/abs")).toMatchObject({ type: "symlink", target: "/real/file" });
    expect(stdout).toBe("/workspace/real/file\nlinked\nlinked\n/workspace/real\n");
  });

  it("touches existing and new files", async () => {
    const fs = new MemoryFs();
    fs.put("/old", "keep");
    const { outcome } = await sh("touch old new", { fs });
    expect(outcome.exitCode).toBe(0);
    expect(fs.text("/old")).toBe("keep");
    expect(fs.text("/new")).toBe("");
  });
});

describe("shell guest: links and stat", () => {
  it("ln links, stat reads link counts, owners and lstat by default", async () => {
    const fs = new MemoryFs();
    const { stdout, stderr } = await sh(
      "echo x > a; ln a b; ln -s a l; stat -c '%n %h %u %A' a b l; stat -L -c '%n %F' l; stat --printf='%s\\n' a; stat none",
      { fs },
    );
    expect(stdout).toBe("a 2 1000 -rw-r--r--\nb 2 1000 -rw-r--r--\nl 1 1000 lrwxrwxrwx\nl regular file\n2\n");
    expect(stderr).toBe("stat: cannot statx 'none': No such file or directory\n");
    await sh("echo y >> b", { fs });
    expect(fs.text("/a")).toBe("x\ny\n");
  });
});
