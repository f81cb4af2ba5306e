/** Workspace object names: what the gateway writes, the object reads back, and nothing else parses. */
import { expect, it } from "vitest";
import { ownerOf, parseWorkspaceObjectName, workspaceObjectName } from "./names.ts";

it("reads back the owner it wrote, and refuses names that are not a workspace's", () => {
  const owner = { tenantId: "ten_06h38", workspaceId: "ws_06h39" };
  expect(parseWorkspaceObjectName(workspaceObjectName(owner))).toEqual(owner);
  for (const name of [undefined, "", "test-1234", "ten_1:", ":ws_1", "ten_1:ws_1:extra"]) {
    expect(parseWorkspaceObjectName(name)).toBeNull();
    expect(() => ownerOf(name)).toThrow(/not a workspace object's name/);
  }
});
