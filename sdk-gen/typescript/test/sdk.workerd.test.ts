/**
 * The SDK runs inside workerd, as it would in a user's Worker: same package, no Node APIs.
 * Its fetch is the gateway's own entry point, so everything behind it is real (D1, Durable
 * Objects, the shell and javascript executors in Dynamic Workers).
 */
import { exports } from "cloudflare:workers";
import { Cubicle, type ExecEvent, NotFoundError } from "@cubicle/sdk";
import { describe, expect, it } from "vitest";

const fetchGateway = (input: RequestInfo | URL, init?: RequestInit) => exports.default.fetch(new Request(input, init));

describe("the TypeScript SDK inside workerd", () => {
  it("signs up, writes and reads a file, streams a shell run and reads usage", async () => {
    const anonymous = new Cubicle({ baseUrl: "http://cubicle.test", fetch: fetchGateway });
    const signed = await anonymous.signup({ email: `workerd-${crypto.randomUUID()}@example.com` });
    const cubicle = new Cubicle({ baseUrl: "http://cubicle.test", apiKey: signed.apiKey.key, fetch: fetchGateway });

    const ws = await cubicle.workspaces.create({ name: "in-workerd" });
    await ws.files.write("/hello.txt", "from a Worker\n");
    expect(await ws.files.readText("/hello.txt")).toBe("from a Worker\n");

    const events: ExecEvent[] = [];
    for await (const event of ws.exec.stream({ executor: "shell", command: "cat hello.txt; echo two" }))
      events.push(event);
    const stdout = events.flatMap((e) => (e.stream === "stdout" ? [e.text] : [])).join("");
    expect(stdout).toBe("from a Worker\ntwo\n");
    expect(events.at(-1)).toMatchObject({ stream: "exit", status: "completed", exitCode: 0 });

    const js = await ws.exec({ executor: "javascript", code: "export default async (n) => n + 1;", input: 41 });
    expect(js.result).toBe(42);

    const report = await cubicle.usage.get();
    expect(report.series.some((series) => series.meter === "api_requests" && series.total > 0)).toBe(true);
    await expect(cubicle.workspaces.get("ws_00000000000000000000000000")).rejects.toBeInstanceOf(NotFoundError);
  });
});
