/**
 * What the SDK promises without a server: createCubicle points requests at its base URL and
 * carries the API key, clients stay independent, and the package never reaches into server
 * code. The SDK against a running platform is covered by the e2e project.
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createCubicle, getAccount, getWorkspace, listWorkspaces, signup, type WorkspaceData } from "../src/index.ts";

/** A fetch that answers every request with `body` and remembers what it was asked. */
function recordingFetch(body: unknown = {}, status = 200) {
  const requests: Request[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    requests.push(new Request(input, init));
    return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
  };
  return { requests, fetch };
}

describe("createCubicle", () => {
  it("sends the API key as a bearer token to the configured base URL", async () => {
    const { requests, fetch } = recordingFetch({ id: "tnt_1" });
    const client = createCubicle({ baseUrl: "https://cubicle.test", apiKey: "cub_secret", fetch });

    const result = await getAccount({ client });

    expect(result.response?.status).toBe(200);
    expect(requests).toHaveLength(1);
    expect(requests[0]?.url).toBe("https://cubicle.test/v1/account");
    expect(requests[0]?.headers.get("authorization")).toBe("Bearer cub_secret");
  });

  it("fills path parameters and returns the parsed body", async () => {
    const workspace: WorkspaceData = {
      id: "ws_1",
      name: "demo",
      metadata: {},
      createdAt: "2026-01-01T00:00:00.000Z",
      sizeBytes: 0,
      fileCount: 0,
      storageBytes: 0,
      forkedFrom: null,
    };
    const { requests, fetch } = recordingFetch(workspace);
    const client = createCubicle({ baseUrl: "https://cubicle.test", apiKey: "cub_secret", fetch });

    const result = await getWorkspace({ client, path: { workspaceId: "ws_1" } });

    expect(requests[0]?.url).toBe("https://cubicle.test/v1/workspaces/ws_1");
    expect(result.data).toEqual(workspace);
  });

  it("sends no Authorization header without a key, so signup works", async () => {
    const { requests, fetch } = recordingFetch({}, 201);
    const client = createCubicle({ baseUrl: "https://cubicle.test", fetch });

    await signup({ client, body: { email: "a@example.com" } });

    expect(requests[0]?.method).toBe("POST");
    expect(requests[0]?.headers.get("authorization")).toBeNull();
  });

  it("keeps two clients' keys apart", async () => {
    const { requests, fetch } = recordingFetch({ data: [], nextCursor: null });
    const first = createCubicle({ baseUrl: "https://one.test", apiKey: "cub_one", fetch });
    const second = createCubicle({ baseUrl: "https://two.test", apiKey: "cub_two", fetch });

    await listWorkspaces({ client: first });
    await listWorkspaces({ client: second });

    expect(requests.map((r) => [new URL(r.url).host, r.headers.get("authorization")])).toEqual([
      ["one.test", "Bearer cub_one"],
      ["two.test", "Bearer cub_two"],
    ]);
  });

  it("surfaces a problem+json error as the error value", async () => {
    const problem = { type: "about:blank", title: "Unauthorized", status: 401, code: "unauthorized" };
    const { fetch } = recordingFetch(problem, 401);
    const client = createCubicle({ baseUrl: "https://cubicle.test", apiKey: "cub_bad", fetch });

    const result = await getAccount({ client });

    expect(result.response?.status).toBe(401);
    expect(result.error).toEqual(problem);
  });
});

describe("the SDK package", () => {
  it("imports nothing from server code", async () => {
    const sourceDir = join(import.meta.dirname, "../src");
    const files = (await readdir(sourceDir, { recursive: true })).filter((file) => file.endsWith(".ts"));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const source = await readFile(join(sourceDir, file), "utf8");
      const specifiers = [...source.matchAll(/(?:from|import)\s*\(?\s*["']([^"']+)["']/g)].map((match) => match[1]);
      for (const specifier of specifiers) {
        expect(specifier, `${file} imports ${specifier}`).toMatch(/^\.\.?\//);
        expect(specifier, `${file} imports ${specifier}`).not.toMatch(/\/(api|tenants|executors)\//);
      }
    }
  });
});
