import { describe, expect, it } from "vitest";
import type { StoredEvent } from "../../../tenants/account/ledger/events.ts";
import { CSV_COLUMNS, csvField, eventRow, eventsCsvStream } from "./usageCsv.ts";
import type { EventPosition } from "./usageShared.ts";

const event = (n: number): StoredEvent => ({
  id: `req_${String(n).padStart(3, "0")}`,
  meter: "api_requests",
  quantity: 1,
  at: `2026-01-01T00:00:0${n}.000Z`,
  workspaceId: null,
  keyId: "key_a",
  executor: null,
});

describe("CSV encoding", () => {
  it("quotes fields with commas, quotes and line breaks, doubling quotes (RFC 4180)", () => {
    expect(csvField("plain")).toBe("plain");
    expect(csvField(42)).toBe("42");
    expect(csvField(null)).toBe("");
    expect(csvField("a,b")).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("two\nlines")).toBe('"two\nlines"');
    expect(csvField("cr\r")).toBe('"cr\r"');
    expect(eventRow({ ...event(1), workspaceId: 'ws,"x"' })).toBe(
      'req_001,api_requests,1,2026-01-01T00:00:01.000Z,"ws,""x""",key_a,\r\n',
    );
  });

  it("streams the header and every page, reading the next page only after a full one", async () => {
    const all = [1, 2, 3, 4, 5].map(event);
    const asked: (EventPosition | undefined)[] = [];
    const nextPage = async (after: EventPosition) => {
      asked.push(after);
      const start = all.findIndex((e) => e.id === after.id) + 1;
      return all.slice(start, start + 2);
    };
    const text = await new Response(eventsCsvStream(all.slice(0, 2), 2, nextPage)).text();
    expect(text).toBe(csvRow(CSV_COLUMNS) + all.map(eventRow).join(""));
    // Pages of 2: [1,2] given, then [3,4], then [5] (short: the last).
    expect(asked.map((p) => p?.id)).toEqual(["req_002", "req_004"]);
  });

  it("asks once more after a full last page and stops at an empty one", async () => {
    const all = [1, 2].map(event);
    let reads = 0;
    const text = await new Response(
      eventsCsvStream(all, 2, async () => {
        reads++;
        return [];
      }),
    ).text();
    expect(text.split("\r\n")).toHaveLength(4);
    expect(reads).toBe(1);
  });
});

function csvRow(values: readonly string[]): string {
  return `${values.join(",")}\r\n`;
}
