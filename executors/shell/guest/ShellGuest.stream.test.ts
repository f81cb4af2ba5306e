import { describe, expect, it } from "vitest";
import { sh } from "./harness.ts";

describe("shell guest: output streams while the script runs", () => {
  it("sends each command's output when it ends, not when the script ends", async () => {
    const { sink } = await sh("echo one; sleep 0.4; echo two");
    const [first, last] = [sink.pieces[0], sink.pieces.at(-1)];
    expect(sink.text("stdout")).toBe("one\ntwo\n");
    expect(last && first && last.atMs - first.atMs).toBeGreaterThanOrEqual(300);
  });

  it("streams a loop per iteration", async () => {
    const { sink } = await sh("for i in 1 2 3; do echo $i; sleep 0.15; done");
    expect(sink.pieces.map((piece) => new TextDecoder().decode(piece.data))).toEqual(["1\n", "2\n", "3\n"]);
  });

  it("keeps the order of stdout and stderr", async () => {
    const { sink } = await sh("echo a; echo b >&2; echo c; ls nope");
    const pieces = sink.pieces.map((piece) => [piece.stream, new TextDecoder().decode(piece.data)]);
    expect(pieces).toEqual([
      ["stdout", "a\n"],
      ["stderr", "b\n"],
      ["stdout", "c\n"],
      ["stderr", "ls: cannot access 'nope': No such file or directory\n"],
    ]);
  });

  it("leaves pipes, substitutions, functions and redirections to files alone", async () => {
    const { stdout, stderr, fs } = await sh(
      [
        "f() { echo in-f; echo f-err >&2; }",
        "f 2>&1 | tr a-z A-Z",
        'x=$(f 2>/dev/null); echo "got $x"',
        "ls nope |& sed 's/^/piped: /'",
        "while read -r line; do echo \"read $line\"; done <<< 'a line'",
        "echo saved > file.txt",
        "{ echo g1; echo g2 >&2; } > group.txt",
      ].join("\n"),
    );
    expect(stdout).toBe(
      "IN-F\nF-ERR\ngot in-f\npiped: ls: cannot access 'nope': No such file or directory\nread a line\n",
    );
    expect(stderr).toBe("g2\n");
    expect(fs.text("/file.txt")).toBe("saved\n");
    expect(fs.text("/group.txt")).toBe("g1\n");
  });

  it("falls back to output at the end for scripts that use exec", async () => {
    const { stdout, outcome } = await sh("exec 2>&1; echo hi; ls nope");
    expect(outcome.exitCode).toBe(2);
    expect(stdout).toBe("hi\nls: cannot access 'nope': No such file or directory\n");
  });

  it("answers a short run's output with its outcome, and streams what came before", async () => {
    const short = await sh("echo hi; echo oops >&2");
    expect(short.sink.pieces.map((piece) => [piece.stream, piece.tail])).toEqual([
      ["stdout", true],
      ["stderr", true],
    ]);
    expect([short.stdout, short.stderr]).toEqual(["hi\n", "oops\n"]);
    const streamed = await sh("echo early; sleep 0.2; echo late");
    expect(streamed.sink.pieces.map((piece) => [new TextDecoder().decode(piece.data), piece.tail])).toEqual([
      ["early\n", undefined],
      ["late\n", true],
    ]);
  });

  it("sends a large tail through the sink rather than with the outcome", async () => {
    const { sink, stdout } = await sh("seq 1 20000", { outputBytesMax: 4 * 1024 * 1024 });
    expect(stdout.length).toBe(108_894);
    expect(sink.pieces.every((piece) => !piece.tail)).toBe(true);
  });

  it("sends large output in pieces of at most 64 KiB", async () => {
    const { sink, stdout } = await sh("seq 1 200000", { outputBytesMax: 4 * 1024 * 1024 });
    expect(stdout.length).toBe(1_288_895);
    expect(Math.max(...sink.pieces.map((piece) => piece.data.length))).toBeLessThanOrEqual(64 * 1024);
  });
});
