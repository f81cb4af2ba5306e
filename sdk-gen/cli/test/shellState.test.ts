import { describe, expect, it } from "vitest";
import { MarkerSplitter, ShellState } from "../src/shellState.ts";

describe("MarkerSplitter", () => {
  it("shows the output and keeps the trailer, however the stream is cut", () => {
    const state = new ShellState();
    const stream = `line one\nline two\n\n${state.marker}\n/workspace/src\nHOME=/root\n`;
    for (let size = 1; size <= stream.length; size++) {
      const splitter = new MarkerSplitter(state.marker);
      let shown = "";
      for (let at = 0; at < stream.length; at += size) shown += splitter.push(stream.slice(at, at + size));
      const { rest, trailer } = splitter.end();
      expect(shown + rest, `chunks of ${size}`).toBe("line one\nline two\n");
      expect(trailer).toBe("/workspace/src\nHOME=/root\n");
    }
  });

  it("shows everything when the run ended before the trailer (an `exit` in the line)", () => {
    const splitter = new MarkerSplitter(new ShellState().marker);
    const shown = splitter.push("bye\n\n__CUBICLE_STA");
    expect(shown + splitter.end().rest).toBe("bye\n\n__CUBICLE_STA");
    expect(splitter.end().trailer).toBeNull();
  });
});

describe("ShellState", () => {
  it("carries the directory and the variables the user set, and forgets unset ones", () => {
    const state = new ShellState();
    state.setBaseline("/workspace\nHOME=/home/user\nPATH=/bin\nSHLVL=1\n");
    expect(
      state.absorb("/workspace/src\nHOME=/home/user\nPATH=/bin\nFOO=bar baz\nSHLVL=2\nPWD=/workspace/src\n"),
    ).toBeNull();
    expect(state.cwd).toBe("/workspace/src");
    expect(state.env).toEqual({ FOO: "bar baz" });
    state.absorb("/workspace/src\nHOME=/home/user\nPATH=/usr/local/bin:/bin\n");
    expect(state.env).toEqual({ PATH: "/usr/local/bin:/bin" });
  });

  it("stays in its directory when a run ends outside /workspace and /tmp", () => {
    const state = new ShellState();
    expect(state.absorb("/etc\n")).toMatch(/outside \/workspace and \/tmp, .*staying in \/workspace$/);
    expect(state.cwd).toBe("/workspace");
    expect(state.absorb("/tmp/x\n")).toBeNull();
    expect(state.cwd).toBe("/tmp/x");
    // `/workspacefoo` is not under /workspace.
    expect(state.absorb("/workspacefoo\n")).not.toBeNull();
  });

  it("wraps a line so the trailer reports the line's own exit status", () => {
    const script = new ShellState().wrap("false");
    expect(script.startsWith("false\n__cubicle_status=$?\n")).toBe(true);
    expect(script.trimEnd().endsWith("exit $__cubicle_status")).toBe(true);
  });
});
