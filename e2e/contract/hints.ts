/**
 * Values the schemas alone would almost never produce but a handler needs to get past its
 * first lookup: the fixture's ids and paths, commands that run, a real ETag. They are mixed
 * in with the schema's own values (arbitraries.ts), never instead of them, and are
 * classified like any other value, so a hint outside the schema is simply an invalid case.
 *
 * Three hints bound cost rather than reach: `timeoutMs` stays at a few seconds so a run that
 * happens to loop cannot eat the test's time budget, `size` keeps truncates (and later
 * reads) small, and destructive operations get
 * disposable ids (`$disposable:…`, made at send time) instead of the fixture's own.
 */
import fc from "fast-check";
import type { Hints } from "./arbitraries.ts";
import type { Fixture } from "./fixture.ts";

/** A placeholder the sender replaces with a fresh id of that kind (fixture.disposable). */
export const DISPOSABLE = /^\$disposable:(workspace|key|share)$/;

const FILE_PATHS = [
  "/hello.txt",
  "/dir/a.txt",
  "/dir",
  "/dir/sub/b.bin",
  "/link",
  "/src/main.ts",
  "/new/file.txt",
  "/",
];

export function hintsFor(operationId: string, fixture: Fixture): Hints {
  const destructive: Record<string, string> = {
    deleteWorkspace: "path:workspaceId",
    revokeKey: "path:keyId",
    revokeShare: "path:shareId",
  };
  return (name) => {
    if (destructive[operationId] === name) {
      const kind = name === "path:workspaceId" ? "workspace" : name === "path:keyId" ? "key" : "share";
      return fc.constant(`$disposable:${kind}`);
    }
    return common(fixture)[name];
  };
}

function common(fixture: Fixture): Record<string, ReturnType<Hints>> {
  const bodyPath = fc.constantFrom(...FILE_PATHS);
  return {
    "path:workspaceId": fc.constant(fixture.workspaceId),
    "path:execId": fc.constant(fixture.execId),
    "path:artifactId": fc.constant(fixture.artifactId),
    "path:shareId": fc.constant(fixture.shareId),
    "path:keyId": fc.constant(fixture.otherKeyId),
    "path:path": bodyPath.map((p) => p.slice(1)).filter((p) => p !== ""),
    "query:path": bodyPath,
    "query:workspaceId": fc.constant(fixture.workspaceId),
    "query:keyId": fc.constantFrom(fixture.keyId, fixture.otherKeyId),
    "header:if-match": fc.constantFrom(
      "*",
      fixture.helloEtag,
      `${fixture.helloEtag}, "other"`,
      `W/${fixture.helloEtag}`,
    ),
    "header:if-none-match": fc.constantFrom("*", fixture.helloEtag),
    "header:range": fc.constantFrom("bytes=0-3", "bytes=5-", "bytes=-4", "bytes=9-1", "bytes=0-0,2-3", "items=0-1"),
    "header:last-event-id": fc.constantFrom("0", "1", "99"),
    path: bodyPath,
    from: bodyPath,
    existing: bodyPath,
    mtimeNs: fc.constantFrom("0", "-1", "1700000000123456789"),
    uid: fc.constantFrom(0, 1000, 65534),
    gid: fc.constantFrom(0, 1000, 65534),
    to: fc.constantFrom("/moved.txt", "/dir/copy", "/hello.txt", "/dir/sub"),
    pathPrefix: fc.constantFrom("/dir", "/src", "/"),
    target: fc.constantFrom("hello.txt", "../hello.txt", "/dir/a.txt", "missing"),
    workspaceId: fc.constant(fixture.workspaceId),
    workspaceIds: fc.constant([fixture.workspaceId]),
    cwd: fc.constantFrom("/workspace", "/workspace/dir", "/tmp", "/tmp/scratch", "/workspacex", "/tmpx"),
    command: fc.constantFrom("echo hi", "ls -la", "cat hello.txt", "exit 3", "echo err >&2", "pwd"),
    code: fc.constantFrom(
      "export default () => 1;",
      "export default (x) => ({ x });",
      "export default () => { throw new Error('no') };",
    ),
    timeoutMs: { only: fc.integer({ min: 1, max: 3_000 }) },
    // A truncate to gigabytes is valid and answered, but takes seconds, and so does every
    // read of the file after it: sizes up to 1 MiB (invalid draws still cross the bound).
    size: { only: fc.integer({ min: 0, max: 1024 * 1024 }) },
    pattern: fc.constantFrom("hello", "^a", "l+", "(", "[a-"),
    env: fc.constantFrom({}, { GREETING: "hi" }),
    egress: fc.constantFrom(false, true, { allow: ["example.com", "*.npmjs.org:443"] }),
    ops: fc.constantFrom(
      [{ op: "write", path: "/batch/new.txt", content: "new" }],
      [
        { op: "write", path: "/batch/a.txt", contentBase64: "aGk=" },
        { op: "move", from: "/batch/a.txt", to: "/batch/b.txt" },
        { op: "delete", path: "/batch/b.txt" },
      ],
      [{ op: "write", path: "/hello.txt", content: "again", ifMatch: "*" }],
    ),
    include: fc.constantFrom(["*.txt"], ["**/*.bin"], ["dir/**"]),
    name: fc.constantFrom("*.txt", "dir/*", "fuzz"),
    email: fc.uuid().map((id) => `fuzz-${id}@example.com`),
  };
}
