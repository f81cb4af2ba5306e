/**
 * Forks through the TypeScript SDK on the running platform: a container run in the source
 * writes a file, a fork's own container reads it at once (its computer hydrates from the
 * fork, which reads the bytes through from the source), and the fork still reads it after
 * the source is deleted.
 */
import { Cubicle, NotFoundError } from "@cubicle/sdk";
import { beforeAll, describe, expect, it } from "vitest";
import { sharedPlatform } from "./sharedPlatform.ts";

const platform = sharedPlatform();
let cubicle: Cubicle;

beforeAll(async () => {
  const signed = await new Cubicle({ baseUrl: platform.url }).signup({ email: "fork-e2e@example.com" });
  cubicle = new Cubicle({ baseUrl: platform.url, apiKey: signed.apiKey.key });
});

describe("a fork through the TypeScript SDK", () => {
  it("runs a container command over the source's files at once, and keeps them when the source goes", async () => {
    const source = await cubicle.workspaces.create({ name: "source" });
    const wrote = await source.exec({
      executor: "container",
      command: "mkdir -p out && seq 1 20000 > out/numbers.txt && printf 'from the source\\n' > out/note.txt",
    });
    expect(wrote).toMatchObject({ exitCode: 0 });
    const snapshot = await source.snapshots.create({ name: "written" });
    await source.files.write("/out/note.txt", "changed after the snapshot\n");

    const fork = await source.fork({ snapshotId: snapshot.id, name: "try b" });
    expect(fork.data).toMatchObject({
      name: "try b",
      forkedFrom: { workspaceId: source.id, revision: snapshot.revision },
    });
    expect(fork.data.storageBytes).toBeGreaterThan(100_000);
    const read = await fork.exec({
      executor: "container",
      command: "cat out/note.txt; wc -l < out/numbers.txt; tail -n 1 out/numbers.txt",
    });
    expect(read).toMatchObject({ exitCode: 0, stdout: "from the source\n20000\n20000\n" });

    await source.delete();
    await expect(cubicle.workspaces.get(source.id)).rejects.toBeInstanceOf(NotFoundError);
    expect(await fork.files.readText("/out/note.txt")).toBe("from the source\n");
    const again = await fork.exec({
      executor: "container",
      command: "seq 1 20000 | cmp - out/numbers.txt && echo same; cat out/note.txt",
    });
    expect(again).toMatchObject({ exitCode: 0, stdout: "same\nfrom the source\n" });
  });
});
