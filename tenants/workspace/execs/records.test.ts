import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { execLimits } from "../../../executors/limits.ts";
import type { WorkspaceDO } from "../WorkspaceDO.ts";
import { ExecRecords, migrateExecs } from "./records.ts";

async function withRecords<T>(fn: (records: ExecRecords, clock: { nowMs: number }) => T): Promise<T> {
  const stub = env.WORKSPACE.getByName(`records-${crypto.randomUUID()}`);
  return runInDurableObject(stub, (_instance: WorkspaceDO, state) => {
    // An object that has stored nothing builds its tables on first use (WorkspaceDO): here, now.
    migrateExecs(state.storage);
    const clock = { nowMs: Date.now() };
    return fn(new ExecRecords(state.storage.sql, () => clock.nowMs), clock);
  });
}

const bytes = (text: string) => new TextEncoder().encode(text);

describe("exec records", () => {
  it("numbers output events in order and ends with one exit event", () =>
    withRecords((records) => {
      records.create("ex_a", "shell", "echo a\necho b", null, 1000);
      records.append("ex_a", "stdout", bytes("a\n"));
      records.append("ex_a", "stderr", bytes("b\n"));
      records.finish("ex_a", { status: "completed", exitCode: 0 });
      expect(records.finish("ex_a", { status: "failed", exitCode: 1 })).toBeNull();
      expect(records.append("ex_a", "stdout", bytes("late"))).toEqual([]);
      const events = records.output("ex_a", 0);
      expect(events.map((e) => [e.seq, e.stream])).toEqual([
        [1, "stdout"],
        [2, "stderr"],
        [3, "exit"],
      ]);
      expect(records.get("ex_a")).toMatchObject({ status: "completed", exitCode: 0, summary: "echo a", nextSeq: 4 });
    }));

  it("ends a run with the output kept for its answer, within the cap, and answers the record as stored", () =>
    withRecords((records) => {
      records.create("ex_t", "shell", "echo", null, 6);
      records.append("ex_t", "stdout", bytes("abc"));
      const tail = [
        { stream: "stderr" as const, data: bytes("de") },
        { stream: "stdout" as const, data: bytes("fghij") },
        { stream: "stdout" as const, data: bytes("never") },
      ];
      const finished = records.finish("ex_t", { status: "completed", exitCode: 0 }, tail);
      expect(finished?.events.map((e) => [e.seq, e.stream])).toEqual([
        [2, "stderr"],
        [3, "stdout"],
        [4, "stderr"],
        [5, "exit"],
      ]);
      expect(finished?.record).toEqual(records.get("ex_t"));
      expect(finished?.record).toMatchObject({ status: "completed", outputBytes: 6, truncated: true, nextSeq: 6 });
      const stored = records.output("ex_t", 0).filter((e) => e.stream === "stdout");
      expect(new TextDecoder().decode(stored.at(-1)?.data)).toBe("f");
      expect(records.finish("ex_t", { status: "failed", exitCode: 1 }, tail)).toBeNull();
    }));

  it("keeps a container run's conflicts in its record and its exit event, and none for others", () =>
    withRecords((records) => {
      const conflicts = [
        { path: "/report.txt", savedAs: "/report.conflict-0badf00d.txt" },
        { path: "/old", savedAs: null },
      ];
      records.create("ex_c", "container", "make", null, 1000);
      records.finish("ex_c", { status: "completed", exitCode: 0, conflicts });
      expect(records.get("ex_c")?.conflicts).toEqual(conflicts);
      const exit = records.output("ex_c", 0).at(-1);
      expect(JSON.parse(new TextDecoder().decode(exit?.data))).toMatchObject({ conflicts });
      records.create("ex_d", "shell", "true", null, 1000);
      records.finish("ex_d", { status: "completed", exitCode: 0 });
      expect(records.get("ex_d")?.conflicts).toEqual([]);
    }));

  it("splits large output into bounded pieces and marks truncation once", () =>
    withRecords((records) => {
      const cap = execLimits.outputPieceBytesMax * 2 + 10;
      records.create("ex_b", "shell", "yes", null, cap);
      records.append("ex_b", "stdout", new Uint8Array(execLimits.outputPieceBytesMax * 2));
      records.append("ex_b", "stdout", new Uint8Array(100));
      records.append("ex_b", "stdout", new Uint8Array(100));
      const events = records.output("ex_b", 0);
      expect(events.every((e) => e.data.byteLength <= execLimits.outputPieceBytesMax)).toBe(true);
      const markers = events.filter((e) => new TextDecoder().decode(e.data).includes("output truncated"));
      expect(markers).toHaveLength(1);
      expect(records.get("ex_b")).toMatchObject({ truncated: true, outputBytes: cap });
    }));

  it("ends runs a previous instance left running", () =>
    withRecords((records) => {
      records.create("ex_c", "shell", "sleep 100", null, 1000);
      expect(records.abandonRunning()).toEqual(["ex_c"]);
      expect(records.get("ex_c")).toMatchObject({ status: "failed", exitCode: 137 });
    }));

  it("prunes by age and by count, never a running record", () =>
    withRecords((records, clock) => {
      records.create("ex_old", "shell", "old", null, 10);
      records.finish("ex_old", { status: "completed", exitCode: 0 });
      records.create("ex_running", "shell", "still going", null, 10);
      clock.nowMs += execLimits.recordAgeMsMax + 1;
      records.create("ex_new", "shell", "new", null, 10);
      records.finish("ex_new", { status: "completed", exitCode: 0 });
      expect(records.prune()).toBe(1);
      expect(records.get("ex_old")).toBeNull();
      expect(records.output("ex_old", 0)).toEqual([]);
      expect(records.get("ex_running")?.status).toBe("running");
      expect(records.get("ex_new")).not.toBeNull();

      // By count: only the newest recordsKept survive.
      for (let i = 0; i < execLimits.recordsKept + 1; i++) {
        clock.nowMs += 1;
        records.create(`ex_n${i}`, "shell", "n", null, 10);
        records.finish(`ex_n${i}`, { status: "completed", exitCode: 0 });
      }
      // ex_new and ex_n0 fall outside the newest 1,000; the running one is kept regardless.
      expect(records.prune()).toBe(2);
      expect(records.get("ex_new")).toBeNull();
      expect(records.get("ex_n0")).toBeNull();
      expect(records.get("ex_running")?.status).toBe("running");
      expect(records.get(`ex_n${execLimits.recordsKept}`)).not.toBeNull();
    }));
});
