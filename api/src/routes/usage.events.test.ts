import { describe, expect, it } from "vitest";
import { call, createKey, createWorkspace, expectProblem, json, signup } from "../../../test/client.ts";
import { CSV_COLUMNS } from "./usageCsv.ts";

interface UsageEvent {
  id: string;
  meter: string;
  quantity: number;
  at: string;
  workspaceId: string | null;
  keyId: string | null;
  executor: string | null;
}

interface EventPage {
  data: UsageEvent[];
  nextCursor: string | null;
}

const page = async (key: string, query: string) => {
  const response = await call("GET", `/v1/usage/events${query}`, { key });
  expect(response.status).toBe(200);
  return json<EventPage>(response);
};

/** Walks every page of a listing with `limit`, returning the events in order. */
async function walk(key: string, query: string, limit: number): Promise<UsageEvent[]> {
  const events: UsageEvent[] = [];
  let cursor: string | null = null;
  do {
    const next: EventPage = await page(key, `${query}&limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`);
    expect(next.data.length).toBeLessThanOrEqual(limit);
    events.push(...next.data);
    cursor = next.nextCursor;
  } while (cursor !== null);
  return events;
}

/** An RFC 4180 parser for the tests: quoted fields, doubled quotes, CRLF records. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted && char === '"' && text[i + 1] === '"') {
      field += '"';
      i++;
    } else if (quoted) {
      if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') {
      quoted = true;
    } else if (char === "," || (char === "\r" && text[i + 1] === "\n")) {
      row.push(field);
      field = "";
      if (char === "\r") {
        rows.push(row);
        row = [];
        i++;
      }
    } else {
      field += char;
    }
  }
  expect(field).toBe(""); // every record ends with CRLF
  return rows;
}

const asCsvRow = (event: UsageEvent) => CSV_COLUMNS.map((column) => String(event[column] ?? ""));

/** Makes `count` requests and returns their request ids (each is its usage event's id). */
async function requests(key: string, count: number, path = "/v1/account"): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const response = await call("GET", path, { key });
    ids.push(response.headers.get("x-request-id") ?? "");
  }
  return ids;
}

/** A moment after every request so far, so later requests fall outside `[from, to)`. */
async function now(): Promise<string> {
  await new Promise((resolve) => setTimeout(resolve, 5));
  return new Date().toISOString();
}

describe("GET /v1/usage/events", () => {
  it("lists each request as an event with its id, key and workspace", async () => {
    const { key, keyId } = await signup();
    const workspaceId = await createWorkspace(key);
    const [inWorkspace] = await requests(key, 1, `/v1/workspaces/${workspaceId}`);
    const [outside] = await requests(key, 1);
    const listed = await page(key, `?to=${await now()}`);
    expect(listed.nextCursor).toBeNull();
    expect(listed.data.find((e) => e.id === inWorkspace)).toEqual({
      id: inWorkspace,
      meter: "api_requests",
      quantity: 1,
      at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      workspaceId,
      keyId,
      executor: null,
    });
    expect(listed.data.find((e) => e.id === outside)).toMatchObject({ workspaceId: null, keyId });
    const filtered = await page(key, `?workspaceId=${workspaceId}`);
    expect(filtered.data.map((e) => e.id)).toEqual([inWorkspace]);
  });

  it("walks every event exactly once across pages, in (at, id) order", async () => {
    const { key } = await signup();
    const made = await requests(key, 11);
    const to = await now();
    const whole = await page(key, `?to=${to}`);
    expect(whole.nextCursor).toBeNull();
    expect(whole.data.map((e) => e.id)).toEqual(expect.arrayContaining(made));
    for (const limit of [1, 3, whole.data.length]) {
      const walked = await walk(key, `?to=${to}`, limit);
      expect(walked).toEqual(whole.data);
    }
    const sorted = [...whole.data].sort((a, b) => (a.at === b.at ? (a.id < b.id ? -1 : 1) : a.at < b.at ? -1 : 1));
    expect(whole.data).toEqual(sorted);
  });

  it("filters by meter and key", async () => {
    const { key, keyId } = await signup();
    const other = await createKey(key, {});
    const byOther = await requests(other.key, 2);
    const to = await now();
    expect((await page(key, `?to=${to}&keyId=${other.id}`)).data.map((e) => e.id)).toEqual(byOther);
    const mine = (await page(key, `?to=${to}&keyId=${keyId}&meter=api_requests`)).data;
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((e) => e.keyId === keyId && e.meter === "api_requests")).toBe(true);
    expect((await page(key, `?to=${to}&meter=shell_ms`)).data).toEqual([]);
  });

  it("exports the same events as CSV, with a header and one row per event", async () => {
    const { key } = await signup();
    await requests(key, 5);
    const to = await now();
    const from = new Date(Date.now() - 3_600_000).toISOString();
    const listed = await walk(key, `?from=${from}&to=${to}`, 2);
    const response = await call("GET", `/v1/usage/events?from=${from}&to=${to}&limit=1`, {
      key,
      headers: { accept: "text/csv" },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const compact = (iso: string) => iso.replace(/\.\d+Z$/, "Z").replaceAll(/[-:]/g, "");
    expect(response.headers.get("content-disposition")).toBe(
      `attachment; filename="usage-${compact(from)}-${compact(to)}.csv"`,
    );
    expect(response.headers.get("ratelimit")).not.toBeNull();
    const [header, ...rows] = parseCsv(await response.text());
    expect(header).toEqual([...CSV_COLUMNS]);
    expect(rows).toEqual(listed.map(asCsvRow));
  });

  it("answers an empty range with only the header", async () => {
    const { key } = await signup();
    const response = await call("GET", "/v1/usage/events?from=2020-01-01T00:00:00Z&to=2020-01-02T00:00:00Z", {
      key,
      headers: { accept: "text/csv" },
    });
    expect(await response.text()).toBe(`${CSV_COLUMNS.join(",")}\r\n`);
  });

  it("never shows one tenant's events to another", async () => {
    const alice = await signup();
    const bob = await signup();
    const hers = await requests(alice.key, 3);
    await requests(bob.key, 2);
    const to = await now();
    const bobs = await walk(bob.key, `?to=${to}`, 100);
    expect(bobs.length).toBeGreaterThan(0);
    expect(bobs.filter((e) => hers.includes(e.id))).toEqual([]);
    const csv = await (
      await call("GET", `/v1/usage/events?to=${to}`, { key: bob.key, headers: { accept: "text/csv" } })
    ).text();
    for (const id of hers) expect(csv).not.toContain(id);
    // Filtering by the other tenant's key finds nothing rather than her events.
    expect((await page(bob.key, `?keyId=${alice.keyId}`)).data).toEqual([]);
  });

  it("names only the caller's own workspaces, however a refused request named another", async () => {
    const alice = await signup();
    const bob = await signup();
    const his = await createWorkspace(bob.key);
    const hers = await createWorkspace(alice.key);
    const sibling = await createWorkspace(alice.key);
    const restricted = await createKey(alice.key, { workspaceIds: [hers] });
    const paths = [`/v1/workspaces/${his}`, `/v1/workspaces/${his}/files/a.txt`, `/v1/workspaces/${his}/execs`];
    const refused = [
      ...(await Promise.all(paths.map((path) => requests(alice.key, 1, path)))).flat(),
      ...(await requests(restricted.key, 2, `/v1/workspaces/${sibling}`)),
    ];
    const [own] = await requests(alice.key, 1, `/v1/workspaces/${hers}`);
    const events = await walk(alice.key, `?to=${await now()}`, 100);
    // Each refused request is billed to her (it was answered), but tagged with no workspace.
    for (const id of refused) expect(events.find((e) => e.id === id)).toMatchObject({ workspaceId: null });
    expect(events.find((e) => e.id === own)).toMatchObject({ workspaceId: hers });
    expect(events.filter((e) => e.workspaceId === his)).toEqual([]);
    expect((await page(alice.key, `?workspaceId=${his}`)).data).toEqual([]);
  });

  it("refuses a cursor it did not make, a bad range and a page too large", async () => {
    const { key } = await signup();
    for (const query of ["?cursor=not-a-cursor", `?cursor=${btoa('["x","y"]')}`]) {
      const problem = await expectProblem(
        await call("GET", `/v1/usage/events${query}`, { key }),
        400,
        "validation_failed",
      );
      expect(problem.errors).toEqual([expect.objectContaining({ pointer: "/cursor" })]);
    }
    const inverted = "?from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z";
    await expectProblem(await call("GET", `/v1/usage/events${inverted}`, { key }), 400, "validation_failed");
    await expectProblem(await call("GET", "/v1/usage/events?limit=101", { key }), 400, "validation_failed");
    await expectProblem(await call("GET", "/v1/usage/events?workspaceId=nope", { key }), 400, "validation_failed");
  });
});
