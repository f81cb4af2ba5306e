import { expect, it } from "vitest";
import { joinRemote, parseRemote } from "../src/remotePath.ts";

it("reads ws:<id>:<path>, with or without the leading and trailing slash", () => {
  expect(parseRemote("ws:ws_abc:/src/a.ts")).toEqual({
    workspaceId: "ws_abc",
    path: "/src/a.ts",
    intoDirectory: false,
  });
  expect(parseRemote("ws:ws_abc:src/")).toEqual({ workspaceId: "ws_abc", path: "/src", intoDirectory: true });
  expect(parseRemote("ws:ws_abc:")).toEqual({ workspaceId: "ws_abc", path: "/", intoDirectory: true });
  expect(parseRemote("ws:ws_abc:/")).toEqual({ workspaceId: "ws_abc", path: "/", intoDirectory: true });
});

it("takes anything else as a local path, a Windows drive letter included", () => {
  expect(parseRemote("./ws:x:y")).toBeNull();
  expect(parseRemote("C:\\work")).toBeNull();
  expect(parseRemote("notes.md")).toBeNull();
});

it("joins workspace paths with one slash", () => {
  expect(joinRemote("/", "a.txt")).toBe("/a.txt");
  expect(joinRemote("/src/", "/a.txt")).toBe("/src/a.txt");
});
