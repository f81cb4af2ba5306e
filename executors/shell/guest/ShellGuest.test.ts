import { describe, expect, it } from "vitest";
import { sh } from "./harness.ts";
import { MemoryFs } from "./memoryFs.ts";

describe("shell guest: the basics", () => {
  it("echoes to stdout and completes with 0", async () => {
    const { outcome, stdout, stderr } = await sh("echo hello");
    expect(outcome).toEqual({ status: "completed", exitCode: 0 });
    expect(stdout).toBe("hello\n");
    expect(stderr).toBe("");
  });

  it("reports a non-zero exit code as failed", async () => {
    expect((await sh("exit 3")).outcome).toEqual({ status: "failed", exitCode: 3 });
    expect((await sh("false")).outcome).toEqual({ status: "failed", exitCode: 1 });
    expect((await sh("echo a; exit 7; echo b")).stdout).toBe("a\n");
    expect((await sh("nosuchcommand")).outcome.exitCode).toBe(127);
  });

  it("keeps stderr apart from stdout, and honours 2>&1 and >&2", async () => {
    const apart = await sh("echo oops >&2; echo fine");
    expect(apart).toMatchObject({ stdout: "fine\n", stderr: "oops\n", outcome: { exitCode: 0 } });
    const merged = await sh("{ echo out; echo err >&2; } 2>&1");
    expect(merged).toMatchObject({ stdout: "out\nerr\n", stderr: "" });
  });

  it("feeds stdin, then EOF", async () => {
    const stdin = new TextEncoder().encode("line one\nline two\n");
    expect((await sh("cat", { stdin })).stdout).toBe("line one\nline two\n");
    expect((await sh("wc -l", { stdin })).stdout.trim()).toBe("2");
    expect((await sh('read a; read b; echo "$b|$a"', { stdin })).stdout).toBe("line two|line one\n");
    expect((await sh("cat")).stdout).toBe("");
  });

  it("passes environment variables, with HOME, PATH and PWD defaulted", async () => {
    const { stdout } = await sh('echo "$NAME $HOME $PATH $PWD"; printenv NAME', { env: { NAME: "cubicle" } });
    expect(stdout).toBe("cubicle /home/user /usr/bin:/bin /workspace\ncubicle\n");
    expect((await sh("echo $HOME", { env: { HOME: "/workspace" } })).stdout).toBe("/workspace\n");
  });

  it("starts in /workspace, or the cwd asked for", async () => {
    expect((await sh("pwd")).stdout).toBe("/workspace\n");
    const fs = new MemoryFs();
    fs.put("/sub/keep", "");
    expect((await sh("pwd; ls", { fs, cwd: "/workspace/sub" })).stdout).toBe("/workspace/sub\nkeep\n");
    expect((await sh("pwd", { cwd: "/tmp" })).stdout).toBe("/tmp\n");
  });

  it("refuses a working directory that does not exist", async () => {
    const { outcome, stderr } = await sh("pwd", { cwd: "/workspace/nope" });
    expect(outcome).toMatchObject({ status: "failed", exitCode: 1 });
    expect(outcome.error).toContain("/workspace/nope");
    expect(stderr).toBe("bash: cd: /workspace/nope: No such file or directory\n");
  });

  it("keeps unicode intact", async () => {
    expect((await sh("echo 'héllo ✓ 日本'")).stdout).toBe("héllo ✓ 日本\n");
    expect((await sh("printf 'caf\\xc3\\xa9\\n'")).stdout).toBe("café\n");
    expect((await sh("echo café | tr a-z A-Z")).stdout).toBe("CAFé\n");
  });

  it("writes bytes as bytes", async () => {
    const printf = await sh("printf '\\x00\\xff'");
    expect([...printf.sink.bytes("stdout")]).toEqual([0x00, 0xff]);
    const decoded = await sh("echo AP8BgA== | base64 -d");
    expect([...decoded.sink.bytes("stdout")]).toEqual([0x00, 0xff, 0x01, 0x80]);
  });

  it("writes the bytes escapes make, as bash does (executors/shell/patches/rawBytes.ts)", async () => {
    const cases: [string, number[]][] = [
      ["printf '\\xff\\n'", [0xff, 0x0a]],
      ["printf '\\303\\251'", [0xc3, 0xa9]],
      ["echo -e '\\xff'", [0xff, 0x0a]],
      ["printf %s $'\\377'", [0xff]],
      ["printf %c é", [0xc3]],
    ];
    for (const [script, bytes] of cases) {
      expect([...(await sh(script)).sink.bytes("stdout")], script).toEqual(bytes);
    }
  });

  it("has /dev/urandom and /dev/zero", async () => {
    expect((await sh("head -c 16 /dev/urandom | wc -c; head -c 3 /dev/zero | od -An -b")).stdout).toBe(
      "16\n 000 000 000\n",
    );
  });

  it("lists its commands in /usr/bin and /bin, which no run can change for the next", async () => {
    const listed = await sh("ls /usr/bin | grep -cx cat; ls /bin | wc -l; test -x /bin/sort && echo runnable");
    const [cat, count, runnable] = listed.stdout.split("\n");
    expect(cat).toBe("1");
    expect(Number(count)).toBeGreaterThan(50);
    expect(runnable).toBe("runnable");
    // As for a user who is not root on Linux; just-bash ends a script whose redirection fails.
    const written = await sh("echo x > /usr/bin/mine");
    expect(written.outcome.exitCode).toBe(1);
    expect(written.stderr).toMatch(/permission denied/i);
    const changed = await sh("rm /bin/cat; echo $?; mkdir /usr/bin/d; echo $?; chmod 600 /bin/sort; echo $?");
    expect(changed.stdout).toBe("1\n1\n1\n");
    expect(changed.stderr).toMatch(/cannot remove '\/bin\/cat': .*permission denied/i);
    const after = await sh("ls /usr/bin | grep -cx -e mine -e d; echo kept | cat; test -x /bin/sort && echo runnable");
    expect(after.stdout).toBe("0\nkept\nrunnable\n");
  });

  it("supports the usual shell constructs", async () => {
    const script = [
      'f() { echo "f:$1"; }',
      "for i in 1 2; do f $i; done",
      "x=$(echo sub | tr a-z A-Z); echo $x",
      "if [ -d /tmp ]; then echo dir; fi",
      "case b in a) echo A;; b) echo B;; esac",
      "echo a b c | xargs -n 1 echo | sort -r | head -1",
      "bash -c 'echo nested'",
      "cat <<EOF\n  indented $x\nEOF",
    ].join("\n");
    expect((await sh(script)).stdout).toBe("f:1\nf:2\nSUB\ndir\nB\nc\nnested\n  indented SUB\n");
  });

  it("has curl only with egress", async () => {
    const { outcome, stderr } = await sh("curl -s https://example.com");
    expect(outcome.exitCode).toBe(127);
    expect(stderr).toContain("curl: command not found");
    expect((await sh("curl --help", { egress: true })).outcome.exitCode).toBe(0);
  });
});
