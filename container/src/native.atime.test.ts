/**
 * Access times on the native mount are the box's: computerd reads what it pushes through a
 * view of its own that never moves them (native/disk.ts), so a push, even of a symlink, which
 * readlink cannot read quietly, leaves the time a command set.
 */
import { describe, expect, it } from "vitest";
import { ensureFanotifyBinary } from "../native/build.ts";
import { useDaemon } from "./testing/harness.ts";
import { MemoryWorkspace } from "./testing/memoryWorkspace.ts";

const fanotify = await ensureFanotifyBinary();
if (!fanotify.ok) throw new Error(fanotify.reason);
const fixture = useDaemon(() => new MemoryWorkspace(), {
  COMPUTERD_MOUNT_MODE: "native",
  COMPUTERD_FANOTIFY_BIN: fanotify.path,
});

describe("access times on the native mount", () => {
  it("survive the push of a symlink and a file whose mtime is newer than their atime", async () => {
    // atime older than mtime: the case relatime would update on the next read.
    const set = await fixture.sh(
      [
        "mkdir -p times && cd times && echo x > file && ln -s file link",
        "touch -h -a -d @1960000000 link file && touch -h -m -d @1970000000 link file",
      ].join(" && "),
    );
    expect(set.outcome.exitCode, set.stderr).toBe(0);
    // The command's outcome waits for its push, so every read computerd made is done.
    expect((await fixture.twin.lstatMany(["/times/link"]))[0]?.type).toBe("symlink");
    const read = await fixture.sh("cd times && stat -c '%n %X %Y' link file");
    expect(read.stdout, read.stderr).toBe("link 1960000000 1970000000\nfile 1960000000 1970000000\n");
    // The box's own reads still follow relatime.
    const own = await fixture.sh(
      "cd times && cat file >/dev/null && readlink link >/dev/null && stat -c '%X' link file",
    );
    expect(own.stdout.split("\n").filter(Boolean).map(Number)).not.toContain(1960000000);
  });
});
