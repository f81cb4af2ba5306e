/**
 * The conflict rule, from computerd's side (docs/container-sync.md, "Conflicts"): each push
 * carries its base, a change made on top of the object's current version lands, a change the
 * object moved past is kept beside the object's version, and the box ends up seeing both.
 * The twin holds changes back with `refuse`, which is how a change stays unpushed here.
 */
import { describe, expect, it } from "vitest";
import { eventually, mountEnv, mountModes, useDaemon } from "./testing/harness.ts";

const envs = { native: await mountEnv("native"), fuse: await mountEnv("fuse") };

describe.each(mountModes)("%s mount", (mode) => {
  const fixture = useDaemon(undefined, envs[mode]);
  const sh = (command: string) => fixture.sh(command);
  const changed = (rev: number) => fixture.session.computer.changed(rev);

  /**
   * Lets the pending changes through and pushes them, announcing the object's revision after
   * (as the object does after every change): the conflict copies it made come down with it.
   * Returns the conflicts the next command reports.
   */
  async function release() {
    fixture.twin.refuse = null;
    await fixture.session.computer.flush();
    await changed(fixture.twin.revision);
    return (await sh("true")).outcome.conflicts;
  }

  /**
   * A twin hook that loses the answer to the first batch touching `path` only, calling
   * `onLost` then. The daemon may resend at once or at its next flush; either way exactly one
   * answer is lost, whatever the number of batches the hook is asked about.
   */
  function loseFirstAnswerFor(path: string, onLost: () => void) {
    let done = false;
    return (ops: { path: string }[]) => {
      if (done || !ops.some((op) => op.path === path)) return false;
      done = true;
      onLost();
      return true;
    };
  }

  describe("conflicts", () => {
    it("applies a change the box made on top of the object's version, with no conflict", async () => {
      await changed(fixture.twin.writeFile("/seq.txt", "from the API\n"));
      await eventually(async () => (await sh("cat seq.txt")).stdout === "from the API\n");
      const r = await sh("echo from the box > seq.txt");
      expect(fixture.twin.text("/seq.txt")).toBe("from the box\n");
      expect(r.outcome.conflicts).toEqual([]);
      const pushed = fixture.twin.applied.filter((op) => op.path === "/seq.txt").at(-1);
      expect(pushed?.base).toEqual({ type: "file", etag: expect.any(String) });
    });

    it("keeps the object's newer version and the box's unpushed one beside it, and shows both in the box", async () => {
      await changed(fixture.twin.writeFile("/report.txt", "v1\n"));
      await eventually(async () => (await sh("cat report.txt")).stdout === "v1\n");
      fixture.twin.refuse = (op) => op.path === "/report.txt";
      await sh("echo v2 from the box > report.txt");
      // The API writes the same file while the box's change is still pending.
      await changed(fixture.twin.writeFile("/report.txt", "v2 from the API\n"));
      // Pending, the box keeps its own version.
      expect((await sh("cat report.txt")).stdout).toBe("v2 from the box\n");
      const conflicts = await release();

      expect(fixture.twin.text("/report.txt")).toBe("v2 from the API\n");
      const [copy] = fixture.twin.namesIn("/", "report.conflict-");
      expect(copy).toMatch(/^\/report\.conflict-[0-9a-f]{8}\.txt$/);
      expect(fixture.twin.text(copy as string)).toBe("v2 from the box\n");
      // The next command hears of it, and sees the object's version with the copy beside it.
      expect(conflicts).toEqual([{ path: "/report.txt", savedAs: copy }]);
      await eventually(
        async () => (await sh(`cat report.txt .${copy}`)).stdout === "v2 from the API\nv2 from the box\n",
      );
      // Reported once: a later command does not hear of it again.
      expect((await sh("true")).outcome.conflicts).toEqual([]);
    });

    it("makes no second copy when a batch that conflicted is sent again after its answer was lost", async () => {
      fixture.twin.refuse = (op) => op.path === "/twice.txt";
      await sh("echo box > twice.txt");
      await changed(fixture.twin.writeFile("/twice.txt", "API\n"));
      fixture.twin.refuse = null;
      let lost = 0;
      fixture.twin.loseAnswer = loseFirstAnswerFor("/twice.txt", () => lost++);
      await fixture.session.computer.flush();
      fixture.twin.loseAnswer = null;
      await fixture.session.computer.flush();
      expect(lost).toBe(1);
      expect(fixture.twin.text("/twice.txt")).toBe("API\n");
      const copies = fixture.twin.namesIn("/", "twice.conflict-");
      expect(copies).toHaveLength(1);
      expect(fixture.twin.text(copies[0] as string)).toBe("box\n");
    });

    it("takes a batch that applied cleanly and is sent again after its answer was lost as no change", async () => {
      let lost = 0;
      fixture.twin.loseAnswer = loseFirstAnswerFor("/again.txt", () => lost++);
      await sh("echo once > again.txt");
      fixture.twin.loseAnswer = null;
      const r = await sh("true");
      expect(lost).toBe(1);
      expect(r.outcome.conflicts).toEqual([]);
      expect(fixture.twin.text("/again.txt")).toBe("once\n");
      expect(fixture.twin.namesIn("/", "again.conflict-")).toEqual([]);
    });

    it("takes an API write made after a push whose answer was lost as sequential, not a conflict", async () => {
      let lost = 0;
      fixture.twin.loseAnswer = loseFirstAnswerFor("/late.txt", () => lost++);
      // Pushed and applied, but the daemon never hears so (as when it dies mid-call).
      await sh("echo box > late.txt");
      fixture.twin.loseAnswer = null;
      expect(lost).toBe(1);
      // The API writes after the box's version landed.
      fixture.twin.writeFile("/late.txt", "API after the box\n");
      expect(await release()).toEqual([]);
      expect(fixture.twin.text("/late.txt")).toBe("API after the box\n");
      expect(fixture.twin.namesIn("/", "late.conflict-")).toEqual([]);
      await eventually(async () => (await sh("cat late.txt")).stdout === "API after the box\n");
    });

    it("removes from a directory only what the box knew, keeping a file the API added meanwhile", async () => {
      await changed(fixture.twin.seed({ "/d/a.txt": "a\n", "/d/b.txt": "b\n" }));
      await eventually(async () => (await sh("cat d/a.txt d/b.txt")).stdout === "a\nb\n");
      fixture.twin.refuse = (op) => op.path === "/d" || op.path.startsWith("/d/");
      await sh("rm -r d");
      // Not announced before the push, as when the daemon was down: had the box pulled it, the
      // directory would be back in the box already, and its removal no change of the box's.
      fixture.twin.writeFile("/d/new.txt", "added by the API\n");
      expect(await release()).toEqual([{ path: "/d", savedAs: null }]);
      expect(fixture.twin.entry("/d/a.txt")).toBeNull();
      expect(fixture.twin.entry("/d/b.txt")).toBeNull();
      expect(fixture.twin.text("/d/new.txt")).toBe("added by the API\n");
      await eventually(async () => (await sh("ls d")).stdout === "new.txt\n");
    });

    it("shows the API's file where the box made and removed a file of the same name", async () => {
      fixture.twin.refuse = (op) => op.path === "/tmp.txt";
      await sh("echo scratch > tmp.txt && rm tmp.txt");
      await changed(fixture.twin.writeFile("/tmp.txt", "the API's\n"));
      // The box changed nothing there in the end: not a conflict.
      expect(await release()).toEqual([]);
      expect(fixture.twin.text("/tmp.txt")).toBe("the API's\n");
      await eventually(async () => (await sh("cat tmp.txt")).stdout === "the API's\n");
    });

    it("saves a directory the box made where the API made a file as that name's conflict copy, entries and all", async () => {
      fixture.twin.refuse = (op) => op.path === "/out" || op.path.startsWith("/out/");
      await sh("mkdir -p out/sub && echo 1 > out/one && echo 2 > out/sub/two");
      await changed(fixture.twin.writeFile("/out", "the API's file\n"));
      const conflicts = await release();
      expect(fixture.twin.text("/out")).toBe("the API's file\n");
      const [copy] = fixture.twin.namesIn("/", "out.conflict-");
      expect(fixture.twin.text(`${copy}/one`)).toBe("1\n");
      expect(fixture.twin.text(`${copy}/sub/two`)).toBe("2\n");
      expect(conflicts).toContainEqual({ path: "/out", savedAs: copy });
      expect(conflicts).toContainEqual({ path: "/out/sub/two", savedAs: `${copy}/sub/two` });
      await eventually(async () => (await sh(`cat out .${copy}/sub/two`)).stdout === "the API's file\n2\n");
    });
  });
});
